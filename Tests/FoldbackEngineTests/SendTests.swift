// Sends: pre-fader sends ignore the fader, post-fader sends follow it, send levels and their smoothed changes.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class SendTests: XCTestCase {
    private let sampleRates: [Double] = [44100, 48000, 96000]

    /// One mono strip with its fader at `faderDB`, a pre-fader send to bus "pre" and a post-fader send to bus "post".
    private func preAndPost(faderDB: Float, preDB: Float = 0, postDB: Float = 0, isMuted: Bool = false) -> GraphDescription {
        GraphDescription(
            strips: [StripDescription(name: "vox", channels: 1, sends: [
                SendDescription(bus: 0, gainDB: preDB, isPreFader: true),
                SendDescription(bus: 1, gainDB: postDB, isPreFader: false),
            ], gainDB: faderDB, isMuted: isMuted)],
            buses: [BusDescription(name: "pre", channels: 1), BusDescription(name: "post", channels: 1)])
    }

    func testPreFaderSendIgnoresTheFaderAndPostFaderSendFollowsIt() throws {
        for sampleRate in sampleRates {
            for faderDB: Float in [-20, 0, 10, -.infinity] {
                let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
                try host.install(preAndPost(faderDB: faderDB, preDB: -6.0206), sampleRate: sampleRate)
                let input = TestSignal.sine(frames: 2000, sampleRate: sampleRate)
                let output = host.render([input], blockSize: 253)
                assertSignalsEqual(output[0], input.map { $0 * 0.5 }, tolerance: 1e-6, "pre-fader at fader \(faderDB) dB")
                let fader = TestSignal.linear(faderDB)
                assertSignalsEqual(output[1], input.map { $0 * fader }, tolerance: 1e-6, "post-fader at fader \(faderDB) dB")
            }
        }
    }

    func testMovingTheFaderLeavesThePreFaderSendUntouchedWhileThePostFaderSendRamps() throws {
        for sampleRate in sampleRates {
            let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
            try host.install(preAndPost(faderDB: -20), sampleRate: sampleRate)
            let input = TestSignal.sine(frames: 4000, sampleRate: sampleRate)
            let ramp = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate)
            let changeAt = 506
            let output = try host.render([input], blockSize: 253) { _, start in
                if start == changeAt { try host.engine.set(.stripGain(strip: 0), to: 0) }
            }
            XCTAssertEqual(output[0], input, "the pre-fader send is the input, bit for bit, before, during and after the move")
            assertSignalsEqual(Array(output[1][..<changeAt]), input[..<changeAt].map { $0 * 0.1 }, tolerance: 1e-6, "before the move")
            assertSignalsEqual(Array(output[1][(changeAt + ramp - 1)...]), Array(input[(changeAt + ramp - 1)...]), tolerance: 1e-6,
                               "post-fader send at the new fader level \(ramp) frames after the move, \(sampleRate) Hz")
        }
    }

    func testSendLevelChangeIsSmoothedAndArrivesAfterTheSmoothingTime() throws {
        for sampleRate in sampleRates {
            let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
            try host.install(preAndPost(faderDB: 0), sampleRate: sampleRate)
            let ramp = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate)
            let changeAt = 7 * 10
            let output = try host.render([TestSignal.dc(frames: changeAt + ramp + 300)], blockSize: 7) { _, start in
                if start == changeAt { try host.engine.set(.sendGain(strip: 0, send: 1), to: -12) }
            }
            let target = TestSignal.linear(-12)
            let post = output[1]
            XCTAssertTrue(post[..<changeAt].allSatisfy { $0 == 1 })
            XCTAssertTrue(post[(changeAt + ramp - 1)...].allSatisfy { $0 == target }, "exactly at −12 dB from frame \(ramp) of the ramp")
            XCTAssertNotEqual(post[changeAt + ramp - 2], target, "not before")
            XCTAssertLessThanOrEqual(TestSignal.largestStep(post), TestSignal.clickFreeStep(delta: 1 - target, frames: ramp), "no step in the send ramp")
            XCTAssertTrue(output[0].allSatisfy { $0 == 1 }, "the other send is unaffected")
        }
    }

    func testMuteSilencesEverySendIncludingPreFader() throws {
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
        try host.install(preAndPost(faderDB: 0, isMuted: true), sampleRate: 48000)
        let output = host.render([TestSignal.sine(frames: 2000, sampleRate: 48000)], blockSize: 253)
        assertFullyWritten(output)
        XCTAssertTrue(output[0].allSatisfy { $0 == 0 }, "pre-fader send of a muted strip is exactly silent")
        XCTAssertTrue(output[1].allSatisfy { $0 == 0 }, "post-fader send of a muted strip is exactly silent")
    }

    func testMutingLiveRampsEverySendDownToExactSilence() throws {
        for sampleRate in sampleRates {
            let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
            try host.install(preAndPost(faderDB: -6), sampleRate: sampleRate)
            let ramp = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate)
            let output = try host.render([TestSignal.dc(frames: 253 * 2 + ramp + 500)], blockSize: 253) { _, start in
                if start == 253 * 2 { try host.engine.set(.stripMute(strip: 0), to: 1) }
            }
            for (bus, level) in [(0, Float(1)), (1, TestSignal.linear(-6))] {
                XCTAssertEqual(output[bus][505], level)
                XCTAssertTrue(output[bus][(506 + ramp - 1)...].allSatisfy { $0 == 0 }, "bus \(bus) silent \(ramp) frames after mute")
                XCTAssertLessThanOrEqual(TestSignal.largestStep(output[bus]), TestSignal.clickFreeStep(delta: level, frames: ramp), "bus \(bus): mute is click-free")
            }
        }
    }
}
