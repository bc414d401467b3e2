// The `--meters` terminal view: peak/RMS bars with peak hold, gain reduction, DSP load, xruns, latency per bus, preset and song. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackAnalysis
package import FoldbackControl
import FoldbackDSP
package import FoldbackEngine
package import FoldbackPresets
package import Foundation

/// Draws the meter view in place about 20 times a second: cursor home, every line rewritten and
/// cleared to its end, the rest of the screen cleared once at the bottom, so nothing flickers.
package final class MeterView: @unchecked Sendable {
    /// Bars span this many dBFS up to 0.
    package static let rangeDB: Float = 60
    /// Characters per bar.
    package static let barWidth = 40
    /// How long a peak-hold mark stays before it falls, seconds.
    package static let holdSeconds = 1.5

    private let isTerminal: Bool
    private let screen: ScreenWriter
    private var holds: [String: (level: Float, time: Date)] = [:]
    private var hasDrawn = false

    /// A view writing to `screen` (standard output); on a non-terminal it prints one frame every few seconds instead.
    package init(isTerminal: Bool, screen: ScreenWriter = .standardOutput) {
        self.isTerminal = isTerminal
        self.screen = screen
    }

    private var frameCount = 0

    /// Draws one frame for `session` (`position` is the setlist position, if any).
    package func draw(session: LiveSession, position: String?) {
        frameCount += 1
        guard isTerminal || frameCount % 100 == 1 else { return }
        let preset = session.preset
        let header = "Foldback  \(preset.name ?? preset.path)" + (position.map { "  ·  \($0)" } ?? "")
        let status = String(format: "DSP %5.1f%%   xruns %d", session.host.cpuLoad, session.host.xrunCount)
        let latencies = session.preset.buses.compactMap { session.busLatency(named: $0.name) }
        let labels = session.engine.graph.map { MeterLabels(tree: ParameterPath.tree(graph: $0, preset: preset), graph: $0) } ?? MeterLabels()
        let lines = [header, status, Self.latencyLine(latencies), ""] + meterLines(session.engine.meters(), now: Date(), labels: labels)
            + Self.loudnessLines(session.loudness.snapshot())
            + [MeterViewKeys.cueLine(preset: preset, cue: CueSelection(session.engine)), Self.groupLine(preset: preset) { session.engine.value(at: $0) }].compactMap { $0 }
        if isTerminal {
            // Hide the cursor and clear once; afterwards only home + overwrite.
            let start = hasDrawn ? "\u{1B}[H" : "\u{1B}[?25l\u{1B}[2J\u{1B}[H"
            hasDrawn = true
            screen.show(start + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\n") + "\u{1B}[J")
        } else {
            screen.show(lines.joined(separator: "\n") + "\n")
        }
    }

    /// `groups  dca drums -3.0 dB  dca band MUTED   mute_group between_songs on`: each DCA's gain and mute
    /// and each mute group's state as they are now (`value` reads a live value, nil for the preset's), or nil without groups.
    package static func groupLine(preset: Preset, value: (ParameterAddress) -> Float?) -> String? {
        guard !preset.dcas.isEmpty || !preset.muteGroups.isEmpty else { return nil }
        let dcas = preset.dcas.enumerated().map { index, dca in
            let isMuted = (value(.dcaMute(dca: index)) ?? (dca.isMuted ? 1 : 0)) >= 0.5
            let gain = value(.dcaGain(dca: index)) ?? dca.gainDB
            return "dca \(dca.name) " + (isMuted ? "MUTED" : String(format: "%+.1f dB", gain))
        }
        let groups = preset.muteGroups.enumerated().map { index, group in
            "mute_group \(group.name) " + ((value(.muteGroup(group: index)) ?? (group.isMuted ? 1 : 0)) >= 0.5 ? "on" : "off")
        }
        return "groups  " + (dcas + groups).joined(separator: "   ")
    }

    /// `latency  main +1.50 ms, rt 17.50 ms   iem_vox* +0.00 ms, rt 5.33 ms!`: what Foldback adds and the
    /// round trip per bus (* in-ear, ! over the in-ear budget).
    package static func latencyLine(_ figures: [BusLatencyFigures]) -> String {
        "latency  " + figures.map { bus in
            let added = NumberFormatting.milliseconds(frames: bus.addedFrames, sampleRate: bus.sampleRate)
            let trip = bus.roundTripFrames.map { NumberFormatting.milliseconds(frames: $0, sampleRate: bus.sampleRate) } ?? "?"
            return "\(bus.bus)\(bus.isInEar ? "*" : "") +\(added) ms, rt \(trip) ms\(bus.exceedsInEarBudget ? "!" : "")"
        }.joined(separator: "   ")
    }

    /// `loudness` then per bus `bus/iem  M -18.2  S -19.0  I -18.7 LUFS  TP -1.2 dBTP  dose 12 % → 80 %`
    /// (momentary, short-term, integrated, the last reading's true peak; in-ear buses: dose now → projected).
    package static func loudnessLines(_ buses: [BusLoudness]) -> [String] {
        guard !buses.isEmpty else { return [] }
        func value(_ number: Double) -> String { number.isFinite ? String(format: "%6.1f", number) : "    -∞" }
        let width = max(8, buses.map { $0.name.count + 4 }.max() ?? 0)
        return ["loudness"] + buses.map { bus in
            let reading = bus.reading
            var line = "bus/\(bus.name)".padding(toLength: width, withPad: " ", startingAt: 0)
                + " M \(value(reading.momentaryLUFS))  S \(value(reading.shortTermLUFS))  I \(value(reading.integratedLUFS)) LUFS"
                + "  TP \(value(reading.truePeakDBTP)) dBTP"
            if let dose = bus.dosePercent, let projected = bus.projectedDosePercent {
                line += String(format: "  dose %.0f %% → %.0f %%", dose, projected) + (projected > 100 ? "!" : "")
            }
            return line
        }
    }

    /// One meter's linear levels, by name.
    package struct Level {
        var name: String
        var peak: Float
        var rms: Float
    }

    /// The bar lines of one snapshot: strips, buses, then gain reduction per compressor (compression, and
    /// expansion where any, on rows of their own), each feedback unit's notches, plugin outputs; each row named
    /// by `labels` (the tree's paths: `strip/vox`, `strip/vox/unit/comp`, a plugin output's port name).
    package func meterLines(_ meters: MeterSnapshot, now: Date, labels: MeterLabels = MeterLabels()) -> [String] {
        var reductions = DynamicsReadout.readouts(meters)
        for index in reductions.indices { reductions[index].unit = labels.unit(reductions[index].unit) }
        var lines = meterLines(
            strips: meters.strips.map { Level(name: labels.owner($0.name), peak: $0.reading.peak, rms: $0.reading.rms) },
            buses: meters.buses.map { Level(name: labels.owner("bus/" + $0.name), peak: $0.reading.peak, rms: $0.reading.rms) },
            reductions: reductions, now: now)
        let feedback = FeedbackReadout.readouts(meters)
        if !feedback.isEmpty {
            lines.append("feedback notches")
            lines += feedback.map { pad(labels.unit($0.unit), 24) + " " + $0.text }
        }
        let outputs = LiveStatus.unitOutputs(meters)
        if !outputs.isEmpty {
            lines.append("plugin outputs")
            lines += outputs.map { pad(labels.output(unit: $0.unit, key: $0.key), 24) + String(format: " %10.3f", $0.value) }
        }
        return lines
    }

    /// The bar lines: strips, buses, then gain reduction rows (`strip/unit GR`, `… exp`, `… gate`; bars over 24 dB).
    package func meterLines(strips: [Level], buses: [Level], reductions: [DynamicsReadout], now: Date) -> [String] {
        let names = reductions.map { "\($0.unit) \($0.kind.rawValue)" }
        let width = max(8, ((strips + buses).map(\.name) + names).map(\.count).max() ?? 0)
        var lines = ["strips (pre-fader)"]
        lines += strips.map { levelLine("strip/" + $0.name, level: $0, width: width, now: now) }
        lines.append("buses")
        lines += buses.map { levelLine("bus/" + $0.name, level: $0, width: width, now: now) }
        if !reductions.isEmpty {
            lines.append("gain reduction")
            for (name, readout) in zip(names, reductions) {
                let filled = Int((min(max(readout.decibels, 0), 24) / 24 * Float(Self.barWidth)).rounded())
                let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: Self.barWidth - filled)
                let value = readout.valueText
                lines.append(pad(name, width) + " " + bar + " " + String(repeating: " ", count: max(0, 8 - value.count)) + value)
            }
        }
        return lines
    }

    /// `name  ████▒▒▒···|···  -12.3 / -18.0 dBFS`: RMS solid, peak shaded, hold as `|`.
    private func levelLine(_ key: String, level: Level, width: Int, now: Date) -> String {
        let peak = Self.decibels(level.peak), rms = Self.decibels(level.rms)
        var hold = holds[key] ?? (peak, now)
        if peak >= hold.level || now.timeIntervalSince(hold.time) > Self.holdSeconds { hold = (peak, now) }
        holds[key] = hold
        let rmsCells = Self.cells(rms), peakCells = Self.cells(peak), holdCell = Self.cells(hold.level)
        var bar = (0..<Self.barWidth).map { $0 < rmsCells ? "█" : $0 < peakCells ? "▒" : "·" }
        if holdCell > 0 { bar[min(holdCell, Self.barWidth) - 1] = "|" }
        return pad(level.name, width) + " " + bar.joined() + " " + Self.text(peak) + " / " + Self.text(rms) + " dBFS"
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private static func decibels(_ linear: Float) -> Float {
        let value = Decibels.decibels(fromLinearGain: linear)
        return value.isFinite ? max(value, -rangeDB - 1) : -rangeDB - 1
    }

    private static func cells(_ decibels: Float) -> Int {
        Int(((decibels + rangeDB) / rangeDB * Float(barWidth)).rounded()).clamped(to: 0...barWidth)
    }

    private static func text(_ decibels: Float) -> String {
        decibels < -rangeDB ? "  -inf" : String(format: "%6.1f", decibels)
    }

    /// Shows the cursor again and moves below the view (waits at most a second for a terminal that stopped reading).
    package func finish() {
        if isTerminal && hasDrawn { screen.showAndWait("\u{1B}[?25h\n", timeout: 1) }
    }
}

extension Int {
    fileprivate func clamped(to range: ClosedRange<Int>) -> Int { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
