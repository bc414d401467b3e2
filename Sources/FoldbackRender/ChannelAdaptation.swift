// How a file's channels feed a strip's, shared by live file players and offline render inputs. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The mono/stereo adaptation live use applies to a file feeding a strip: a mono file feeds every strip
/// channel, a stereo file feeds a mono strip ½(L+R), otherwise channel k feeds channel k (the last file
/// channel repeats when the strip has more).
enum ChannelAdaptation {
    /// `frames` interleaved frames of `fileChannels` channels, as interleaved frames of `channels`, times `gain`.
    static func adapt(_ samples: [Float], frames: Int, from fileChannels: Int, to channels: Int, gain: Float = 1) -> [Float] {
        var adapted = [Float](repeating: 0, count: frames * channels)
        samples.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            for frame in 0..<frames {
                for channel in 0..<channels {
                    adapted[frame * channels + channel] = sample(base + frame * fileChannels, channel: channel, of: channels, from: fileChannels) * gain
                }
            }
        }
        return adapted
    }

    /// `frames` interleaved frames of `fileChannels` channels written planar into `destinations` (one
    /// pointer per strip channel, `channels` of them), adapted the same way; no intermediate buffer.
    static func deinterleave(
        _ samples: UnsafePointer<Float>, frames: Int, from fileChannels: Int,
        into destinations: UnsafePointer<UnsafeMutablePointer<Float>>, channels: Int
    ) {
        for channel in 0..<channels {
            let destination = destinations[channel]
            if fileChannels == 1 {
                destination.update(from: samples, count: frames)
            } else {
                for frame in 0..<frames { destination[frame] = sample(samples + frame * fileChannels, channel: channel, of: channels, from: fileChannels) }
            }
        }
    }

    /// Strip channel `channel` (of `channels`) from one interleaved file frame at `frame`.
    @inline(__always)
    private static func sample(_ frame: UnsafePointer<Float>, channel: Int, of channels: Int, from fileChannels: Int) -> Float {
        channels == 1 && fileChannels > 1 ? (frame[0] + frame[1]) * 0.5 : frame[min(channel, fileChannels - 1)]
    }
}
