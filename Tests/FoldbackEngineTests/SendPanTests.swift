// A send's own pan into a stereo bus: the constant-power law for a mono strip, pre- and post-fader, on any block size.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class SendPanTests: XCTestCase {
    private let sampleRate = 48000.0
    private let stripPan: Float = 0.8
    private let faderDB: Float = -6

    /// The constant-power gains of `pan`: cos and sin of (pan + 1)·π/4.
    private func law(_ pan: Float) -> (left: Double, right: Double) {
        let angle = (Double(pan) + 1) * Double.pi / 4
        return (cos(angle), sin(angle))
    }

    private func graph(sendPan: Float?, isPreFader: Bool) -> GraphDescription {
        TestGraph.single(stripChannels: 1, busChannels: 2, gainDB: faderDB, pan: stripPan,
                         send: SendDescription(bus: 0, isPreFader: isPreFader, pan: sendPan))
    }

    /// Checks that side `output` is `gain` (linear) times `input` in level: within 0.01 dB, or silent for 0.
    private func assertLevel(_ output: [Float], of input: [Float], gain: Double, _ label: String) {
        if gain < 1e-6 {
            XCTAssertLessThan(output.map { abs($0) }.max() ?? 0, 1e-6, "\(label): silent")
            return
        }
        let measured = TestSignal.rmsDB(output) - TestSignal.rmsDB(input)
        XCTAssertEqual(measured, 20 * log10(gain), accuracy: 0.01, label)
    }

    func testMonoSendPanFollowsConstantPowerLawPreAndPostFader() throws {
        let tone = TestSignal.sine(frames: 4800, frequency: 1000, sampleRate: sampleRate, amplitude: 0.5)
        let fader = Double(Decibels.linearGain(fromDecibels: faderDB))
        for isPreFader in [true, false] {
            for pan: Float in [-1, -0.5, 0, 0.5, 1] {
                for blockSize in [1, 7, 253, 1024] {
                    let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
                    try host.install(graph(sendPan: pan, isPreFader: isPreFader), sampleRate: sampleRate)
                    let output = host.render([tone], blockSize: blockSize)
                    assertFullyWritten(output)
                    let (left, right) = law(pan)
                    let scale = isPreFader ? 1 : fader
                    let label = "pan \(pan), \(isPreFader ? "pre" : "post")-fader, block \(blockSize)"
                    assertLevel(output[0], of: tone, gain: left * scale, "left at " + label)
                    assertLevel(output[1], of: tone, gain: right * scale, "right at " + label)
                }
            }
        }
    }

    func testSendWithoutPanFollowsTheStripPan() throws {
        let tone = TestSignal.sine(frames: 4800, frequency: 1000, sampleRate: sampleRate, amplitude: 0.5)
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
        try host.install(graph(sendPan: nil, isPreFader: true), sampleRate: sampleRate)
        let output = host.render([tone], blockSize: 253)
        let (left, right) = law(stripPan)
        assertLevel(output[0], of: tone, gain: left, "left follows the strip pan")
        assertLevel(output[1], of: tone, gain: right, "right follows the strip pan")
    }

    func testLiveSendPanMoveIsSmoothedAndThenIgnoresTheStripPan() throws {
        let tone = TestSignal.sine(frames: 48000, frequency: 200, sampleRate: sampleRate, amplitude: 0.5)
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
        try host.install(graph(sendPan: nil, isPreFader: true), sampleRate: sampleRate)
        let output = try host.render([tone], blockSize: 256) { cycle, _ in
            if cycle == 20 { try host.engine.set(.sendPan(strip: 0, send: 0), to: -1) }
            if cycle == 40 { try host.engine.set(.stripPan(strip: 0), to: 1) }
        }
        let tail = 150 * 256
        XCTAssertLessThan(output[1][tail...].map { abs($0) }.max() ?? 1, 1e-6, "hard left send: right silent despite the strip pan")
        assertLevel(Array(output[0][tail...]), of: Array(tone[tail...]), gain: 1, "hard left send: left at unity")
        // Click-free: no step between consecutive right-channel samples beyond the tone's own slope.
        let slope = 0.5 * 2 * Double.pi * 200 / sampleRate
        for frame in 1..<output[1].count {
            XCTAssertLessThan(Double(abs(output[1][frame] - output[1][frame - 1])), slope * 1.05, "step at frame \(frame)")
        }
        XCTAssertThrowsError(try host.engine.set(.sendPan(strip: 0, send: 0), to: 1.5))
    }

    func testStereoSendPanIsItsOwnBalance() throws {
        let left = TestSignal.sine(frames: 4800, frequency: 1000, sampleRate: sampleRate, amplitude: 0.5)
        let right = TestSignal.noise(frames: 4800, seed: 5)
        for (pan, gains) in [(Float(-0.5), (1.0, 0.5)), (0.25, (0.75, 1.0)), (1, (0.0, 1.0))] {
            let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 2)
            try host.install(TestGraph.single(stripChannels: 2, busChannels: 2, pan: -1, send: SendDescription(bus: 0, isPreFader: true, pan: pan)),
                             sampleRate: sampleRate)
            let output = host.render([left, right], blockSize: 253)
            assertLevel(output[0], of: left, gain: gains.0, "left at send balance \(pan)")
            assertLevel(output[1], of: right, gain: gains.1, "right at send balance \(pan)")
        }
    }
}
