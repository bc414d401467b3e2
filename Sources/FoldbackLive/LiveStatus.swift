// The one-line live status: DSP load, xruns and bus peaks, redrawn in place on a terminal. Non-realtime.
import Foundation
import FoldbackDSP
package import FoldbackEngine

/// Formats and prints the live status line.
package struct LiveStatus {
    /// Whether standard output is a terminal (redraw in place) or a log (a line every few seconds).
    package let isTerminal: Bool

    /// Main-loop ticks (100 ms) between status lines.
    package var ticksPerLine: Int { isTerminal ? 1 : 50 }

    /// One status line: load, xruns, each bus's peak, then each compressor's compression (and expansion where any) and NaN/Inf guard trips where any.
    package static func line(load: Double, xruns: Int, meters: MeterSnapshot) -> String {
        var parts = [String(format: "DSP %5.1f%%  xruns %d", load, xruns)]
        for bus in meters.buses {
            let decibels = Decibels.decibels(fromLinearGain: bus.reading.peak)
            let text = decibels.isFinite ? String(format: "%6.1f", max(decibels, -99.9)) : "  -inf"
            parts.append("\(bus.name) \(text) dBFS")
        }
        var previousUnit: String?
        for readout in DynamicsReadout.readouts(meters) {
            parts.append(readout.unit == previousUnit ? readout.text : "\(readout.unit) \(readout.text)")
            previousUnit = readout.unit
        }
        for readout in FeedbackReadout.readouts(meters) { parts.append("\(readout.unit) \(readout.shortText)") }
        for output in unitOutputs(meters) {
            parts.append("\(output.unit) \(output.key) " + String(format: "%.2f", output.value))
        }
        let trips = meters.strips.filter { $0.reading.guardTrips > 0 }
        if !trips.isEmpty {
            parts.append("NaN/Inf guard: " + trips.map { "\($0.name) \($0.reading.guardTrips)×" }.joined(separator: ", "))
        }
        return parts.joined(separator: "  ")
    }

    /// Every unit reading other than a compressor's gain reduction and a feedback unit's notches (an LV2
    /// plugin's control outputs), labelled `strip/unit`.
    package static func unitOutputs(_ meters: MeterSnapshot) -> [(unit: String, key: String, value: Float)] {
        meters.units.flatMap { unit in
            unit.readings.filter { !DynamicsReadout.isDynamicsKey($0.key) && !FeedbackReadout.isFeedbackKey($0.key) }.map { ("\(unit.strip)/\(unit.unit)", $0.key, $0.value) }
        }
    }

    package func show(load: Double, xruns: Int, meters: MeterSnapshot, extra: [String] = []) {
        draw(([Self.line(load: load, xruns: xruns, meters: meters)] + extra).joined(separator: "  "))
    }

    /// Shows `text` as the status line (in place on a terminal, else as a new line) through the screen writer,
    /// so a terminal that stops reading drops lines instead of stalling the main loop.
    package func draw(_ text: String) {
        ScreenWriter.standardOutput.show(isTerminal ? "\r\u{1B}[2K" + text : text + "\n")
    }

    /// Ends an in-place status line (waits at most a second for a terminal that stopped reading).
    package func finish() {
        if isTerminal { ScreenWriter.standardOutput.showAndWait("\n", timeout: 1) }
    }
}
