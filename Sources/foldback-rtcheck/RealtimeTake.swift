// The scenario's sound check: raw input taps on two strips and a take feeding three, switched live ↔ take, serviced by the control loop. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import Foundation

/// A virtual sound check under the allocation count: strips `strip1` (mono) and `strip3` record their raw
/// input into input taps with their own switch (toggled like a take), and a three-channel take feeds
/// `strip1`, `strip2` and `strip3`, which the control loop keeps moving between live and take so the
/// 20 ms crossfades run on the audio thread too.
final class RealtimeTake {
    private var source: TakeSource?
    let control = TapSwitch()
    let inputTaps = [TapRing(channels: 1, frames: 1 << 16), TapRing(channels: 1, frames: 1 << 16)]
    static let tappedStrips = ["strip1", "strip3"]
    static let takeStrips = ["strip1": 0, "strip2": 1, "strip3": 2]
    private var drained = 0
    private var filled = 0
    private var switches = 0
    private let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 3 * (1 << 16))

    init() { control.request(on: true) }

    deinit { scratch.deallocate() }

    /// Attaches the input taps and the take (made for the first graph's strips, all on the take).
    func attach(to graph: EngineGraph) throws(EngineError) {
        for (ring, strip) in zip(inputTaps, Self.tappedStrips) { try graph.attachInputTap(ring, toStrip: strip, control: control) }
        let source = self.source ?? TakeSource(
            strips: graph.description.strips.map(\.name), channelOfStrip: Self.takeStrips, channels: 3,
            maxFrames: graph.maxFrames, onTake: true)
        try graph.attachTake(source)
        self.source = source
    }

    /// Drains the input taps, tops the take up with three tones, toggles the input take at half the run and
    /// moves `strip2` (every 200 cycles) and all strips (every 1000) between live and take.
    func service(cyclesDone: Int, cycles: Int) {
        for ring in inputTaps { drained += ring.drain(into: scratch, maxFrames: 1 << 16) }
        let want = cyclesDone < cycles / 2
        if want != control.isOn { control.request(on: want) }
        guard let source else { return }
        let frames = min(source.ring.freeFrames, 1 << 14)
        for frame in 0..<frames {
            for channel in 0..<3 { scratch[3 * frame + channel] = Float(sin(Double(filled + frame) * 0.01 * Double(channel + 1))) * 0.2 }
        }
        if frames > 0, source.ring.fill(from: scratch, frames: frames) { filled += frames }
        let strip2 = cyclesDone / 200 % 2 == 0, all = cyclesDone / 1000 % 2 == 0
        if source.isOnTake(strip: "strip2") != strip2 {
            source.setOnTake(strip2, strip: "strip2")
            switches += 1
        }
        if source.isOnTake(strip: "strip1") != all {
            for strip in Self.takeStrips.keys { source.setOnTake(all, strip: strip) }
            switches += 1
        }
    }

    var failures: [String] {
        var failures: [String] = []
        if drained == 0 { failures.append("the input taps delivered nothing") }
        if inputTaps.contains(where: { $0.overrunCount > 0 }) { failures.append("input taps overran") }
        if filled == 0 { failures.append("the take was never filled") }
        if switches < 4 { failures.append("strips did not move between live and take") }
        return failures
    }

    var summary: String { "\(drained) raw input frames, \(filled) take frames, \(switches) live/take switches" }
}
