// The setlist model: an ordered list of songs, each naming the preset it plays. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// An ordered list of presets for a show, one per song (`foldback run --setlist FILE`).
public struct Setlist: Sendable, Equatable {
    /// One song: a name for displays and the preset file it plays.
    public struct Entry: Sendable, Equatable {
        /// The song's name (the preset's file name when the setlist gives none).
        public var name: String
        /// The preset file, resolved against the setlist's folder.
        public var presetPath: String
        /// Where the entry is written in the setlist.
        public var location: SourceLocation
        /// Whether moves pass over this song (its preset had errors when the show started with `--allow-broken-songs`).
        public var isSkipped = false
        /// The song's tempo in BPM, set on every `echo` of its preset (`tempo_bpm`), or nil to keep the preset's.
        public var bpm: Float?

        /// An entry.
        public init(name: String, presetPath: String, location: SourceLocation, bpm: Float? = nil) {
            self.name = name
            self.presetPath = presetPath
            self.location = location
            self.bpm = bpm
        }
    }

    /// The setlist's name, if it gives one.
    public var name: String?
    /// The songs, in running order (at least one).
    public var entries: [Entry]

    /// The first song that is not skipped, or nil when every one is.
    public var firstPlayable: Int? { entries.firstIndex { !$0.isSkipped } }
    /// The setlist file.
    public var path: String
    /// How much of each song's preset a song change recalls (`[setlist] recall`, `changes` by default).
    public var recall: RecallMode = .changes
    /// Parameters no song change recalls, whatever the songs' presets say (`[setlist] recall_safe`).
    public var recallSafe = RecallSafes()
    /// Where each of ``recallSafe``'s paths is written (`foldback check` reports one no song has there).
    public var recallSafeLocations: [SourceLocation] = []

    /// A setlist.
    public init(name: String? = nil, entries: [Entry], path: String) {
        self.name = name
        self.entries = entries
        self.path = path
    }
}
