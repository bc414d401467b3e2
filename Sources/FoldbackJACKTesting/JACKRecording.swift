// The result of a JACKTestRecorder take: planar samples plus the frame time of the first one. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A contiguous recording: `channels[c][k]` arrived at absolute frame time `startFrameTime + k`.
public struct JACKRecording: Sendable, Equatable {
    /// The frame time of the first recorded sample.
    public let startFrameTime: UInt32
    /// The server's sample rate, in hertz.
    public let sampleRate: Double
    /// One array per recorded port, all ``frameCount`` long.
    public let channels: [[Float]]

    /// Frames per channel.
    public var frameCount: Int { channels.first?.count ?? 0 }

    /// The absolute frame time of sample `index`.
    public func frameTime(ofSample index: Int) -> UInt32 {
        startFrameTime &+ UInt32(truncatingIfNeeded: index)
    }
}
