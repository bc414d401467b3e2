// What a surface shows of a playing sound-check take: strips on it, position, loop. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The state of the take a show plays (`--soundcheck TAKE`), for the web page and OSC `get`.
public struct SoundcheckStatus: Sendable, Equatable {
    /// Strips recorded on the take, and those of them playing it now (the rest of the show is live).
    public var stripsOnTake: [String]
    public var stripsPlayingTake: [String]
    /// Where the take plays, seconds (nil while stopped), and its length.
    public var positionSeconds: Double?
    public var lengthSeconds: Double
    /// The loop region, seconds, if any.
    public var loopSeconds: ClosedRange<Double>?

    public init(stripsOnTake: [String], stripsPlayingTake: [String], positionSeconds: Double?, lengthSeconds: Double, loopSeconds: ClosedRange<Double>?) {
        self.stripsOnTake = stripsOnTake
        self.stripsPlayingTake = stripsPlayingTake
        self.positionSeconds = positionSeconds
        self.lengthSeconds = lengthSeconds
        self.loopSeconds = loopSeconds
    }
}
