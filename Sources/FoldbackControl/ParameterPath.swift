// Resolves OSC parameter addresses against the running show's parameter tree (with its older spellings). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine
public import FoldbackPresets

/// A live parameter found from its OSC address: its node in the tree, where it lives in the engine, its
/// range, and the value the running preset gave it.
public struct ResolvedParameter: Sendable, Equatable {
    /// The engine's address for it.
    public var address: ParameterAddress
    /// How messages name it: `vox/gain_db`, `vox/unit/comp/threshold_db` (the path without `strip/` or `bus/`).
    public var name: String
    /// The values it accepts.
    public var range: ClosedRange<Float>
    /// A 0/1 switch (sent and read back as `i`).
    public var isSwitch: Bool
    /// The value in the running preset (what it has until someone sets it).
    public var presetValue: Float
    /// Its node in the tree.
    public var node: ParameterNode

    init(_ node: ParameterNode) {
        self.node = node
        address = node.address
        name = node.path.split(separator: "/", maxSplits: 1).last.map(String.init) ?? node.path
        range = node.range
        isSwitch = node.isSwitch
        presetValue = node.presetValue
    }
}

/// Finds parameters of the running show by their paths (after `/foldback/`) in its ``ParameterTree``.
///
/// Forms (docs/osc.md lists them all; `/foldback/parameters/get` answers the tree):
/// `strip/<name>/{trim_db,gain_db,pan,mute,solo,enabled,trim_compensation_db,talkback}`, `strip/<name>/send/<bus>/gain_db`,
/// `strip/<name>/unit/<id>/<key>` (any key the unit declares, built-in or plugin alike, plus `bypass`),
/// `bus/<name>/{gain_db,mute,limiter_ceiling_db,limiter_release_ms}` (`limiter/ceiling_db` is the older
/// spelling, still accepted), `bus/<name>/unit/<id>/<key>`, `cue/…`; host-side nodes alike: `strip/<name>/source/<key>`
/// (a file source's `tempo`, `pitch_semitones`, `cents`), `strip/<name>/input` and `soundcheck/input` (`live` 0, `take` 1).
public enum ParameterPath {
    /// The tree of `preset` playing in `graph`, built once per graph.
    public static func tree(graph: EngineGraph, preset: Preset) -> ParameterTree {
        ParameterTree.cached(preset: preset, graph: graph)
    }

    /// The parameter at `components` (the path `strip/vox/gain_db` split at its slashes).
    /// - Throws: ``ControlError/unknownAddress(_:)`` naming the first part that does not exist and what is there.
    public static func resolve(_ components: [Substring], graph: EngineGraph, preset: Preset) throws(ControlError) -> ResolvedParameter {
        let tree = tree(graph: graph, preset: preset)
        let path = components.joined(separator: "/")
        if let node = tree.node(at: path) { return ResolvedParameter(node) }
        throw .unknownAddress(problem(components.map(String.init), tree: tree, preset: preset))
    }

    /// Why `parts` names no parameter: the first part that does not exist, and what is there.
    static func problem(_ parts: [String], tree: ParameterTree, preset: Preset) -> String {
        guard parts.count >= 2, parts[0] == "strip" || parts[0] == "bus" else {
            return "unknown address; parameters live under /foldback/strip/<name>/…, /foldback/bus/<name>/… and /foldback/cue/… (/foldback/parameters/get lists them)"
        }
        let kind = parts[0], name = parts[1], owner = "\(kind) '\(name)'"
        let units: [UnitSpec], sends: [String]
        if kind == "strip" {
            guard let strip = preset.strip(named: name) else { return "no strip named '\(name)'; strips: \(preset.strips.map(\.name).joined(separator: ", "))" }
            (units, sends) = (strip.units, strip.sends.map(\.busName))
        } else {
            guard let bus = preset.bus(named: name) else { return "no bus named '\(name)'; buses: \(preset.buses.map(\.name).joined(separator: ", "))" }
            if parts.count >= 3, parts[2].hasPrefix("limiter"), bus.limiter == nil { return "bus '\(name)' has no limiter (limiter = false)" }
            (units, sends) = (bus.units, [])
        }
        let rest = parts.dropFirst(2)
        switch (rest.first, rest.count) {
        case (ParameterTree.Key.source, 2) where kind == "strip":
            guard preset.strip(named: name)?.source != nil else { return "\(owner) plays no file (source = { file = … })" }
            return "the source of \(owner) has no parameter '\(parts[3])'; it has: \(tree.paths(under: ParameterTree.Path.source(name, "")).joined(separator: ", "))"
        case ("unit", 3):
            guard units.contains(where: { $0.id == parts[3] }) else { return "\(owner) has no unit '\(parts[3])'; its units: \(units.map(\.id).joined(separator: ", "))" }
            let keys = tree.paths(under: "\(kind)/\(name)/unit/\(parts[3])/")
            return "unit '\(parts[3])' of \(owner) has no parameter '\(parts[4])'; it has: \(keys.joined(separator: ", "))"
        case ("send", _) where kind == "strip" && rest.count >= 2 && !sends.contains(parts[3]):
            return "\(owner) has no send to '\(parts[3])'; it sends to: \(sends.joined(separator: ", "))"
        default:
            let keys = tree.paths(under: "\(kind)/\(name)/").filter { !$0.contains("/") }
            let more = (sends.isEmpty ? [] : ["send/<bus>/\(ParameterTree.Key.gain)"]) + (units.isEmpty ? [] : ["unit/<id>/<parameter>"])
            return "\(owner) has no parameter '\(rest.joined(separator: "/"))'; it has: \((keys + more).joined(separator: ", "))"
        }
    }
}
