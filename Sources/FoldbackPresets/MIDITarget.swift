// What a MIDI controller moves, named as in presets (`strip.vox.gain_db`), checked against a preset. Non-realtime.

/// A parameter a controller can move, by name: the dotted path written as `target = "…"` in `[[midi.cc]]`.
///
/// - `strip.<strip>.gain_db` | `pan` | `mute` | `solo` | `trim_db` | `talkback` (a talkback strip)
/// - `strip.<strip>.send.<bus>.gain_db`
/// - `strip.<strip>.unit.<unit id>.<parameter key>` and `strip.<strip>.unit.<unit id>.bypass`
/// - `bus.<bus>.gain_db` | `mute` | `limiter_ceiling_db` | `limiter_release_ms`
/// - `bus.<bus>.unit.<unit id>.<parameter key>` and `bus.<bus>.unit.<unit id>.bypass`
/// - `cue.bus.<bus>`, `cue.strip.<strip>.pfl` | `afl`, `cue.clear`, `cue.gain_db` (with a `[cue]`)
public enum MIDITarget: Sendable, Hashable, CustomStringConvertible {
    /// A strip's fader, pan, mute, solo, trim or talkback press (`key` is one of ``stripKeys``).
    case strip(String, key: String)
    /// The level of a strip's send to a bus.
    case send(strip: String, bus: String)
    /// A unit parameter by its preset key, or `bypass`.
    case unit(strip: String, unit: String, key: String)
    /// A bus's gain, mute or limiter (`key` is one of ``busKeys``).
    case bus(String, key: String)
    /// A bus unit's parameter by its preset key, or `bypass`.
    case busUnit(bus: String, unit: String, key: String)
    /// The cue output: `path` is `bus.<bus>`, `strip.<strip>.pfl`, `strip.<strip>.afl`, `clear` or `gain_db`.
    case cue(path: String)

    /// The keys a strip target takes.
    public static let stripKeys = ["gain_db", "pan", "mute", "solo", "trim_db", "talkback"]
    /// The keys a bus target takes.
    public static let busKeys = ["gain_db", "mute", "limiter_ceiling_db", "limiter_release_ms"]
    /// The key that bypasses a unit.
    public static let bypassKey = "bypass"

    /// Parses the dotted form; nil if it has none of the shapes above (names are checked by ``info(in:)``).
    public init?(parsing text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: \.isEmpty) else { return nil }
        switch (parts.first, parts.count) {
        case ("strip", 3): self = .strip(parts[1], key: parts[2])
        case ("strip", 5) where parts[2] == "send" && parts[4] == "gain_db": self = .send(strip: parts[1], bus: parts[3])
        case ("strip", 5) where parts[2] == "unit": self = .unit(strip: parts[1], unit: parts[3], key: parts[4])
        case ("bus", 3): self = .bus(parts[1], key: parts[2])
        case ("bus", 5) where parts[2] == "unit": self = .busUnit(bus: parts[1], unit: parts[3], key: parts[4])
        case ("cue", 2...4): self = .cue(path: parts.dropFirst().joined(separator: "."))
        default: return nil
        }
    }

    /// The dotted form, as written in presets.
    public var description: String {
        switch self {
        case let .strip(strip, key): return "strip.\(strip).\(key)"
        case let .send(strip, bus): return "strip.\(strip).send.\(bus).gain_db"
        case let .unit(strip, unit, key): return "strip.\(strip).unit.\(unit).\(key)"
        case let .bus(bus, key): return "bus.\(bus).\(key)"
        case let .busUnit(bus, unit, key): return "bus.\(bus).unit.\(unit).\(key)"
        case let .cue(path): return "cue.\(path)"
        }
    }

    /// What the target is in `preset`, or a message saying why it names nothing there.
    public func info(in preset: Preset) -> Result<MIDITargetInfo, MIDITargetProblem> {
        let levels = MIDITargetInfo.level
        switch self {
        case let .strip(name, key):
            guard let strip = preset.strip(named: name) else { return .failure(unknown("strip", name, preset.strips.map(\.name))) }
            switch key {
            case "gain_db": return .success(levels)
            case "trim_db": return .success(MIDITargetInfo(range: -24...24))
            case "talkback" where strip.talkback != nil: return .success(.onOff)
            case "talkback": return .failure(MIDITargetProblem(message: "target '\(self)': strip '\(name)' is not a talkback (talkback = true)"))
            case "pan": return .success(MIDITargetInfo(range: -1...1))
            case "mute", "solo": return .success(.onOff)
            default: return .failure(unknown("strip key", key, Self.stripKeys))
            }
        case let .send(stripName, bus):
            guard let strip = preset.strip(named: stripName) else { return .failure(unknown("strip", stripName, preset.strips.map(\.name))) }
            guard strip.sends.contains(where: { $0.busName == bus }) else {
                return .failure(unknown("send from strip '\(stripName)' to bus", bus, strip.sends.map(\.busName)))
            }
            return .success(levels)
        case let .unit(stripName, unitID, key):
            guard let strip = preset.strip(named: stripName) else { return .failure(unknown("strip", stripName, preset.strips.map(\.name))) }
            return unitInfo(strip.units, owner: "strip '\(stripName)'", unitID: unitID, key: key)
        case let .busUnit(busName, unitID, key):
            guard let bus = preset.bus(named: busName) else { return .failure(unknown("bus", busName, preset.buses.map(\.name))) }
            return unitInfo(bus.units, owner: "bus '\(busName)'", unitID: unitID, key: key)
        case let .bus(name, key):
            guard preset.bus(named: name) != nil else { return .failure(unknown("bus", name, preset.buses.map(\.name))) }
            switch key {
            case "gain_db": return .success(levels)
            case "mute": return .success(.onOff)
            case "limiter_ceiling_db": return .success(MIDITargetInfo(range: -30...0))
            case "limiter_release_ms": return .success(MIDITargetInfo(range: 1...2000, defaultCurve: .log))
            default: return .failure(unknown("bus key", key, Self.busKeys))
            }
        case let .cue(path):
            guard preset.cue != nil else { return .failure(MIDITargetProblem(message: "target '\(self)': the preset has no [cue]")) }
            let parts = path.split(separator: ".").map(String.init)
            switch (parts.first, parts.count) {
            case ("gain_db", 1): return .success(levels)
            case ("clear", 1): return .success(.onOff)
            case ("bus", 2):
                guard preset.bus(named: parts[1]) != nil else { return .failure(unknown("bus", parts[1], preset.buses.map(\.name))) }
                return .success(.onOff)
            case ("strip", 3) where parts[2] == "pfl" || parts[2] == "afl":
                guard preset.strip(named: parts[1]) != nil else { return .failure(unknown("strip", parts[1], preset.strips.map(\.name))) }
                return .success(.onOff)
            default:
                return .failure(MIDITargetProblem(message: "target '\(self)': a cue target is cue.bus.<bus>, cue.strip.<strip>.pfl|afl, cue.clear or cue.gain_db"))
            }
        }
    }

    /// What key `key` of unit `unitID` among `units` (of `owner`) is.
    private func unitInfo(_ units: [UnitSpec], owner: String, unitID: String, key: String) -> Result<MIDITargetInfo, MIDITargetProblem> {
        guard let unit = units.first(where: { $0.id == unitID }) else {
            return .failure(unknown("unit in \(owner)", unitID, units.map(\.id)))
        }
        if key == Self.bypassKey { return .success(.onOff) }
        guard let schema = UnitSchema.named(unit.type), let parameter = schema.parameter(key) else {
            let keys = (UnitSchema.named(unit.type)?.parameters.map(\.key) ?? []) + [Self.bypassKey]
            return .failure(unknown("key of '\(unit.type)' unit '\(unitID)'", key, keys))
        }
        switch parameter.kind {
        case .number(let range):
            guard key != "gain_db" else {
                // A level: the fader's default travel, within what the unit accepts.
                let level = MIDITargetInfo.level.defaultRange
                let low = max(level.lowerBound, range.lowerBound), high = min(level.upperBound, range.upperBound)
                return .success(MIDITargetInfo(range: range, defaultRange: low...max(low, high), defaultCurve: .db))
            }
            return .success(MIDITargetInfo(range: range, defaultCurve: key.hasSuffix("_hz") ? .log : .linear))
        case .bool: return .success(.onOff)
        case .choice: return .failure(MIDITargetProblem(message: "'\(key)' is a choice, which a controller cannot move"))
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

    /// An on/off target.
    public static let onOff: MIDITargetInfo = {
        var info = MIDITargetInfo(range: 0...1)
        info.isSwitch = true
        return info
    }()

    /// A fader or send level: −144…+24 dB accepted, −60…+6 dB on the dB curve by default.
    public static let level = MIDITargetInfo(range: -144...24, defaultRange: -60...6, defaultCurve: .db)
}
