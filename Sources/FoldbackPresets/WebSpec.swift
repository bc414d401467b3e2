// The `[web]` section's model: fixed access tokens for the web surface's engineer and buses, and how it is written back. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Tokens the web surface uses instead of generated ones (the `[web]` section), so links and bookmarks
/// survive restarts. A bus without a token here gets a generated one at start.
public struct WebSpec: Sendable, Equatable {
    /// `engineer_token`: the engineer's token, if fixed.
    public var engineerToken: String?
    /// `[web.bus_tokens]`: fixed tokens by bus name, in the preset's bus order.
    public var busTokens: [BusToken]
    /// `musicians_see_sources`: whether musicians' pages show the file sources in their mix (playing or stopped,
    /// position and length; read only). Off by default: the engineer's page alone shows them.
    public var musiciansSeeSources = false
    /// `musicians_tap_tempo`: whether musicians' pages have a tap button for the show tempo (a singer counting the
    /// band in). Off by default: only the engineer's page, OSC and MIDI tap; a musician's tap is refused and logged.
    public var musiciansTapTempo = false

    /// One bus's fixed token.
    public struct BusToken: Sendable, Equatable {
        public var bus: String
        public var token: String

        public init(bus: String, token: String) {
            self.bus = bus
            self.token = token
        }
    }

    /// The tokens accepted: lengths 8 to 64, of `0-9 a-z A-Z - _` (safe in a link and a page).
    public static let tokenLengths = 8...64

    public init(engineerToken: String? = nil, busTokens: [BusToken] = [], musiciansSeeSources: Bool = false, musiciansTapTempo: Bool = false) {
        self.engineerToken = engineerToken
        self.busTokens = busTokens
        self.musiciansSeeSources = musiciansSeeSources
        self.musiciansTapTempo = musiciansTapTempo
    }

    /// Whether nothing is set (then the section is not written).
    public var isEmpty: Bool { engineerToken == nil && busTokens.isEmpty && !musiciansSeeSources && !musiciansTapTempo }

    /// The fixed token of `bus`, if any.
    public func token(forBus bus: String) -> String? { busTokens.first { $0.bus == bus }?.token }

    /// Whether `token` has an accepted length and only URL-safe characters.
    public static func isWellFormed(_ token: String) -> Bool {
        let bytes = Array(token.utf8)
        return tokenLengths.contains(bytes.count) && bytes.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    /// Writes `[web]` (and `[web.bus_tokens]`) into `text`; nothing when empty.
    func write(into text: inout TOMLText) {
        guard !isEmpty else { return }
        text.table("[web]")
        text.key("engineer_token", string: engineerToken)
        if musiciansSeeSources { text.key("musicians_see_sources", true) }
        if musiciansTapTempo { text.key("musicians_tap_tempo", true) }
        guard !busTokens.isEmpty else { return }
        text.table("[web.bus_tokens]")
        for entry in busTokens { text.key(entry.bus, string: entry.token) }
    }
}
