// ReverbUnit on the unit interface and in the engine: descriptors, widening to stereo, dry exactness, live parameters, block sizes, reset.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class ReverbUnitTests: XCTestCase {
    private func stereoHost(sampleRate: Double, unit: ReverbUnit, stripChannels: Int = 1) throws -> OfflineEngine {
        let host = OfflineEngine(maxFrames: 1024, inputs: stripChannels, outputs: 2)
        try host.install(TestGraph.single(stripChannels: stripChannels, busChannels: 2, units: [unit]), sampleRate: sampleRate)
        return host
    }

    func testParametersAreKeyedAsInPresetsWithTheKernelsRangesAndDefaults() {
        let unit = ReverbUnit()
        XCTAssertEqual(unit.typeName, "reverb")
        XCTAssertEqual(unit.parameters.map(\.key), ["decay_s", "predelay_ms", "size", "damping", "diffusion", "mix", "width"])
        let defaults = ReverbParameters.defaults
        XCTAssertEqual(unit.parameters.map(\.defaultValue),
                       [defaults.decay, defaults.predelay, defaults.size, defaults.damping, defaults.diffusion, defaults.mix, defaults.width])
        XCTAssertEqual(unit.parameters[0].range, 0.1...20)
        XCTAssertEqual(unit.parameters[1].range, 0...200)
        XCTAssertTrue(unit.parameters[2...].allSatisfy { $0.range == 0...1 })
        let valued = ReverbUnit(values: ["decay_s": 3.5, "predelay_ms": 40, "size": 0.9, "damping": 0.1, "diffusion": 0.2, "mix": 0.3, "width": 0.7])
        XCTAssertEqual(valued.settings, ReverbParameters(decay: 3.5, predelay: 40, size: 0.9, damping: 0.1, diffusion: 0.2, mix: 0.3, width: 0.7))
        XCTAssertEqual(ReverbUnit(values: [:]).settings, defaults)
    }

    func testPrepareWidensToStereoWithNoLatencyAndRejectsWhatItCannotRun() throws {
        let mono = try ReverbUnit().prepare(channels: 1, sampleRate: 48000, maxFrames: 256)
        XCTAssertEqual([mono.inputChannels, mono.outputChannels, mono.latencyFrames], [1, 2, 0])
        let stereo = try ReverbUnit().prepare(channels: 2, sampleRate: 44100, maxFrames: 256)
        XCTAssertEqual([stereo.inputChannels, stereo.outputChannels, stereo.latencyFrames], [2, 2, 0])

        let prepared = ReverbUnit()
        _ = try prepared.prepare(channels: 1, sampleRate: 48000, maxFrames: 256)
        XCTAssertThrowsError(try prepared.prepare(channels: 1, sampleRate: 48000, maxFrames: 256), "one graph per unit")
        for (channels, sampleRate) in [(3, 48000.0), (0, 48000), (1, 0), (1, .nan), (1, 2_000_000)] {
            XCTAssertThrowsError(try ReverbUnit().prepare(channels: channels, sampleRate: sampleRate, maxFrames: 256)) { error in
                guard case .unitSetupFailed(unit: "reverb", _)? = error as? EngineError else { return XCTFail("\(error)") }
            }
        }
    }

    func testMonoStripComesOutStereoDryAtMixZeroAndDecorrelatedWet() throws {
        let input = TestSignal.noise(frames: 4000)
        let dryHost = try stereoHost(sampleRate: 48000, unit: ReverbUnit(settings: ReverbParameters(mix: 0)))
        let dry = dryHost.render([input], blockSize: 253)
        XCTAssertEqual(dry[0], input, "mix 0: the dry signal, bit for bit, on the left")
        XCTAssertEqual(dry[1], input, "and on the right")

        var impulse = [Float](repeating: 0, count: 48000)
        impulse[0] = 1
        let wetHost = try stereoHost(sampleRate: 48000, unit: ReverbUnit(settings: ReverbParameters(decay: 1, mix: 1)))
        let wet = wetHost.render([impulse], blockSize: 256)
        assertFullyWritten(wet)
        var product = 0.0, left = 0.0, right = 0.0
        for frame in impulse.indices {
            product += Double(wet[0][frame]) * Double(wet[1][frame])
            left += Double(wet[0][frame] * wet[0][frame])
            right += Double(wet[1][frame] * wet[1][frame])
        }
        XCTAssertGreaterThan(left, 0.01, "the wet signal is there")
        XCTAssertLessThan(abs(product / (left * right).squareRoot()), 0.3, "left and right wet are decorrelated")
    }

    func testStereoStripKeepsItsDryChannelsApart() throws {
        let left = TestSignal.noise(frames: 3000, seed: 11), right = TestSignal.noise(frames: 3000, seed: 12)
        let host = try stereoHost(sampleRate: 96000, unit: ReverbUnit(settings: ReverbParameters(mix: 0)), stripChannels: 2)
        let output = host.render([left, right], blockSize: 7)
        XCTAssertEqual(output[0], left)
        XCTAssertEqual(output[1], right)
    }

    func testALiveMixChangeRampsToTheDrySignal() throws {
        let sampleRate = 48000.0
        let host = try stereoHost(sampleRate: sampleRate, unit: ReverbUnit(settings: ReverbParameters(decay: 2, mix: 0.5)))
        let input = TestSignal.noise(frames: 6000)
        let output = try host.render([input], blockSize: 256) { cycle, _ in
            if cycle == 1 { try host.engine.set(.unitParameter(strip: 0, unit: 0, parameter: 5), to: 0) }
        }
        XCTAssertNotEqual(Array(output[0][..<256]), Array(input[..<256]), "wet before the change")
        // Set at frame 256: reaches the kernel at the next 32-sample tick, then ramps over 20 ms (960 frames).
        let settled = 256 + 32 + 960
        XCTAssertEqual(Array(output[0][settled...]), Array(input[settled...]), "exactly dry once the ramp is over")
        XCTAssertEqual(Array(output[1][settled...]), Array(input[settled...]))
    }

    func testBlockSizesGiveTheSameOutputThroughTheEngine() throws {
        let input = TestSignal.noise(frames: 5000)
        func run(_ blockSize: Int) throws -> [[Float]] {
            let host = try stereoHost(sampleRate: 44100, unit: ReverbUnit(settings: ReverbParameters(decay: 1.3, predelay: 5, mix: 0.8)))
            return host.render([input], blockSize: blockSize)
        }
        let reference = try run(1)
        for blockSize in [7, 253, 1024] {
            let output = try run(blockSize)
            for channel in 0..<2 {
                assertSignalsEqual(output[channel], reference[channel], tolerance: 1e-6, "block \(blockSize), channel \(channel)")
            }
        }
    }

    func testResetAfterNaNInputGivesFiniteOutput() throws {
        let unit = ReverbUnit(settings: ReverbParameters(decay: 8, mix: 0.7))
        let slot = try unit.prepare(channels: 1, sampleRate: 48000, maxFrames: 512)
        var input = TestSignal.noise(frames: 512)
        input[17] = .nan
        var left = [Float](repeating: 0, count: 512), right = left
        func process() {
            input.withUnsafeBufferPointer { samples in
                left.withUnsafeMutableBufferPointer { outLeft in
                    right.withUnsafeMutableBufferPointer { outRight in
                        var inputs = [samples.baseAddress!]
                        var outputs = [outLeft.baseAddress!, outRight.baseAddress!]
                        slot.functions.process(slot.state, &inputs, &outputs, 512)
                    }
                }
            }
        }
        process()
        XCTAssertTrue(left.contains { $0.isNaN }, "NaN in, NaN out on that frame")
        slot.functions.reset(slot.state)
        input[17] = 0.25
        process()
        XCTAssertTrue(left.allSatisfy(\.isFinite) && right.allSatisfy(\.isFinite), "finite after reset")
        slot.functions.setParameter(slot.state, 0, 0.5)
        slot.functions.setParameter(slot.state, 99, 1)   // unknown index: ignored
        process()
        XCTAssertTrue(left.allSatisfy(\.isFinite))
    }
}
