// The echo comes to rest after its tail, with FTZ/DAZ on as on the audio thread: its loop's floor and its ducker's envelope reach exact zero. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackTeam
import FoldbackDSP
import XCTest

final class EchoRestTests: XCTestCase {
    /// 0.2 s of noise into `parameters`' echo at 48 kHz in blocks of 256, then zeros for up to `seconds`: when its
    /// output was last non-zero and when it first said it rests (nil: not within `seconds`), in seconds.
    private func tail(_ parameters: EchoParameters, seconds: Double) -> (lastSound: Double, rest: Double?) {
        fb_team_enable_ftz_daz()
        var kernel = EchoKernel(parameters: parameters, sampleRate: 48_000, isStereoInput: false)
        let block = 256
        var generator = SeededGenerator(seed: 7)
        var input = [Float](repeating: 0, count: block), left = input, right = input
        var lastSound = 0
        for chunk in 0..<Int(seconds * 48_000) / block {
            for frame in 0..<block { input[frame] = chunk < 38 ? Float.random(in: -0.5...0.5, using: &generator) : 0 }
            input.withUnsafeBufferPointer { source in
                left.withUnsafeMutableBufferPointer { outLeft in
                    right.withUnsafeMutableBufferPointer { outRight in
                        kernel.process(left: source.baseAddress!, right: source.baseAddress!, outputLeft: outLeft.baseAddress!, outputRight: outRight.baseAddress!, frames: block)
                    }
                }
            }
            if left.contains(where: { $0 != 0 }) || right.contains(where: { $0 != 0 }) { lastSound = chunk }
            if chunk >= 38, kernel.isAtRest() { return (Double(lastSound * block) / 48_000, Double(chunk * block) / 48_000) }
        }
        return (Double(lastSound * block) / 48_000, nil)
    }

    /// The default echo (375 ms, 35 % feedback) rang for ever before: its ducker's envelope stalled just above zero
    /// (its release step flushed to zero by FTZ), and its loop recirculated for half a minute below −200 dB. Now it
    /// falls silent when its tail passes −200 dB and rests once its line has run empty (2.7 s later).
    func testTheEchoRestsSoonAfterItsTailAtEveryFeedbackAndWithDucking() {
        let cases: [(EchoParameters, Double)] = [
            (EchoParameters(), 12),                                        // 35 %: the tail to −200 dB ≈ 7.5 s
            (EchoParameters(feedback: 60), 20),                             // 60 %: ≈ 16 s
            (EchoParameters(ducking: 12, duckThreshold: -70), 12),          // a ducker keyed at its lowest threshold
            (EchoParameters(mode: .pingPong, mix: 1), 12),
        ]
        for (parameters, limit) in cases {
            let (lastSound, rest) = tail(parameters, seconds: limit + 5)
            let label = "feedback \(parameters.feedback) %, ducking \(parameters.ducking) dB, \(parameters.mode)"
            XCTAssertGreaterThan(lastSound, 3, "the echo still repeats seconds after the burst (\(label))")
            let rested = try? XCTUnwrap(rest, "rests within \(limit) s (\(label)): last sound at \(lastSound) s")
            if let rested {
                XCTAssertLessThanOrEqual(rested, limit, label)
                XCTAssertLessThan(rested - lastSound, 3.5, "rests once its line has run empty (\(label))")
            }
        }
    }
}
