// The off-thread description of DCA and mute groups: which strips each moves or mutes. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A DCA (VCA) group: its gain adds to each member strip's fader, in dB, and its mute closes their faders,
/// without moving the members' own values. It acts where the fader acts: post-fader sends (and so the
/// buses fed after the fader) follow it, pre-fader sends do not. A strip in several DCAs gets their sum.
public struct DCADescription: Sendable, Hashable {
    /// Name, unique among the DCAs.
    public var name: String
    /// Indices of the member strips in ``GraphDescription/strips``.
    public var strips: [Int]
    /// The group's gain, dB, added to every member's fader.
    public var gainDB: Float
    /// A muted DCA closes its members' faders (post-fader only, as the fader).
    public var isMuted: Bool

    /// A DCA of `strips` at `gainDB`.
    public init(name: String, strips: [Int], gainDB: Float = 0, isMuted: Bool = false) {
        self.name = name
        self.strips = strips
        self.gainDB = gainDB
        self.isMuted = isMuted
    }
}

/// A mute group: while on, its members are muted as by their own mute (every send, pre-fader too); off, each
/// returns to its own mute state.
public struct MuteGroupDescription: Sendable, Hashable {
    /// Name, unique among the mute groups.
    public var name: String
    /// Indices of the member strips in ``GraphDescription/strips``.
    public var strips: [Int]
    /// Whether the group mutes its members now.
    public var isMuted: Bool

    /// A mute group of `strips`.
    public init(name: String, strips: [Int], isMuted: Bool = false) {
        self.name = name
        self.strips = strips
        self.isMuted = isMuted
    }
}
