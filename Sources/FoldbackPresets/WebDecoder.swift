// Validates the `[web]` section: well-formed, distinct tokens, each bus token naming a bus of the preset. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Reads and checks a preset's `[web]` section.
enum WebDecoder {
    /// The keys of `[web]`.
    static let keys = ["engineer_token", "bus_tokens", "musicians_see_sources", "musicians_tap_tempo"]

    /// The section (empty when `reader` is nil); problems go to the reader's log with their line and column.
    static func decode(_ reader: TableReader?, buses: [BusSpec]) -> WebSpec {
        guard let reader else { return WebSpec() }
        reader.checkKeys(allowed: keys)
        var seen = NameRegistry(what: "web token")
        var spec = WebSpec()
        spec.musiciansSeeSources = reader.bool("musicians_see_sources", default: false)
        spec.musiciansTapTempo = reader.bool("musicians_tap_tempo", default: false)
        if let token = reader.string("engineer_token"), check(token, reader, "engineer_token", &seen) {
            spec.engineerToken = token
        }
        guard let tokens = reader.subtable("bus_tokens", label: "[web.bus_tokens]") else { return spec }
        let names = buses.map(\.name)
        tokens.checkKeys(allowed: names)
        for bus in names {
            guard let token = tokens.string(bus), check(token, tokens, bus, &seen) else { continue }
            spec.busTokens.append(WebSpec.BusToken(bus: bus, token: token))
        }
        return spec
    }

    private static func check(_ token: String, _ reader: TableReader, _ key: String, _ seen: inout NameRegistry) -> Bool {
        guard WebSpec.isWellFormed(token) else {
            reader.log.error(
                "'\(key)': a web token is \(WebSpec.tokenLengths.lowerBound) to \(WebSpec.tokenLengths.upperBound) characters of letters, digits, '-' and '_'",
                at: reader.valueLocation(key))
            return false
        }
        return seen.register(token, at: reader.valueLocation(key), log: reader.log)
    }
}
