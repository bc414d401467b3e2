// Reads strip, bus and unit names and checks their spelling rule. Non-realtime.

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
}
