// Reads typed, range-checked values from one TOML table, reporting every problem with its position. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import TOMLKit

/// One TOML table of a preset, with the means to read its keys and to say where each one is.
/// Every read reports a wrong type or an out-of-range value to the log and falls back to the default,
/// so validation carries on and finds every problem in one pass.
struct TableReader {
    let table: TOMLTable
    let path: TOMLPath
    let locator: SourceLocator
    let log: DiagnosticLog
    /// How messages name the table: `[[strip]]`, `[preset]`, `the top level`.
    var label: String

    /// Where the table starts.
    var location: SourceLocation { locator.location(of: path) }

    /// Where `key` is written (or the table, if the key is absent).
    func keyLocation(_ key: String) -> SourceLocation { locator.location(of: path.appending(key)) }

    /// Where the value of `key` starts.
    func valueLocation(_ key: String) -> SourceLocation { locator.valueLocation(of: path.appending(key)) }

    /// Reports each key not in `allowed`, suggesting the closest valid one.
    func checkKeys(allowed: [String]) {
        for key in table.keys where !allowed.contains(key) {
            let hint = Suggestion.hint(for: key, in: allowed, fallbackLabel: "valid keys here are")
            log.error("unknown key '\(key)' in \(label)\(hint)", at: keyLocation(key))
        }
    }

    /// Reports a key that is present with the wrong kind of value.
    func reportType(_ key: String, expected: String, found value: any TOMLValueConvertible) {
        log.error("'\(key)': expected \(expected), found \(Self.describe(value))", at: valueLocation(key))
    }

    /// A string value, or nil if absent (silently) or not a string (reported).
    func string(_ key: String) -> String? {
        guard let value = table[key] else { return nil }
        guard let string = value.string else {
            reportType(key, expected: "a string", found: value)
            return nil
        }
        return string
    }

    /// A string that must be present; its absence is reported at the table.
    func requiredString(_ key: String) -> String? {
        guard table[key] != nil else {
            log.error("\(label) is missing required key '\(key)'", at: location)
            return nil
        }
        return string(key)
    }

    /// A number (integers accepted) within `range`; `defaultValue` if absent or invalid.
    func number(_ key: String, in range: ClosedRange<Float>, default defaultValue: Float) -> Float {
        guard let value = table[key] else { return defaultValue }
        let number: Double
        if let int = value.int {
            number = Double(int)
        } else if let double = value.double {
            number = double
        } else {
            reportType(key, expected: "a number", found: value)
            return defaultValue
        }
        guard number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            let allowed = "\(NumberFormatting.plain(range.lowerBound)) to \(NumberFormatting.plain(range.upperBound))"
            log.error("'\(key)' = \(NumberFormatting.plain(number)) is out of range; allowed: \(allowed)", at: valueLocation(key))
            return defaultValue
        }
        return Float(number)
    }

    /// `true` or `false`; `defaultValue` if absent or invalid.
    func bool(_ key: String, default defaultValue: Bool) -> Bool {
        guard let value = table[key] else { return defaultValue }
        guard let bool = value.bool else {
            reportType(key, expected: "true or false", found: value)
            return defaultValue
        }
        return bool
    }

    /// One of `choices`, as its stored value; `defaultValue` if absent or invalid.
    func choice(_ key: String, among choices: [ParameterSchema.Choice], default defaultValue: Float) -> Float {
        guard let value = table[key] else { return defaultValue }
        let names = choices.map(\.name)
        let quoted = names.map { "\"\($0)\"" }.joined(separator: " or ")
        guard let string = value.string else {
            reportType(key, expected: quoted, found: value)
            return defaultValue
        }
        guard let match = choices.first(where: { $0.name == string }) else {
            var message = "'\(key)' = \"\(string)\" is not one of \(quoted)"
            if let suggestion = Suggestion.closest(to: string, in: names) { message += "; did you mean \"\(suggestion)\"?" }
            log.error(message, at: valueLocation(key))
            return defaultValue
        }
        return match.value
    }

    /// A unit parameter as its schema says: number, bool or choice, defaulted.
    func parameter(_ schema: ParameterSchema) -> Float {
        switch schema.kind {
        case .number(let range): return number(schema.key, in: range, default: schema.defaultValue)
        case .bool: return bool(schema.key, default: schema.defaultValue != 0) ? 1 : 0
        case .choice(let choices): return choice(schema.key, among: choices, default: schema.defaultValue)
        }
    }

    /// `channels`: 1 or 2; `defaultValue` if absent, nil if invalid (reported).
    func channels(default defaultValue: Int) -> Int? {
        guard let value = table["channels"] else { return defaultValue }
        if let int = value.int, int == 1 || int == 2 { return int }
        guard value.int != nil || value.double != nil else {
            reportType("channels", expected: "1 or 2", found: value)
            return nil
        }
        let found = value.int.map(String.init) ?? NumberFormatting.plain(value.double ?? 0)
        log.error("'channels' must be 1 (mono) or 2 (stereo), found \(found)", at: valueLocation("channels"))
        return nil
    }

    /// The tables of an array of tables (`[[bus]]` or `bus = [{…}]`); nil if the key is absent.
    func tables(_ key: String, label childLabel: String) -> [TableReader]? {
        guard let value = table[key] else { return nil }
        guard let array = value.array else {
            let expected = "an array of tables (write \(childLabel) for each one)"
            reportType(key, expected: expected, found: value)
            return []
        }
        var readers: [TableReader] = []
        for index in 0..<array.count {
            let elementPath = path.appending(key).appending(index)
            guard let element = array[index].table else {
                let found = Self.describe(array[index])
                log.error("'\(key)' element \(index + 1): expected a table, found \(found)", at: locator.valueLocation(of: elementPath))
                continue
            }
            readers.append(TableReader(table: element, path: elementPath, locator: locator, log: log, label: childLabel))
        }
        return readers
    }

    /// The table under `key`; nil if absent or not a table (reported).
    func subtable(_ key: String, label childLabel: String) -> TableReader? {
        guard let value = table[key] else { return nil }
        guard let subtable = value.table else {
            reportType(key, expected: "a table \(childLabel)", found: value)
            return nil
        }
        return TableReader(table: subtable, path: path.appending(key), locator: locator, log: log, label: childLabel)
    }

    /// How a value reads in "found …": `a string "loud"`, `an integer (3)`, `an array`.
    static func describe(_ value: any TOMLValueConvertible) -> String {
        switch value.type {
        case .string: return "a string \"\(value.string ?? "")\""
        case .int: return "an integer (\(value.int ?? 0))"
        case .double: return "a number (\(NumberFormatting.plain(value.double ?? 0)))"
        case .bool: return "a boolean (\(value.bool ?? false))"
        case .array: return "an array"
        case .table: return "a table"
        case .date, .time, .dateTime: return "a date or time"
        }
    }
}
