// The preset's DCA and mute groups (`[[dca]]`, `[[mute_group]]`): named lists of strips. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A `[[dca]]` (gain added to each member's fader, mute closing them) or a `[[mute_group]]` (mute alone).
public struct StripGroupSpec: Sendable, Equatable {
    /// Name, unique among groups of its kind.
    public var name: String
    /// The member strips' names, in file order; each exists.
    public var strips: [String]
    /// A DCA's gain, dB (`gain_db`, −144…+24); 0 for a mute group.
    public var gainDB: Float
    /// Whether the group mutes its members now (`mute`).
    public var isMuted: Bool
    /// Where the group's table starts.
    public var location: SourceLocation

    /// A group of `strips`.
    public init(name: String, strips: [String], gainDB: Float = 0, isMuted: Bool = false, location: SourceLocation) {
        self.name = name
        self.strips = strips
        self.gainDB = gainDB
        self.isMuted = isMuted
        self.location = location
    }
}
