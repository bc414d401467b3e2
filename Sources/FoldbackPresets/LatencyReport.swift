// The latency block of `foldback check`: what each bus adds at a sample rate, path by path. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine

/// Renders the latency a prepared graph adds on the way to each bus: the strips' units (lookahead
/// compressors, LV2 plugins that report latency) and the bus limiter (its lookahead; none in zero-latency
/// mode). JACK's own periods come on top; `foldback run` prints the whole round trip.
public enum LatencyReport {
    /// One block: a heading, then a line per bus, e.g.
    /// `  main      1.50 ms (72 frames)  = strips 0 … 0 + limiter lookahead 72`.
    public static func render(_ layout: GraphLayout, preset: Preset, sampleRate: Double) -> String {
        let width = (preset.buses.map { $0.name.count + ($0.isInEar ? 1 : 0) }.max() ?? 0) + 2
        var lines = ["Latency added by Foldback at \(NumberFormatting.plain(sampleRate)) Hz (JACK's periods come on top; foldback run prints the round trip)"]
        for bus in layout.busLatencies {
            let spec = preset.bus(named: bus.bus)
            let own = bus.limiterFrames + bus.unitFrames
            let strips = bus.frames.lowerBound == bus.frames.upperBound
                ? "\(bus.frames.upperBound - own)"
                : "\(bus.frames.lowerBound - own) … \(bus.frames.upperBound - own)"
            let limiter = switch spec?.limiter?.mode {
            case .none: "no limiter"
            case .zeroLatency: "zero-latency limiter 0"
            case .lookahead: "limiter lookahead \(bus.limiterFrames)"
            }
            let name = (bus.bus + (spec?.isInEar == true ? "*" : "")).padding(to: width)
            let units = bus.unitFrames > 0 ? " + bus units \(bus.unitFrames)" : ""
            let output = spec?.hasOutput == false ? "  (effect bus: its returns carry this)" : ""
            let milliseconds = { (frames: Int) in NumberFormatting.milliseconds(frames: frames, sampleRate: sampleRate) }
            let total = bus.frames.lowerBound == bus.frames.upperBound
                ? "\(milliseconds(bus.frames.upperBound)) ms (\(bus.frames.upperBound) frames)"
                : "\(milliseconds(bus.frames.lowerBound)) … \(milliseconds(bus.frames.upperBound)) ms (\(bus.frames.lowerBound) … \(bus.frames.upperBound) frames)"
            lines.append("  \(name)\(total)  = strips \(strips)\(units) + \(limiter)\(output)")
            lines += pathLines(bus, indent: width + 4)
        }
        if preset.buses.contains(where: \.isInEar) { lines.append("  (* in-ear: foldback run warns past \(NumberFormatting.plain(BusSpec.inEarRoundTripBudgetMs)) ms round trip)") }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension LatencyReport {
    /// One line per send into the bus when their latencies differ: `vox 64 frames + 0`, `gtr 0 frames + 64 aligned`.
    static func pathLines(_ bus: BusLatency, indent: Int) -> [String] {
        guard Set(bus.sends.map(\.frames)).count > 1 else { return [] }
        let pad = String(repeating: " ", count: indent)
        return bus.sends.map { send in
            let applied = bus.isCompensated ? "+ \(send.delayFrames) compensation" : "not compensated (compensate = false)"
            return "\(pad)path \(send.strip): \(send.frames) frames \(applied)"
        }
    }
}

private extension String {
    func padding(to width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
