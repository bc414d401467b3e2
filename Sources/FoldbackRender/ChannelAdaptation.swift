// How a file's channels feed a strip's, shared by live file players and offline render inputs. Non-realtime.

/// The mono/stereo adaptation live use applies to a file feeding a strip: a mono file feeds every strip
/// channel, a stereo file feeds a mono strip ½(L+R), otherwise channel k feeds channel k (the last file
/// channel repeats when the strip has more).
enum ChannelAdaptation {
    /// `frames` interleaved frames of `fileChannels` channels, as interleaved frames of `channels`, times `gain`.
    static func adapt(_ samples: [Float], frames: Int, from fileChannels: Int, to channels: Int, gain: Float = 1) -> [Float] {
        var adapted = [Float](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            let base = frame * fileChannels
            for channel in 0..<channels {
                let sample = channels == 1 && fileChannels > 1
                    ? (samples[base] + samples[base + 1]) * 0.5
                    : samples[base + min(channel, fileChannels - 1)]
                adapted[frame * channels + channel] = sample * gain
            }
        }
        return adapted
    }
}
