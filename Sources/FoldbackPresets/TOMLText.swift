// Builds TOML text line by line: table headers and `key = value` lines with correct quoting. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// TOML text under construction, for ``PresetWriter`` and the unit writers it calls.
public struct TOMLText: Sendable {
    /// The text so far.
    public private(set) var output = ""

    /// The dotted path of the unit table being written (`strip.unit` or `bus.unit`), for a unit's own
    /// sub-tables such as an eq's `[[strip.unit.band]]`.
    public var unitPath = "strip.unit"

    /// Empty text.
    public init() {}

    /// Starts a table (`[midi]`) or array-of-tables element (`[[strip]]`), after a blank line.
    public mutating func table(_ header: String) {
        if !output.isEmpty { output += "\n" }
        output += header + "\n"
    }

    /// `key = value` with the value written as is (already TOML).
    public mutating func raw(_ key: String, _ value: String) {
        output += "\(key) = \(value)\n"
    }

    /// `key = "…"`, escaped; nothing when `value` is nil.
    public mutating func key(_ key: String, string value: String?) {
        guard let value else { return }
        raw(key, Self.quoted(value))
    }

    /// `key = 1.5`: the shortest text that reads back as the same `Float`.
    public mutating func key(_ key: String, _ value: Float) { raw(key, NumberFormatting.plain(value)) }

    /// `key = 3`.
    public mutating func key(_ key: String, _ value: Int) { raw(key, String(value)) }

    /// `key = true`.
    public mutating func key(_ key: String, _ value: Bool) { raw(key, value ? "true" : "false") }

    /// `connect = [["a:b"], []]`, left out when every entry is empty.
    public mutating func key(_ key: String, connections: [[String]]) {
        guard connections.contains(where: { !$0.isEmpty }) else { return }
        let entries = connections.map { "[" + $0.map(Self.quoted).joined(separator: ", ") + "]" }
        raw(key, "[" + entries.joined(separator: ", ") + "]")
    }

    /// A TOML basic string: quotes, backslashes and control characters escaped.
    public static func quoted(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
