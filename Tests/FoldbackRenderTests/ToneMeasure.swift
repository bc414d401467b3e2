// Test signals and their measurement shared by the render tests: interleaved sines and a zero-crossing frequency.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

enum ToneMeasure {
    /// An interleaved sine at `hz` (0.5 peak; channel 1 and up inverted).
    static func sine(hz: Double, rate: Double, frames: Int, channels: Int = 1) -> [Float] {
        var samples = [Float](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            for channel in 0..<channels {
                samples[frame * channels + channel] = Float(0.5 * sin(2 * .pi * hz * Double(frame) / rate)) * (channel == 0 ? 1 : -1)
            }
        }
        return samples
    }

    /// Frequency of channel `channel` from interpolated upward zero crossings over the middle half of the signal.
    static func frequency(_ samples: [Float], channels: Int, channel: Int, rate: Double) -> Double {
        let frames = samples.count / channels
        let start = max(frames / 4, 1), end = 3 * frames / 4
        var crossings: [Double] = []
        for frame in start..<end {
            let before = samples[(frame - 1) * channels + channel], after = samples[frame * channels + channel]
            if before < 0 && after >= 0 { crossings.append(Double(frame - 1) + Double(-before / (after - before))) }
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * rate / (last - first)
    }
}
