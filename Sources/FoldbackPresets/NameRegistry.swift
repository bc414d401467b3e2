// Detects names used twice (strips, buses, unit ids, sends) and points at both places. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Remembers where each name was first used and reports a second use, naming both lines.
struct NameRegistry {
    /// How messages call the names: "strip name", "bus name", "unit id", "send to bus".
    let what: String
    private var firstUse: [String: SourceLocation] = [:]

    init(what: String) {
        self.what = what
    }

    /// Whether `name` has been registered.
    func contains(_ name: String) -> Bool { firstUse[name] != nil }

    /// Records `name`; reports and returns false if it was already used. `context` ends the
    /// message (" in strip 'vox'").
    @discardableResult
    mutating func register(_ name: String, at location: SourceLocation, context: String = "", log: DiagnosticLog) -> Bool {
        if let first = firstUse[name] {
            log.error("duplicate \(what) '\(name)'\(context); first used at line \(first.line), column \(first.column)", at: location)
            return false
        }
        firstUse[name] = location
        return true
    }
}
