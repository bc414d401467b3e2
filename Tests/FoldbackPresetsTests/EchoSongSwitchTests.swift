// A song switch that keeps the echo (the next song's preset at another bpm): the tail carries on and retimes without a click. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import FoldbackGraph
@testable import FoldbackPresets
import XCTest

final class EchoSongSwitchTests: XCTestCase {
    /// Mono strip `vox` through a 1/4 echo into stereo bus `main`, at `bpm` (as a setlist song sets it).
    static func preset(bpm: Float, timeChange: String) throws -> Preset {
        try PresetLoader.parse("""
            [[bus]]
            name = "main"
            channels = 2
            limiter = false

            [[strip]]
            name = "vox"
              [[strip.unit]]
              type = "echo"
              sync = "1/4"
              feedback = 30
              high_cut_hz = 20000
              mix = 0.5
              time_change = "\(timeChange)"
              [[strip.send]]
              bus = "main"
            """, path: "song.toml").settingTempo(bpm)
    }

    struct Take {
        var left: [Float]
        var continued: Bool
    }

    /// Renders 4.2 s in blocks of `block`: a 150 ms 440 Hz sine (0.3) at 0, a unit impulse at 3 s; the song switch
    /// (120 → 72 BPM, the live session's 30 ms equal-power fade) before the cycle holding frame 0.55 s (the first repeat plays) when `switching`.
    static func render(sampleRate: Double, block: Int, timeChange: String, switching: Bool) throws -> Take {
        let frames = Int(4.2 * sampleRate), impulseAt = Int(3 * sampleRate), switchAt = Int(0.55 * sampleRate)
        let input = (0..<frames).map { frame -> Float in
            if frame == impulseAt { return 1 }
            return frame < Int(0.15 * sampleRate) ? Float(0.3 * sin(2 * Double.pi * 440 * Double(frame) / sampleRate)) : 0
        }
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 1024))
        try engine.install(PresetGraphBuilder.graph(for: preset(bpm: 120, timeChange: timeChange), sampleRate: sampleRate, maxFrames: 1024), crossfade: .none)
        var left = [Float](repeating: 0, count: frames)
        let scratch = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 1024) }
        defer { scratch.forEach { $0.deallocate() } }
        var continued = false, start = 0, switched = !switching
        try input.withUnsafeBufferPointer { samples in
            while start < frames {
                let count = min(block, frames - start)
                if !switched, start + count > switchAt {
                    let next = try PresetGraphBuilder.graph(
                        for: preset(bpm: 72, timeChange: timeChange), sampleRate: sampleRate, maxFrames: 1024, continuing: engine.runningGraph)
                    continued = next.continuedUnits.map { "\($0.strip)/\($0.unit)" } == ["vox/echo"]
                    try engine.install(next, crossfade: Crossfade(duration: 0.030, law: .equalPower))
                    switched = true
                }
                engine.io.pointee.inputs[0] = samples.baseAddress! + start
                for channel in 0..<2 { engine.io.pointee.outputs[channel] = scratch[channel] }
                engine.io.pointee.inputCount = 1
                engine.io.pointee.outputCount = 2
                engine.renderCycle(frames: count)
                for frame in 0..<count { left[start + frame] = scratch[0][frame] }
                engine.collectGarbage()
                start += count
            }
        }
        return Take(left: left, continued: continued)
    }

    static func largestStep(_ samples: ArraySlice<Float>) -> Float {
        zip(samples.dropFirst(), samples).map { abs($0 - $1) }.max() ?? 0
    }

    /// 120 → 72 BPM at 0.55 s, mid-repeat, at 44.1 and 48 kHz, blocks 1, 7, 253 and 1024, glide and crossfade:
    /// the new graph keeps the running echo (`vox/echo` continued), the tail carries on (its energy from the switch
    /// to 2.9 s at least 60 % of the same take without a switch), no sample step after the switch is above the
    /// tail's own (the largest step of the same take without a switch) by more than √2 + 2 %: the live switch's
    /// 30 ms equal-power fade sums a kept unit's output from both graphs, a smooth swell of at most +3 dB, not a
    /// click; and afterwards the impulse at 3 s repeats exactly a 1/4 at 72 BPM later (40,000 frames at 48 kHz).
    func testASongSwitchRetimesTheRunningTailWithoutAClick() throws {
        var report: [String] = []
        for sampleRate in [44_100.0, 48_000.0] {
            let expected = EchoParameters(sync: .quarter, tempo: 72).frames(sampleRate: sampleRate)
            for timeChange in ["glide", "crossfade"] {
                let reference = try Self.render(sampleRate: sampleRate, block: 256, timeChange: timeChange, switching: false)
                let tailRange = Int(0.55 * sampleRate)..<Int(2.9 * sampleRate)
                let referenceEnergy = reference.left[tailRange].reduce(0) { $0 + $1 * $1 }
                let own = Self.largestStep(reference.left[Int(0.45 * sampleRate)..<Int(2.9 * sampleRate)])
                for block in [1, 7, 253, 1024] {
                    let take = try Self.render(sampleRate: sampleRate, block: block, timeChange: timeChange, switching: true)
                    let label = "\(timeChange) \(Int(sampleRate)) Hz block \(block)"
                    XCTAssertTrue(take.continued, "\(label): the echo is kept")
                    let energy = take.left[tailRange].reduce(0) { $0 + $1 * $1 }
                    XCTAssertGreaterThan(energy, 0.6 * referenceEnergy, label)
                    let step = Self.largestStep(take.left[Int(0.45 * sampleRate)..<Int(2.9 * sampleRate)])
                    XCTAssertLessThanOrEqual(step, 1.02 * Float(2).squareRoot() * own, label)
                    let impulseAt = Int(3 * sampleRate)
                    let repeatAt = (impulseAt + 10..<take.left.count).first { abs(take.left[$0]) > 0.25 }
                    XCTAssertEqual(repeatAt.map { $0 - impulseAt }, expected, label)
                    report.append("\(label): step \(String(format: "%.5f", step)) vs own \(String(format: "%.5f", own)), tail \(String(format: "%.0f", 100 * energy / referenceEnergy)) %")
                }
            }
        }
        print("EchoSongSwitchTests:\n" + report.joined(separator: "\n"))
    }

    /// A song whose echo is set up otherwise (a stereo strip) starts its echo afresh instead.
    func testAnEchoOnAnotherFormatStartsAfresh() throws {
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 64))
        try engine.install(PresetGraphBuilder.graph(for: Self.preset(bpm: 120, timeChange: "glide"), sampleRate: 48000, maxFrames: 64), crossfade: .none)
        engine.renderCycle(frames: 64)
        let otherRate = try PresetGraphBuilder.graph(
            for: Self.preset(bpm: 72, timeChange: "glide"), sampleRate: 44100, maxFrames: 64, continuing: engine.runningGraph)
        XCTAssertEqual(otherRate.continuedUnits.count, 0)
        let same = try PresetGraphBuilder.graph(
            for: Self.preset(bpm: 72, timeChange: "glide"), sampleRate: 48000, maxFrames: 64, continuing: engine.runningGraph)
        let old = try XCTUnwrap(engine.runningGraph?.description.strips[0].units.first as? EchoUnit)
        let new = try XCTUnwrap(same.description.strips[0].units.first as? EchoUnit)
        XCTAssertTrue(new.shares(with: old))
    }
}
