// Sample-by-sample comparison of recordings with what they should contain. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackJACK
import FoldbackJACKTesting

/// Sample-by-sample comparison of a recording with what it should contain.
enum SignalCheck {
    /// The largest |recorded − expected| over the recording, `expected` taking the frame time.
    static func maxError(_ recording: JACKRecording, channel: Int, expected: (UInt32) -> Double) -> Double {
        var worst = 0.0
        for (index, sample) in recording.channels[channel].enumerated() {
            worst = max(worst, abs(Double(sample) - expected(recording.frameTime(ofSample: index))))
        }
        return worst
    }

    /// As ``maxError(_:channel:expected:)`` for a `Float` expectation.
    static func maxError(_ recording: JACKRecording, channel: Int, expected: (UInt32) -> Float) -> Double {
        maxError(recording, channel: channel) { (time: UInt32) -> Double in Double(expected(time)) }
    }

    /// The recording's peak on `channel`.
    static func peak(_ recording: JACKRecording, channel: Int) -> Double {
        recording.channels[channel].reduce(0) { max($0, Double(abs($1))) }
    }
}
