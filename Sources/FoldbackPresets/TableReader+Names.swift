// Reads strip, bus and unit names and display labels and checks their rules. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

extension TableReader {
    /// The longest name allowed; JACK port names grow from it.
    static let maximumNameLength = 32

    /// Why `name` breaks the naming rule (`[A-Za-z0-9_-]`, 1–32 characters), or nil if it is fine.
    static func namingProblem(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if let bad = name.unicodeScalars.first(where: { !TOMLPath.isBareKeyScalar($0) }) {
            let shown = bad == " " ? "a space" : "'\(bad)'"
            return "contains \(shown)"
        }
        let length = name.unicodeScalars.count
        if length > maximumNameLength { return "is \(length) characters long" }
        return nil
    }

    /// A name under `key` that follows the naming rule; `required` reports its absence.
    /// `what` names it in messages ("strip name", "unit id").
    func name(_ key: String, what: String, required: Bool) -> String? {
        guard let name = required ? requiredString(key) : string(key) else { return nil }
        if let problem = Self.namingProblem(name) {
            log.error(
                "\(what) '\(name)' \(problem); use 1 to \(Self.maximumNameLength) letters, digits, '_' or '-'",
                at: valueLocation(key)
            )
            return nil
        }
        return name
    }

    /// The longest display name (`label`) allowed, in characters.
    static let maximumLabelLength = 40

    /// Why `label` cannot be shown as a display name (empty, too long, a control character), or nil if it is fine.
    static func labelProblem(_ label: String) -> String? {
        if label.allSatisfy(\.isWhitespace) { return "is empty" }
        if label.count > maximumLabelLength { return "is \(label.count) characters long; use at most \(maximumLabelLength)" }
        if label.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "contains a control character" }
        return nil
    }

    /// The display name under `label` (`label = "Acoustic"`): what pages show instead of the strip's or bus's name,
    /// any text of 1 to ``maximumLabelLength`` characters without control characters; nil when absent or refused.
    func displayLabel() -> String? {
        guard let label = string("label") else { return nil }
        if let problem = Self.labelProblem(label) {
            log.error("label '\(label)' \(problem)", at: valueLocation("label"))
            return nil
        }
        return label
    }
}

extension TableReader {
    /// The names the array at `key` holds (`talk_to = ["drums"]`, `strips = ["kick"]`), each once and each one of
    /// `known` (checked when `isComplete`); nil when the key is absent (the caller words that). A value that is not
    /// an array (or an empty one, unless `allowsEmpty`) is reported as not `expected`; a non-string entry, an
    /// unknown name (as `unknownLabel 'name'`, with a suggestion among `knownLabel`) and a repeat each at the entry.
    func nameList(
        _ key: String, what: String, known: [String], isComplete: Bool = true, expected: String, allowsEmpty: Bool,
        unknownLabel: String, knownLabel: String
    ) -> [String]? {
        guard let value = table[key] else { return nil }
        guard let list = value.array, allowsEmpty || list.count > 0 else {
            reportType(key, expected: expected, found: value)
            return []
        }
        var names: [String] = []
        for index in 0..<list.count {
            let location = locator.valueLocation(of: path.appending(key).appending(index))
            guard let name = list[index].string else {
                log.error("'\(key)' entry: expected a \(what) name, found \(Self.describe(list[index]))", at: location)
                continue
            }
            if isComplete, !known.contains(name) {
                log.error("\(unknownLabel) '\(name)'\(Suggestion.hint(for: name, in: known, fallbackLabel: knownLabel))", at: location)
            } else if names.contains(name) {
                log.error("'\(key)' names \(what) '\(name)' twice", at: location)
            } else {
                names.append(name)
            }
        }
        return names
    }
}
