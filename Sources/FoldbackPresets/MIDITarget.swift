// What a MIDI controller moves, named as in presets (`strip.vox.gain_db`), checked against a preset. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

public import FoldbackEngine

/// A parameter a controller (or a note) can move, by name: the dotted path written as `target = "…"` in `[[midi.cc]]` and `[[midi.note]]`.
///
/// - `strip.<strip>.gain_db` | `pan` | `mute` | `solo` | `trim_db` | `talkback` (a talkback strip)
/// - `strip.<strip>.send.<bus>.gain_db` | `mute` | `pan` (a send into a stereo bus) | `width` (a stereo strip's send into a stereo bus)
///   | `azimuth_deg` | `elevation_deg` | `distance_m` (a send into a binaural bus)
/// - `strip.<strip>.unit.<unit id>.<parameter key>` and `strip.<strip>.unit.<unit id>.bypass`
/// - `bus.<bus>.gain_db` | `mute` | `limiter_ceiling_db` | `limiter_release_ms`
/// - `bus.<bus>.unit.<unit id>.<parameter key>` and `bus.<bus>.unit.<unit id>.bypass`
/// - `dca.<dca>.gain_db` | `mute`, `mute_group.<group>.mute`
/// - `cue.bus.<bus>`, `cue.strip.<strip>.pfl` | `afl`, `cue.clear`, `cue.gain_db` (with a `[cue]`)
/// - `strip.<strip>.source.tempo` | `pitch_semitones` | `cents` (a strip playing a file), `strip.<strip>.input`
///   and `soundcheck.input` (`live` below controller value 64, `take` from 64; refused while no take plays)
/// - `strip.<strip>.source.play` | `stop` | `cue` (a strip playing a file): a press (the controller rising through 64)
///   plays on, stops, or goes back to the top stopped
/// - `tempo.tap`: a press (the controller rising through 64) is one tap of the show tempo
public enum MIDITarget: Sendable, Hashable, CustomStringConvertible {
    /// A strip's fader, pan, mute, solo, trim or talkback press (`key` is one of ``stripKeys``).
    case strip(String, key: String)
    /// The level (`gain_db`), mute (`mute`), pan (`pan`), width (`width`) or binaural position (`azimuth_deg`,
    /// `elevation_deg`, `distance_m`) of a strip's send to a bus.
    case send(strip: String, bus: String, key: String = ParameterTree.Key.gain)
    /// A unit parameter by its preset key, or `bypass`.
    case unit(strip: String, unit: String, key: String)
    /// A bus's gain, mute or limiter (`key` is one of ``busKeys``).
    case bus(String, key: String)
    /// A bus unit's parameter by its preset key, or `bypass`.
    case busUnit(bus: String, unit: String, key: String)
    /// A DCA's gain or mute, or a mute group's mute: `kind` is `dca` or `mute_group`.
    case group(kind: String, name: String, key: String)
    /// The cue output: `path` is `bus.<bus>`, `strip.<strip>.pfl`, `strip.<strip>.afl`, `clear` or `gain_db`.
    case cue(path: String)
    /// A file source's tempo or key (host-side: the source's disk thread applies it).
    case source(strip: String, key: String)
    /// The sound check's own parameters: `input` (every strip on the take at once).
    case soundcheck(key: String)
    /// The show tempo: `tap` (a press is one tap), or a node under `tempo/` (`bpm`, `source`).
    case tempo(key: String)

    /// The key that bypasses a unit.
    public static let bypassKey = ParameterTree.Key.bypass

    /// The transport commands of a file source a controller can press (`strip.<strip>.source.<command>`).
    public static let sourceTransportKeys = ["play", "stop", "cue"]

    /// The keys of a send a controller can move (`strip.<strip>.send.<bus>.<key>`).
    public static let sendKeys = [
        ParameterTree.Key.gain, ParameterTree.Key.pan, ParameterTree.Key.width, ParameterTree.Key.mute,
        ParameterTree.Key.azimuth, ParameterTree.Key.elevation, ParameterTree.Key.distance,
    ]

    /// The show tempo's press target, `tempo.tap`.
    public static let tempoTapKey = "tap"

    /// Whether the target is `tempo.tap` (each press one tap of the show tempo).
    public var isTempoTap: Bool { self == .tempo(key: Self.tempoTapKey) }

    /// The strip and command of a source transport target (`strip.click.source.play`), else nil.
    public var sourceTransport: (strip: String, command: String)? {
        guard case let .source(strip, key) = self, Self.sourceTransportKeys.contains(key) else { return nil }
        return (strip, key)
    }

    /// Parses the dotted form; nil if it has none of the shapes above (names are checked by ``info(in:)``).
    public init?(parsing text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: \.isEmpty) else { return nil }
        switch (parts.first, parts.count) {
        case ("strip", 3): self = .strip(parts[1], key: parts[2])
        case ("strip", 5) where parts[2] == "send" && Self.sendKeys.contains(parts[4]):
            self = .send(strip: parts[1], bus: parts[3], key: parts[4])
        case ("strip", 5) where parts[2] == "unit": self = .unit(strip: parts[1], unit: parts[3], key: parts[4])
        case ("bus", 3): self = .bus(parts[1], key: parts[2])
        case ("bus", 4):   // an older spelling (`bus.main.limiter.ceiling_db`)
            guard let current = ParameterTree.Alias.canonical(parts.joined(separator: "/"))?.split(separator: "/").last else { return nil }
            self = .bus(parts[1], key: String(current))
        case ("bus", 5) where parts[2] == "unit": self = .busUnit(bus: parts[1], unit: parts[3], key: parts[4])
        case ("dca", 3), ("mute_group", 3): self = .group(kind: parts[0], name: parts[1], key: parts[2])
        case ("cue", 2...4): self = .cue(path: parts.dropFirst().joined(separator: "."))
        case ("strip", 4) where parts[2] == ParameterTree.Key.source: self = .source(strip: parts[1], key: parts[3])
        case (ParameterTree.Key.soundcheck, 2): self = .soundcheck(key: parts[1])
        case ("tempo", 2): self = .tempo(key: parts[1])
        default: return nil
        }
    }

    /// The dotted form, as written in presets.
    public var description: String {
        switch self {
        case let .strip(strip, key): return "strip.\(strip).\(key)"
        case let .send(strip, bus, key): return "strip.\(strip).send.\(bus).\(key)"
        case let .unit(strip, unit, key): return "strip.\(strip).unit.\(unit).\(key)"
        case let .bus(bus, key): return "bus.\(bus).\(key)"
        case let .busUnit(bus, unit, key): return "bus.\(bus).unit.\(unit).\(key)"
        case let .group(kind, name, key): return "\(kind).\(name).\(key)"
        case let .cue(path): return "cue.\(path)"
        case let .source(strip, key): return "strip.\(strip).source.\(key)"
        case let .soundcheck(key): return "soundcheck.\(key)"
        case let .tempo(key): return "tempo.\(key)"
        }
    }

    /// The path of the parameter in the tree (`strip/vox/gain_db`): the dotted form with slashes.
    public var path: String {
        switch self {
        case let .strip(strip, key): return ParameterTree.Path.strip(strip, key)
        case let .send(strip, bus, key): return ParameterTree.Path.send(strip, bus, key)
        case let .unit(strip, unit, key): return ParameterTree.Path.unit(ownerKind: "strip", strip, unit, key)
        case let .bus(bus, key): return ParameterTree.Path.bus(bus, key)
        case let .busUnit(bus, unit, key): return ParameterTree.Path.unit(ownerKind: "bus", bus, unit, key)
        case let .group(kind, name, key): return "\(kind)/\(name)/\(key)"
        case let .cue(path): return "cue/" + path.split(separator: ".", omittingEmptySubsequences: false).joined(separator: "/")
        case let .source(strip, key): return ParameterTree.Path.source(strip, key)
        case let .soundcheck(key): return "\(ParameterTree.Key.soundcheck)/\(key)"
        case let .tempo(key): return "tempo/\(key)"
        }
    }

    /// The spelling `text` should have when it uses an older one (`bus.main.limiter.ceiling_db`), else nil.
    public static func currentSpelling(of text: String) -> String? {
        guard let target = MIDITarget(parsing: text), target.description != text else { return nil }
        return target.description
    }

    /// What the target is in `preset` (its parameter tree before a graph runs), or why it names nothing there.
    public func info(in preset: Preset) -> Result<MIDITargetInfo, MIDITargetProblem> {
        info(in: ParameterTree(preset: preset), preset: preset)
    }

    /// What the target is in `tree` (of `preset`), or a message saying why it names nothing there.
    public func info(in tree: ParameterTree, preset: Preset) -> Result<MIDITargetInfo, MIDITargetProblem> {
        if let node = tree.node(at: path) { return .success(MIDITargetInfo(node)) }
        if let (strip, _) = sourceTransport, preset.strip(named: strip)?.source != nil { return .success(.onOff) }   // a press, not a node
        if isTempoTap { return .success(.onOff) }   // a press, not a node
        return .failure(problem(in: tree, preset: preset))
    }

    /// Why the target names nothing in `tree`, with a suggestion where one is close.
    private func problem(in tree: ParameterTree, preset: Preset) -> MIDITargetProblem {
        func keys(_ prefix: String) -> [String] { tree.paths(under: prefix).map { $0.split(separator: "/", omittingEmptySubsequences: false).joined(separator: ".") } }
        switch self {
        case let .strip(name, key), let .send(name, _, key), let .unit(name, _, key):
            guard let strip = preset.strip(named: name) else { return unknown("strip", name, preset.strips.map(\.name)) }
            if case let .unit(_, unitID, _) = self {
                guard let unit = strip.units.first(where: { $0.id == unitID }) else { return unknown("unit in strip '\(name)'", unitID, strip.units.map(\.id)) }
                return unknown("key of '\(unit.type)' unit '\(unitID)'", key, keys("strip/\(name)/unit/\(unitID)/"))
            }
            if case let .send(_, bus, _) = self { return unknown("send from strip '\(name)' to bus", bus, strip.sends.map(\.busName)) }
            if key == ParameterTree.Key.talkback {
                return MIDITargetProblem(message: "target '\(self)': strip '\(name)' is not a talkback (talkback = true)")
            }
            return unknown("strip key", key, keys("strip/\(name)/").filter { !$0.contains(".") })
        case let .bus(name, key), let .busUnit(name, _, key):
            guard let bus = preset.bus(named: name) else { return unknown("bus", name, preset.buses.map(\.name)) }
            if case let .busUnit(_, unitID, _) = self {
                guard let unit = bus.units.first(where: { $0.id == unitID }) else { return unknown("unit in bus '\(name)'", unitID, bus.units.map(\.id)) }
                return unknown("key of '\(unit.type)' unit '\(unitID)'", key, keys("bus/\(name)/unit/\(unitID)/"))
            }
            return unknown("bus key", key, keys("bus/\(name)/").filter { !$0.contains(".") })
        case let .group(kind, name, _):
            let names = (kind == "dca" ? preset.dcas : preset.muteGroups).map(\.name)
            guard names.contains(name) else { return unknown(kind == "dca" ? "DCA" : "mute group", name, names) }
            return unknown("\(kind) key", String(describing: self), keys("\(kind)/\(name)/"))
        case let .source(name, key):
            guard let strip = preset.strip(named: name) else { return unknown("strip", name, preset.strips.map(\.name)) }
            guard strip.source != nil else { return MIDITargetProblem(message: "target '\(self)': strip '\(name)' plays no file (source = { file = … })") }
            return unknown("source key", key, keys(ParameterTree.Path.source(name, "")))
        case let .soundcheck(key):
            return unknown("sound-check key", key, keys("\(ParameterTree.Key.soundcheck)/"))
        case let .tempo(key):
            return unknown("tempo key", key, [Self.tempoTapKey] + keys("tempo/"))
        case .cue:
            guard preset.cue != nil else { return MIDITargetProblem(message: "target '\(self)': the preset has no [cue]") }
            return MIDITargetProblem(message: "target '\(self)': a cue target is one of \(keys("cue/").map { "cue." + $0 }.joined(separator: ", "))")
        }
    }

    private func unknown(_ what: String, _ name: String, _ known: [String]) -> MIDITargetProblem {
        let hint = Suggestion.hint(for: name, in: known, fallbackLabel: "valid here")
        return MIDITargetProblem(message: "target '\(self)': no \(what) '\(name)'\(hint)")
    }
}

/// Why a ``MIDITarget`` names nothing in a preset.
public struct MIDITargetProblem: Error, Sendable, CustomStringConvertible {
    /// What is wrong, with a suggestion where one is close.
    public var message: String
    /// The message.
    public var description: String { message }
}

/// What kind of value a target takes, and the mapping a controller gets by default.
public struct MIDITargetInfo: Sendable, Hashable {
    /// Whether the target is on/off (mute, solo, bypass, boolean parameters).
    public var isSwitch: Bool
    /// The values the target accepts (0…1 for switches).
    public var range: ClosedRange<Float>
    /// The range a new mapping covers.
    public var defaultRange: ClosedRange<Float>
    /// The curve a new mapping uses.
    public var defaultCurve: MIDICurve

    /// A continuous target.
    public init(range: ClosedRange<Float>, defaultRange: ClosedRange<Float>? = nil, defaultCurve: MIDICurve = .linear) {
        isSwitch = false
        self.range = range
        self.defaultRange = defaultRange ?? range
        self.defaultCurve = defaultCurve
    }

    /// What a controller does to `node`: switches flip it, levels get a fader's travel on the dB curve,
    /// log-scaled parameters the log curve; −∞ is taken as the level floor (−144 dB).
    public init(_ node: ParameterNode) {
        let descriptor = node.descriptor
        guard !node.isSwitch else {
            self = .onOff
            return
        }
        let range = max(descriptor.range.lowerBound, Self.level.range.lowerBound)...descriptor.range.upperBound
        if descriptor.curve == .decibels, descriptor.key == ParameterTree.Key.gain {
            let level = Self.level.defaultRange
            let low = max(level.lowerBound, range.lowerBound), high = min(level.upperBound, range.upperBound)
            self.init(range: range, defaultRange: low...max(low, high), defaultCurve: .db)
        } else {
            self.init(range: range, defaultCurve: descriptor.curve == .logarithmic && range.lowerBound > 0 ? .log : .linear)
        }
        steps = descriptor.type == .choice ? descriptor.choices.map(\.value) : descriptor.type == .integer ? [] : nil
    }

    /// The values a controller steps between (a choice's values; empty: whole numbers), or nil for any value.
    public var steps: [Float]?

    /// `value` on the nearest of ``steps`` (a choice or a whole number), itself for a continuous target.
    public func stepped(_ value: Float) -> Float {
        guard let steps else { return value }
        guard !steps.isEmpty else { return value.rounded() }
        return steps.min { abs($0 - value) < abs($1 - value) } ?? value
    }

    /// An on/off target.
    public static let onOff: MIDITargetInfo = {
        var info = MIDITargetInfo(range: 0...1)
        info.isSwitch = true
        return info
    }()

    /// A fader or send level: −144…+24 dB accepted, −60…+6 dB on the dB curve by default.
    public static let level = MIDITargetInfo(range: -144...24, defaultRange: -60...6, defaultCurve: .db)
}
