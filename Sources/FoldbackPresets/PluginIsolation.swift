// Where an `lv2` unit's plugin runs (`isolation`) and what its unit does when that process fails a cycle (`on_fault`). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The preset's `isolation` for an `lv2` unit (per unit, with a preset-wide default in `[preset]`).
public enum PluginIsolation: String, Sendable, Equatable, CaseIterable {
    /// In Foldback's own process, as before sandboxes (a trusted plugin at the lowest periods).
    case none
    /// In one sandbox process for each run of the strip's (or bus's) consecutive `strip` plugins: one round trip a cycle for
    /// the run; a fault in it bypasses or mutes all of the run's units.
    case strip
    /// In a sandbox process of its own.
    case unit

    /// Whether the plugin runs in a sandbox process.
    public var isSandboxed: Bool { self != .none }

    /// Where an `lv2` unit runs when neither it nor `[preset]` says: in a live show, a sandbox for each strip's (or bus's)
    /// plugins, so a plugin that crashes or hangs costs its own strip's plugins, never the show; in an offline render
    /// (`foldback render`, no period to keep and no show to protect), Foldback's own process, at full speed.
    public static func resolved(_ isolation: PluginIsolation?, offline: Bool) -> PluginIsolation {
        isolation ?? (offline ? .none : .strip)
    }
}

/// The preset's `on_fault` for a sandboxed `lv2` unit: its output for a cycle its sandbox missed (late, crashed, garbage).
public enum PluginFaultAction: String, Sendable, Equatable, CaseIterable {
    /// The unit passes its input through.
    case bypass
    /// The unit is silent.
    case mute
}

extension PluginIsolation {
    /// Gives every `lv2` unit that set no `isolation` (or `on_fault`) the `[preset]` defaults; an `isolation` neither sets
    /// stays nil (``resolved(_:offline:)``).
    static func fillDefaults(_ isolation: PluginIsolation?, onFault: PluginFaultAction, strips: inout [StripSpec], buses: inout [BusSpec]) {
        func fill(_ units: inout [UnitSpec]) {
            for index in units.indices {
                guard var plugin = units[index].lv2 else { continue }
                plugin.isolation = plugin.isolation ?? isolation
                plugin.onFault = plugin.onFault ?? onFault
                units[index].lv2 = plugin
            }
        }
        for index in strips.indices { fill(&strips[index].units) }
        for index in buses.indices { fill(&buses[index].units) }
    }
}

extension TableReader {
    /// `key = "…"` as one of `Choice`'s raw values, or nil when absent (a wrong value is reported with its location).
    func keyword<Choice: RawRepresentable & CaseIterable>(_ key: String, as _: Choice.Type) -> Choice? where Choice.RawValue == String {
        guard let text = string(key) else { return nil }
        guard let choice = Choice(rawValue: text) else {
            let valid = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            log.error("\(key) must be one of \(valid), not \"\(text)\"", at: valueLocation(key))
            return nil
        }
        return choice
    }
}
