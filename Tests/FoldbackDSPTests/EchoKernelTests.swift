// The `echo` unit: repeats to the sample at every rate and block size, feedback per repeat, tempo sync, loop filters against the biquad design, ping-pong, stereo.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import Foundation
import XCTest

final class EchoKernelTests: XCTestCase {
    private let blockSizes = [1, 7, 253, 1024]

    /// An impulse at frame 3 through a 123.4 ms echo at 50 % feedback, filters off, wet only: the output is
    /// exactly 0.5ⁿ⁻¹ at 3 + n·round(123.4 ms · fs) for n = 1…5 and exactly 0 everywhere else.
    func testAnImpulseRepeatsExactlyAtTheTimeEachRepeatFeedbackLower() throws {
        for sampleRate in [44100.0, 48000.0, 96000.0] {
            let delay = Int((0.1234 * sampleRate).rounded())
            for blockSize in blockSizes {
                let driver = try EchoMeasurement.driver(EchoMeasurement.bare(time: 123.4, feedback: 50), sampleRate: sampleRate)
                XCTAssertEqual(driver.slot.latencyFrames, 0)
                XCTAssertEqual([driver.slot.inputChannels, driver.slot.outputChannels], [1, 2])
                let output = driver.render([EchoMeasurement.impulse(5 * delay + 10, at: 3)], blockSize: blockSize)
                let expected = (1...5).map { 3 + $0 * delay }
                for channel in 0..<2 {
                    let nonZero = output[channel].indices.filter { output[channel][$0] != 0 }
                    XCTAssertEqual(nonZero, expected, "\(sampleRate) Hz, block \(blockSize), channel \(channel)")
                    for (repeatIndex, frame) in expected.enumerated() {
                        XCTAssertEqual(output[channel][frame], Float(pow(0.5, Double(repeatIndex))), accuracy: 1e-7)
                    }
                }
            }
        }
    }

    /// `sync` counts note values against the tempo the host sets: at 120 BPM a 1/4 is 24,000 frames at
    /// 48 kHz, a 1/8. 18,000, a 1/8t 8,000; at 96 BPM a 1/8 is 312.5 ms, 15,000 frames.
    func testSyncedTimesFollowTheTempo() throws {
        let cases: [(tempo: Float, note: EchoNoteValue, frames: Int)] = [
            (120, .quarter, 24000), (120, .dottedEighth, 18000), (120, .eighthTriplet, 8000), (96, .eighth, 15000),
            (140, .sixteenth, 5143), (72, .quarter, 40000),
        ]
        for entry in cases {
            var settings = EchoMeasurement.bare(time: 10, feedback: 0)
            settings.sync = entry.note
            let driver = try EchoMeasurement.driver(settings, sampleRate: 48000)
            driver.set(Int(EchoUnit.tempoParameter), entry.tempo)
            // The tempo arrives before any audio: the head settles on it after one crossfade of silence.
            _ = driver.render([[Float](repeating: 0, count: 2000)], blockSize: 256)
            let output = driver.render([EchoMeasurement.impulse(entry.frames + 100)], blockSize: 253)[0]
            XCTAssertEqual(output.indices.filter { output[$0] != 0 }, [entry.frames], "\(entry.note.name) at \(entry.tempo) BPM")
        }
        XCTAssertEqual(EchoParameters(sync: .quarter, tempo: 120).frames(sampleRate: 48000), 24000)
        XCTAssertEqual(EchoParameters(sync: .whole, tempo: 20).seconds, 2, "12 s clamps to the longest time")
    }

    /// 200 Hz high-pass and 3 kHz low-pass in the loop at 70 % feedback: the n-th repeat of an impulse
    /// has the magnitude 0.7ⁿ⁻¹ · |H_hp · H_lp|ⁿ of ``BiquadDesign``'s sections, within 0.05 dB, at
    /// 100 Hz … 8 kHz wherever it is above −80 dB.
    func testEachRepeatIsFilteredOnceMoreAsTheBiquadDesignSays() throws {
        let sampleRate = 48000.0
        var settings = EchoMeasurement.bare(time: 300, feedback: 70)
        settings.lowCut = 200
        settings.highCut = 3000
        let driver = try EchoMeasurement.driver(settings, sampleRate: sampleRate)
        let delay = 14400
        let output = driver.render([EchoMeasurement.impulse(5 * delay)], blockSize: 256)[0]
        let q = 1 / 2.0.squareRoot()
        let highPass = BiquadDesign.section(.highPass, omega: 2 * Double.pi * 200 / sampleRate, gainDB: 0, q: q)
        let lowPass = BiquadDesign.section(.lowPass, omega: 2 * Double.pi * 3000 / sampleRate, gainDB: 0, q: q)
        var worst = 0.0
        for repeatIndex in 1...4 {
            let segment = output[(repeatIndex * delay)..<((repeatIndex + 1) * delay)]
            for frequency in [100.0, 200, 500, 1000, 2000, 3000, 5000, 8000] {
                let omega = 2 * Double.pi * frequency / sampleRate
                let loop = (highPass.squaredMagnitude(omega: omega) * lowPass.squaredMagnitude(omega: omega)).squareRoot()
                let expected = 20 * log10(pow(0.7, Double(repeatIndex - 1)) * pow(loop, Double(repeatIndex)))
                guard expected > -80 else { continue }
                let measured = 20 * log10(EchoMeasurement.magnitude(segment, frequency: frequency, sampleRate: sampleRate))
                worst = max(worst, abs(measured - expected))
                XCTAssertEqual(measured, expected, accuracy: 0.05, "repeat \(repeatIndex) at \(frequency) Hz")
            }
        }
        print("echo loop filters: worst deviation from the design over 4 repeats \(String(format: "%.4f", worst)) dB")
    }

    /// Ping-pong: an impulse's repeats alternate left (n odd), right (n even), each 0.5 lower, nothing on
    /// the other side; stereo keeps a left-only input on the left; mono puts the same on both sides.
    func testPingPongAlternatesAndStereoKeepsItsSides() throws {
        let delay = 4800
        for blockSize in blockSizes {
            let pingPong = try EchoMeasurement.driver(EchoMeasurement.bare(time: 100, feedback: 50, mode: .pingPong), sampleRate: 48000)
            let output = pingPong.render([EchoMeasurement.impulse(6 * delay)], blockSize: blockSize)
            let left = output[0].indices.filter { output[0][$0] != 0 }
            let right = output[1].indices.filter { output[1][$0] != 0 }
            XCTAssertEqual(left, [delay, 3 * delay, 5 * delay], "block \(blockSize)")
            XCTAssertEqual(right, [2 * delay, 4 * delay])
            XCTAssertEqual([output[0][delay], output[1][2 * delay], output[0][3 * delay], output[1][4 * delay]], [1, 0.5, 0.25, 0.125])
        }
        let stereo = try EchoMeasurement.driver(EchoMeasurement.bare(time: 100, feedback: 50, mode: .stereo), channels: 2, sampleRate: 48000)
        let output = stereo.render([EchoMeasurement.impulse(3 * delay), [Float](repeating: 0, count: 3 * delay)], blockSize: 253)
        XCTAssertEqual(output[0].indices.filter { output[0][$0] != 0 }, [delay, 2 * delay])
        XCTAssertTrue(output[1].allSatisfy { $0 == 0 }, "nothing crosses to the right")
        let mono = try EchoMeasurement.driver(EchoMeasurement.bare(time: 100, feedback: 50, mode: .mono), channels: 2, sampleRate: 48000)
        let monoOutput = mono.render([EchoMeasurement.impulse(3 * delay), [Float](repeating: 0, count: 3 * delay)], blockSize: 253)
        XCTAssertEqual(monoOutput[0], monoOutput[1])
        XCTAssertEqual(monoOutput[0][delay], 0.5, "mono sums the pair at half each")
    }

    /// With filters, ducking and ping-pong on, noise in gives the same output bit for bit at block sizes
    /// 1, 7, 253 and 1024, at 44.1, 48 and 96 kHz, and a dry/wet mix of 0.5 is equal-power.
    func testBlockSizesGiveIdenticalOutput() throws {
        let input = EQMeasurement.noise(frames: 30000, seed: 7)
        for sampleRate in [44100.0, 48000.0, 96000.0] {
            let settings = EchoParameters(time: 77, feedback: 60, lowCut: 300, highCut: 4000, mode: .pingPong, mix: 0.5, ducking: 9)
            let reference = try EchoMeasurement.driver(settings, sampleRate: sampleRate).render([input], blockSize: 1024)
            XCTAssertFalse(reference[1].allSatisfy { $0 == 0 })
            for blockSize in [1, 7, 253] {
                let output = try EchoMeasurement.driver(settings, sampleRate: sampleRate).render([input], blockSize: blockSize)
                XCTAssertEqual(output, reference, "\(sampleRate) Hz, block \(blockSize)")
            }
            let dryFrames = Int(0.077 * sampleRate) - 1
            XCTAssertEqual(reference[0][dryFrames], input[dryFrames] * Float(cos(Double.pi / 4)), accuracy: 1e-6, "before the first repeat: dry × cos 45°")
        }
    }
}
