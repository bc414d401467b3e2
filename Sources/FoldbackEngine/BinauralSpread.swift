// Where each channel of a send into a binaural bus sits: a mono strip at the send's position, a stereo strip as two points. Realtime-safe.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

/// The positions of a send's channels in a binaural bus.
enum BinauralSpread {
    /// Degrees either side of the send's azimuth a stereo strip's channels sit at width 1 (a stereo loudspeaker pair's).
    static let halfAngle: Float = 30

    /// Channel `channel` of `channels` of a send at `send` with stereo width `width` (0 … 2): a mono strip at `send`;
    /// a stereo strip's left channel `halfAngle` × `width` to the left of it, its right channel as far to the right.
    static func position(of channel: Int, channels: Int, send: BinauralPosition, width: Float) -> BinauralPosition {
        guard channels == 2 else { return send }
        var azimuth = send.azimuthDeg + (channel == 0 ? -1 : 1) * halfAngle * width
        if azimuth > 180 { azimuth -= 360 }
        if azimuth < -180 { azimuth += 360 }
        return BinauralPosition(azimuthDeg: azimuth, elevationDeg: send.elevationDeg, distanceM: send.distanceM)
    }
}
