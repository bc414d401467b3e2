// A send's mute (`strip/<s>/send/<b>/mute`): ramped off and back on without a click, its level kept, on any block size and rate.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class SendMuteTests: XCTestCase {
    /// Two buses fed by one strip: send 0 to `main` at −6 dB, send 1 to `iem` at −12 dB (pre-fader).
    private func twoSends(muted: Bool = false) -> GraphDescription {
        GraphDescription(
            strips: [StripDescription(name: "keys", channels: 1, sends: [
                SendDescription(bus: 0, gainDB: -6, isMuted: muted), SendDescription(bus: 1, gainDB: -12, isPreFader: true),
            ])],
            buses: [BusDescription(name: "main", channels: 1), BusDescription(name: "iem", channels: 1)])
    }

    func testMuteRampsTheSendOutAndBackToItsLevelWithoutAClick() throws {
        for sampleRate in [44100.0, 48000, 96000] {
            for blockSize in [1, 7, 253, 1024] {
                let frames = Int(sampleRate)   // one second of DC 0.5
                let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
                try host.install(twoSends(), sampleRate: sampleRate)
                let muteAt = frames / 4, unmuteAt = frames / 2
                var moves = [(muteAt, Float(1)), (unmuteAt, 0)][...]
                let output = try host.render([TestSignal.dc(frames: frames, value: 0.5)], blockSize: blockSize) { _, start in
                    // Each move at the first cycle starting at or after its frame (a frame later at most, block 1).
                    if let (frame, value) = moves.first, start >= frame {
                        try host.engine.set(.sendMute(strip: 0, send: 0), to: value)
                        moves.removeFirst()
                    }
                }
                assertFullyWritten(output)
                let label = "\(Int(sampleRate)) Hz, block \(blockSize)"
                let level = 0.5 * Decibels.linearGain(fromDecibels: -6), other = 0.5 * Decibels.linearGain(fromDecibels: -12)
                XCTAssertEqual(output[0][muteAt - 1], level, accuracy: 1e-5, "before the mute, \(label)")
                XCTAssertEqual(output[0][unmuteAt - 1], 0, accuracy: 1e-7, "muted, \(label)")
                XCTAssertEqual(output[0][frames - 1], level, accuracy: 1e-5, "the send's level is back after the unmute, \(label)")
                XCTAssertEqual(output[1].min() ?? 0, other, accuracy: 1e-5, "the other send never moves, \(label)")
                XCTAssertEqual(output[1].max() ?? 0, other, accuracy: 1e-5, "the other send never moves, \(label)")
                let ramp = TestSignal.frames(seconds: Double(LinearSmoother.defaultTime), sampleRate: sampleRate)
                XCTAssertLessThanOrEqual(TestSignal.largestStep(output[0]), TestSignal.clickFreeStep(delta: level, frames: ramp), "click-free, \(label)")
            }
        }
    }

    func testASendCanStartMutedAndTheAddressIsChecked() throws {
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
        try host.install(twoSends(muted: true), sampleRate: 48000)
        let output = host.render([TestSignal.dc(frames: 4800, value: 0.5)], blockSize: 253)
        XCTAssertEqual(output[0].map(abs).max() ?? 1, 0, "a send muted in its description is silent from the first frame")
        XCTAssertEqual(output[1][4799], 0.5 * Decibels.linearGain(fromDecibels: -12), accuracy: 1e-5)
        XCTAssertThrowsError(try host.engine.set(.sendMute(strip: 0, send: 2), to: 1), "no send #2")
        XCTAssertThrowsError(try host.engine.set(.sendMute(strip: 1, send: 0), to: 1), "no strip #1")
        try host.engine.set(.sendMute(strip: 0, send: 0), to: 0)
        XCTAssertEqual(host.engine.value(at: .sendMute(strip: 0, send: 0)), 0)
        let unmuted = host.render([TestSignal.dc(frames: 4800, value: 0.5)], blockSize: 1024)
        XCTAssertEqual(unmuted[0][4799], 0.5 * Decibels.linearGain(fromDecibels: -6), accuracy: 1e-5, "switched on: at its level")
    }
}
