// The one description of every parameter a running show has, looked up by path or engine address. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Every parameter of a running show, in order (strips with their sends and units, buses, cue), as
/// Apple's AUParameterTree describes an audio unit: OSC, MIDI maps and learn, the web pages, preset saving,
/// recall-safe buses and reports all read it, so no other code spells a parameter's name or range.
///
/// Built from a preset and its graph in FoldbackPresets (`ParameterTree(preset:graph:)`).
public struct ParameterTree: Sendable {
    /// Every parameter, in show order.
    public let nodes: [ParameterNode]
    private let byPath: [String: Int]
    private let byAddress: [ParameterAddress: Int]

    /// A tree of `nodes` (paths must be distinct; a later duplicate is dropped).
    public init(nodes: [ParameterNode]) {
        var unique: [ParameterNode] = []
        var byPath: [String: Int] = [:], byAddress: [ParameterAddress: Int] = [:]
        for node in nodes where byPath[node.path] == nil {
            byPath[node.path] = unique.count
            if byAddress[node.address] == nil { byAddress[node.address] = unique.count }
            unique.append(node)
        }
        self.nodes = unique
        self.byPath = byPath
        self.byAddress = byAddress
    }

    /// The node at `path` (after `/foldback/`), its older spelling (``Alias``) accepted.
    public func node(at path: String) -> ParameterNode? {
        byPath[path].map { nodes[$0] } ?? Alias.canonical(path).flatMap { byPath[$0] }.map { nodes[$0] }
    }

    /// The node of engine address `address` (a compensated trim finds its strip's trim).
    public func node(for address: ParameterAddress) -> ParameterNode? {
        if case let .stripTrimCompensated(strip) = address, let index = byAddress[.stripTrim(strip: strip)] { return nodes[index] }
        if case let .stripTrim(strip) = address, byAddress[address] == nil, let index = byAddress[.stripTrimCompensated(strip: strip)] {
            return nodes[index]
        }
        return byAddress[address].map { nodes[$0] }
    }

    /// The paths of the nodes under `prefix` (`strip/vox/`), for messages naming what is there.
    public func paths(under prefix: String) -> [String] {
        nodes.lazy.map(\.path).filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// Older spellings of a path, still accepted (OSC addresses, presets and MIDI maps).
    public enum Alias {
        /// `(old, new)` last-component pairs: the bus limiter was `limiter/ceiling_db` over OSC and the web.
        public static let renamed: [(old: String, new: String)] = [
            ("limiter/ceiling_db", Key.limiterCeiling), ("limiter/release_ms", Key.limiterRelease),
        ]

        /// The current spelling of `path` if it uses an old one (`bus/x/limiter/ceiling_db`, `talkback/<strip>`).
        public static func canonical(_ path: String) -> String? {
            for (old, new) in renamed where path.hasSuffix("/" + old) {
                return String(path.dropLast(old.count)) + new
            }
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count == 2, parts[0] == Key.talkback { return Path.strip(String(parts[1]), Key.talkback) }
            return nil
        }
    }

    /// The keys of the parameters the engine itself declares (units declare their own in their descriptors).
    public enum Key {
        public static let gain = "gain_db"
        public static let pan = "pan"
        public static let width = "width"
        public static let azimuth = "azimuth_deg"
        public static let elevation = "elevation_deg"
        public static let distance = "distance_m"
        public static let mute = "mute"
        public static let solo = "solo"
        public static let enabled = "enabled"
        public static let trim = "trim_db"
        public static let trimCompensation = "trim_compensation_db"
        public static let talkback = "talkback"
        public static let limiterCeiling = "limiter_ceiling_db"
        public static let limiterRelease = "limiter_release_ms"
        /// A binaural bus's room level, and whether it has one (a preset key only).
        public static let roomLevel = "room_db"
        public static let room = "room"
        public static let bypass = "bypass"
        /// A sandboxed plugin's fault state (host-side: ``HostParameter/pluginFaulted(isBus:owner:unit:)``).
        public static let faulted = "faulted"
        public static let pfl = "pfl"
        public static let afl = "afl"
        public static let clear = "clear"
        /// A strip's input switch (`live` or `take`), and the sound check's all-strips one.
        public static let input = "input"
        /// A strip's file source: its parameters live under `strip/<name>/source/`.
        public static let source = "source"
        /// The sound check's own parameters (`soundcheck/input`).
        public static let soundcheck = "soundcheck"
        /// The show tempo's parameters (`tempo/bpm`, `tempo/source`).
        public static let tempo = "tempo"
        /// The show tempo in BPM.
        public static let bpm = "bpm"
    }

    /// Builds paths: the one place their shape is spelled.
    public enum Path {
        /// `strip/<strip>/<key>`.
        public static func strip(_ strip: String, _ key: String) -> String { "strip/\(strip)/\(key)" }
        /// `strip/<strip>/send/<bus>/<key>` (`gain_db`, `pan`, `width`, `mute`).
        public static func send(_ strip: String, _ bus: String, _ key: String = Key.gain) -> String { "strip/\(strip)/send/\(bus)/\(key)" }
        /// `bus/<bus>/<key>`.
        public static func bus(_ bus: String, _ key: String) -> String { "bus/\(bus)/\(key)" }
        /// `strip/<strip>/unit/<id>/<key>` or `bus/<bus>/unit/<id>/<key>`.
        public static func unit(ownerKind: String, _ owner: String, _ unit: String, _ key: String) -> String {
            "\(ownerKind)/\(owner)/unit/\(unit)/\(key)"
        }
        /// `strip/<strip>/source/<key>` (`tempo`, `pitch_semitones`, `cents`): host-side, a file source's disk thread.
        public static func source(_ strip: String, _ key: String) -> String { "strip/\(strip)/\(Key.source)/\(key)" }
        /// `soundcheck/input`: every strip on the take at once.
        public static var allInputs: String { "\(Key.soundcheck)/\(Key.input)" }
        /// `tempo/<key>` (`bpm`, `source`): the show tempo, host-side.
        public static func tempo(_ key: String) -> String { "\(Key.tempo)/\(key)" }
        /// `dca/<dca>/<key>` (`gain_db`, `mute`).
        public static func dca(_ dca: String, _ key: String) -> String { "dca/\(dca)/\(key)" }
        /// `mute_group/<group>/mute`.
        public static func muteGroup(_ group: String) -> String { "mute_group/\(group)/\(Key.mute)" }
        /// `cue/gain_db`, `cue/clear`.
        public static func cue(_ key: String) -> String { "cue/\(key)" }
        /// `cue/bus/<bus>`.
        public static func cueBus(_ bus: String) -> String { "cue/bus/\(bus)" }
        /// `cue/strip/<strip>/pfl|afl`.
        public static func cueStrip(_ strip: String, _ key: String) -> String { "cue/strip/\(strip)/\(key)" }
    }
}
