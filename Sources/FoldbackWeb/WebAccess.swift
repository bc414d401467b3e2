// Who may use the web surface: the engineer's token, one token per bus, and what each role may change. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine
public import FoldbackPresets

/// What a token lets its holder do.
public enum WebRole: Sendable, Hashable, CustomStringConvertible {
    /// Changes everything: every strip and bus, presets and the setlist.
    case engineer
    /// Changes only the sends into `bus`, the bus's level and its mute.
    case musician(bus: String)

    public var description: String {
        switch self {
        case .engineer: return "engineer"
        case let .musician(bus): return "musician of bus '\(bus)'"
        }
    }
}

/// The tokens of one web surface: one for the engineer and one per bus.
///
/// Tokens are 16 lowercase hex digits (64 random bits) unless given (a preset's `[web]` section). Lookup compares every token in
/// constant time, so response timing tells nothing about how much of a guess was right.
public struct WebAccess: Sendable, Equatable {
    /// The engineer's token.
    public let engineerToken: String
    /// Each bus's token, by bus name, in the order the buses were given.
    public let busTokens: [(bus: String, token: String)]

    /// The longest token accepted (longer ones are refused before any comparison).
    public static let maximumTokenLength = WebSpec.tokenLengths.upperBound

    /// Tokens as given (e.g. for tests); every token must be distinct and ``isWellFormed(_:)``.
    public init?(engineerToken: String, busTokens: [(bus: String, token: String)]) {
        let all = [engineerToken] + busTokens.map(\.token)
        guard all.allSatisfy(Self.isWellFormed), Set(all).count == all.count else { return nil }
        self.engineerToken = engineerToken
        self.busTokens = busTokens
    }

    /// Fresh random tokens for the engineer and for each of `buses`, except those `fixed` gives (a preset's `[web]`).
    public static func generated(buses: [String], fixed: WebSpec = WebSpec()) -> WebAccess {
        var generator = SystemRandomNumberGenerator()
        var used = Set(fixed.busTokens.map(\.token) + [fixed.engineerToken].compactMap { $0 })
        func fresh() -> String {
            while true {
                let token = String(generator.next() as UInt64, radix: 16).leftPadded(to: 16)
                if used.insert(token).inserted { return token }
            }
        }
        let engineer = fixed.engineerToken ?? fresh()
        let tokens = buses.map { ($0, fixed.token(forBus: $0) ?? fresh()) }
        // The preset's tokens are checked (well formed, distinct) when it loads; generated ones are by construction.
        return WebAccess(engineerToken: engineer, busTokens: tokens) ?? WebAccess(unchecked: fresh(), busTokens: buses.map { ($0, fresh()) })
    }

    private init(unchecked engineerToken: String, busTokens: [(bus: String, token: String)]) {
        self.engineerToken = engineerToken
        self.busTokens = busTokens
    }

    /// Whether `token` is 8 to ``maximumTokenLength`` characters of `0-9 a-z A-Z - _` (safe in a URL and a page).
    public static func isWellFormed(_ token: String) -> Bool { WebSpec.isWellFormed(token) }

    /// The role `token` grants, or nil for no token, a malformed one or one that matches none.
    public func role(for token: String?) -> WebRole? {
        guard let token, Self.isWellFormed(token) else { return nil }
        var found: WebRole?
        if Self.constantTimeEqual(token, engineerToken) { found = .engineer }
        for entry in busTokens where Self.constantTimeEqual(token, entry.token) {
            found = found ?? .musician(bus: entry.bus)
        }
        return found
    }

    /// Whether `role` may set the parameter at `components` (after `/foldback/`, the path `bus/iem/gain_db` split at its slashes) of
    /// `tree`: the engineer anything under `strip/`, `bus/`, `cue/`, `talkback/`, `dca/`, `mute_group/`, `soundcheck/` and `tempo/` (the router refuses what is not
    /// there); a musician only the nodes the tree gives their bus (``ParameterNode/musicianBus``: the sends into
    /// it, its level and mute), or a relative move of one (`…/inc`).
    public static func mayChange(_ role: WebRole, _ components: [Substring], in tree: ParameterTree) -> Bool {
        switch role {
        case .engineer:
            return ["strip", "bus", "cue", "talkback", "dca", "mute_group", "soundcheck", "tempo"].contains(components.first ?? "")
        case let .musician(bus):   // a relative move (`…/gain_db/inc`) is allowed where the set is
            let path = components.last == "inc" ? components.dropLast() : components[...]
            return tree.node(at: path.joined(separator: "/"))?.musicianBus == bus
        }
    }

    public static func == (lhs: WebAccess, rhs: WebAccess) -> Bool {
        lhs.engineerToken == rhs.engineerToken && lhs.busTokens.elementsEqual(rhs.busTokens) { $0 == $1 }
    }

    private static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8), right = Array(rhs.utf8)
        var difference = UInt8(truncatingIfNeeded: left.count ^ right.count)
        for index in 0..<max(left.count, right.count) {
            difference |= (index < left.count ? left[index] : 0) ^ (index < right.count ? right[index] : 0)
        }
        return difference == 0
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
