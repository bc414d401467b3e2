// The one-line live status: DSP load, xruns and bus peaks, redrawn in place on a terminal. Non-realtime.
import Foundation
import FoldbackDSP
import FoldbackEngine

/// Formats and prints the live status line.
struct LiveStatus {
    /// Whether standard output is a terminal (redraw in place) or a log (a line every few seconds).
    let isTerminal: Bool

    /// Main-loop ticks (100 ms) between status lines.
    var ticksPerLine: Int { isTerminal ? 1 : 50 }

    /// One status line: load, xruns, each bus's peak, then gain reduction and NaN/Inf guard trips where any.
    static func line(load: Double, xruns: Int, meters: MeterSnapshot) -> String {
        var parts = [String(format: "DSP %5.1f%%  xruns %d", load, xruns)]
        for bus in meters.buses {
            let decibels = Decibels.decibels(fromLinearGain: bus.reading.peak)
            let text = decibels.isFinite ? String(format: "%6.1f", max(decibels, -99.9)) : "  -inf"
            parts.append("\(bus.name) \(text) dBFS")
        }
        for unit in meters.units {
            for reading in unit.readings where reading.key == "gain_reduction_db" {
                parts.append("\(unit.strip)/\(unit.unit) GR " + String(format: "%4.1f dB", reading.value))
            }
        }
        let trips = meters.strips.filter { $0.reading.guardTrips > 0 }
        if !trips.isEmpty {
            parts.append("NaN/Inf guard: " + trips.map { "\($0.name) \($0.reading.guardTrips)×" }.joined(separator: ", "))
        }
        return parts.joined(separator: "  ")
    }

    func show(load: Double, xruns: Int, meters: MeterSnapshot, extra: [String] = []) {
        draw(([Self.line(load: load, xruns: xruns, meters: meters)] + extra).joined(separator: "  "))
    }

    /// Prints `text` as the status line: in place on a terminal, else as a new line.
    func draw(_ text: String) {
        if isTerminal {
            print("\r\u{1B}[2K" + text, terminator: "")
        } else {
            print(text)
        }
        fflush(nil)   // flushes every output stream; `stdout` itself is not concurrency-safe to name
    }

    /// Ends an in-place status line.
    func finish() {
        if isTerminal { print("") }
    }
}
