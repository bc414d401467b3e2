// Audio continued past an edge by repeating its last pitch period: what the stretcher analyses beyond a file's first and last frame. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Continues interleaved audio beyond its end by repeating its last period, found as the lag (1 … 25 ms) at which
/// its last 30 ms best match themselves, the way packet-loss concealment bridges a gap (ITU-T G.711 Appendix I).
/// Audio without such a period (a normalised correlation under 0.5: noise, silence, a decay) is continued with silence.
///
/// A phase vocoder hears a file's first and last frame as an onset and an offset out of silence and smears them over
/// its window, so the first and last 10 ms of a stretched tone came out 3 … 17 dB low; analysing a continuation
/// instead (whose own output is dropped) keeps them at the file's level.
enum PeriodicContinuation {
    /// Frames of audio the period is found in: 30 ms matched at lags up to 25 ms.
    static func analysisFrames(rate: Double) -> Int { Int(rate * 0.055) + 1 }

    /// `count` frames continuing `samples` (interleaved, `channels` channels) past its last frame.
    static func after(_ samples: [Float], channels: Int, rate: Double, count: Int) -> [Float] {
        let frames = samples.count / channels
        var output = [Float](repeating: 0, count: count * channels)
        guard let lag = period(samples, channels: channels, rate: rate) else { return output }
        for frame in 0..<count {
            let source = (frames - lag + frame % lag) * channels
            for channel in 0..<channels { output[frame * channels + channel] = samples[source + channel] }
        }
        return output
    }

    /// `count` frames leading into `samples`' first frame (its first period repeated backwards).
    static func before(_ samples: [Float], channels: Int, rate: Double, count: Int) -> [Float] {
        reversedFrames(after(reversedFrames(samples, channels: channels), channels: channels, rate: rate, count: count), channels: channels)
    }

    private static func reversedFrames(_ samples: [Float], channels: Int) -> [Float] {
        let frames = samples.count / channels
        var output = [Float](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            for channel in 0..<channels { output[frame * channels + channel] = samples[(frames - 1 - frame) * channels + channel] }
        }
        return output
    }

    /// The lag at which the end of `samples` (summed to mono) best repeats, if the match is close enough.
    private static func period(_ samples: [Float], channels: Int, rate: Double) -> Int? {
        let frames = samples.count / channels
        let shortest = max(Int(rate * 0.001), 1), longest = Int(rate * 0.025)
        let length = min(Int(rate * 0.03), frames - longest)
        guard length >= shortest else { return nil }
        var mono = [Double](repeating: 0, count: frames)
        for frame in 0..<frames {
            for channel in 0..<channels { mono[frame] += Double(samples[frame * channels + channel]) }
        }
        let start = frames - length
        let energy = (start..<frames).reduce(0.0) { $0 + mono[$1] * mono[$1] }
        guard energy > 0 else { return nil }
        var best: (lag: Int, correlation: Double)?
        for lag in shortest...longest {
            var product = 0.0, lagged = 0.0
            for index in start..<frames {
                product += mono[index] * mono[index - lag]
                lagged += mono[index - lag] * mono[index - lag]
            }
            let correlation = lagged > 0 ? product / (energy * lagged).squareRoot() : 0
            if correlation > (best?.correlation ?? 0.5) { best = (lag, correlation) }
        }
        return best?.lag
    }
}
