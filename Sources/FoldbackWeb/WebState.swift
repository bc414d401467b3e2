// The JSON a page is pushed: the mix's values (on change) and the meters (every tick). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackAnalysis
public import FoldbackControl
import FoldbackDSP
public import FoldbackEngine
import FoldbackPresets
import Foundation

/// The values a page shows, read from the running engine (live values over the preset's), as one JSON object
/// `{"type": "state", …}`; see docs/web.md.
public struct WebState: Encodable, Equatable, Sendable {
    /// One send of a strip.
    public struct Send: Encodable, Equatable, Sendable {
        public var bus: String
        public var gain_db: Float
        /// The send's pan into a stereo bus (its own, or the strip's it follows); nil (absent) into a mono bus.
        public var pan: Float? = nil
        /// The send's stereo width (0 mono sum … 1 as is … 2 wider): a stereo strip into a stereo bus only; nil (absent) otherwise.
        public var width: Float? = nil
    }

    /// One unit of a strip.
    public struct Unit: Encodable, Equatable, Sendable {
        public var id: String
        /// The unit's type (`eq`, `geq`, `compressor`, `lv2`, …): which editor a page opens for it.
        public var type: String
        public var bypass: Bool
        /// A sandboxed plugin's fault state (true: crashed, hung or gave garbage, its fallback plays); nil when not sandboxed.
        public var faulted: Bool? = nil
    }

    /// One strip.
    public struct Strip: Encodable, Equatable, Sendable {
        public var name: String
        public var gain_db: Float
        public var pan: Float
        public var mute: Bool
        public var solo: Bool
        public var sends: [Send]
        public var units: [Unit]
        /// The input trim, dB.
        public var trim_db: Float
        /// A talkback strip: whether it is pressed now (nil for an ordinary strip).
        public var talkback: Bool?
        /// Whether the strip is in the cue before / after its fader.
        public var pfl: Bool
        public var afl: Bool
        /// A file source's tempo, key and song position (nil for a strip without a `source`); set through the tree's
        /// `strip/<name>/source/<key>` nodes.
        public var source: Source?
        /// The preset's display name for the strip (`label`), or nil (absent): pages show ``name``.
        public var label: String? = nil
    }

    /// A strip's file source as it plays (seconds rounded to whole ones, so the state changes once a second).
    public struct Source: Encodable, Equatable, Sendable {
        public var tempo: Float
        public var pitch_semitones: Float
        public var cents: Float
        public var position_s: Double
        public var duration_s: Double
        /// Whether it plays (false: stopped, cued, or played to its end).
        public var playing: Bool
        /// Whether musicians' pages are shown it too (the preset's `[web] musicians_see_sources`).
        public var musicians = false

        init(_ state: FileSourceState, musicians: Bool) {
            self.musicians = musicians
            (tempo, pitch_semitones, cents, playing) = (state.tempo, state.pitchSemitones, state.cents, state.isPlaying)
            (position_s, duration_s) = (state.position.rounded(.down), state.duration.rounded())
        }
    }

    /// One bus.
    public struct Bus: Encodable, Equatable, Sendable {
        public var name: String
        public var gain_db: Float
        public var mute: Bool
        /// The bus's own units (`[[bus.unit]]`), with their bypass.
        public var units: [Unit]
        /// Whether the bus is in the cue.
        public var cue: Bool
        /// The preset's display name for the bus (`label`), or nil (absent): pages show ``name``.
        public var label: String? = nil
    }

    /// The engineer's cue output, when the preset has one.
    public struct Cue: Encodable, Equatable, Sendable {
        public var gain_db: Float
    }

    /// One node of the parameter tree with its live value: what a page needs to build a control for it.
    public struct Parameter: Encodable, Equatable, Sendable {
        /// The path a page sends as `/foldback/<path>` (`strip/vox/unit/comp/threshold_db`).
        public var path: String
        /// `number`, `integer`, `toggle`, `choice` or `trigger`.
        public var type: String
        /// The range; nil for no bound (a level's −∞).
        public var min: Float?
        public var max: Float?
        /// The preset's value (`default`) and the live one (levels floored at −144).
        public var `default`: Float
        public var value: Float
        /// `dB`, `Hz`, `ms`, `s`, a plugin's unit symbol, or "".
        public var unit: String
        /// `linear`, `db` or `log`: how a control spreads the range.
        public var curve: String
        /// Whether the engine glides to a new value.
        public var smoothed: Bool
        /// The bus whose musician may set it too; nil: the engineer only.
        public var musician: String?
        /// A choice's values, `[{"name": …, "value": …}]`.
        public var choices: [ParameterChoice]?
        /// One line saying what it is (a plugin port's name).
        public var label: String
        /// The smallest step that matters.
        public var step: Float
    }

    /// The sound-check take playing (`--soundcheck`), read-only: strips on it and playing it, where it plays.
    public struct Soundcheck: Encodable, Equatable, Sendable {
        public var strips: [String]
        public var playing: [String]
        /// Whole seconds into the take (nil: stopped), and its length.
        public var position_s: Int?
        public var length_s: Int
        /// `[start, end]` seconds, or nil without a loop.
        public var loop_s: [Double]?
    }

    /// A DCA or mute group: `dca` or `mute_group`, its name and member strips. Its values are the tree's
    /// (`dca/<name>/gain_db`, `dca/<name>/mute`, `mute_group/<name>/mute` in ``parameters``).
    public struct Group: Encodable, Equatable, Sendable {
        public var kind: String
        public var name: String
        public var strips: [String]
        /// The tree paths of the group's fader (a DCA's; nil for a mute group) and mute.
        public var gain: String?
        public var mute: String

        static func dca(_ name: String, strips: [String]) -> Group {
            Group(kind: "dca", name: name, strips: strips, gain: ParameterTree.Path.dca(name, ParameterTree.Key.gain),
                  mute: ParameterTree.Path.dca(name, ParameterTree.Key.mute))
        }

        static func muteGroup(_ name: String, strips: [String]) -> Group {
            Group(kind: "mute_group", name: name, strips: strips, gain: nil, mute: ParameterTree.Path.muteGroup(name))
        }
    }

    public var type = "state"
    /// The preset's name (or its file).
    public var preset: String
    /// `song 2/5 'name'`, or nil without a setlist.
    public var setlist: String?
    /// The cue output's level, or nil when the preset has no `[cue]`.
    public var cue: Cue?
    public var strips: [Strip]
    public var buses: [Bus]
    /// The parameter tree in show order, every parameter with its live value (docs/web.md).
    public var parameters: [Parameter]
    /// The take playing, or nil (absent) without `--soundcheck`.
    public var soundcheck: Soundcheck?
    /// The preset's DCAs, then its mute groups (the engineer's groups row).
    public var groups: [Group] = []
    /// The units' read-only outputs (an LV2 plugin's control outputs), valued by the meter ticks' `outputs`.
    public var outputs: [WebUnitOutput] = []
    /// The show tempo and where it came from (`♩ 120.0 BPM (tap)`), or nil (absent) when no echo follows one.
    public var tempo: String?
    /// Whether musicians' pages show a tap button beside the tempo (the preset's `[web] musicians_tap_tempo`).
    public var musicians_tap = false

    /// Gains below this are sent as this (JSON has no −∞), dB.
    public static let floorDB: Float = -144

    /// The state of `target` now.
    public static func read(_ target: any LiveControlTarget, setlist: SetlistController?) -> WebState {
        typealias Path = ParameterTree.Path
        typealias Key = ParameterTree.Key
        let preset = target.currentPreset
        let tree = target.engine.graph.map { ParameterPath.tree(graph: $0, preset: preset) } ?? ParameterTree(nodes: [])
        func live(_ node: ParameterNode) -> Float { target.engine.value(at: node.address) ?? node.presetValue }
        func value(_ path: String) -> Float? { tree.node(at: path).map(live) }
        func gain(_ decibels: Float?) -> Float { max(((decibels ?? floorDB) * 100).rounded() / 100, floorDB) }
        func units(_ kind: String, _ owner: String, _ specs: [UnitSpec]) -> [Unit] {
            specs.map {
                Unit(id: $0.id, type: $0.type, bypass: value(Path.unit(ownerKind: kind, owner, $0.id, Key.bypass)) == 1,
                     faulted: value(Path.unit(ownerKind: kind, owner, $0.id, Key.faulted)).map { $0 == 1 })
            }
        }
        // A send's pan: its own once set (live or in the preset), else its strip's live pan, which it follows.
        func sendPan(strip: String, send: SendSpec) -> Float? {
            guard let node = tree.node(at: Path.send(strip, send.busName, Key.pan)) else { return nil }
            if let own = target.engine.value(at: node.address) ?? send.pan { return own }
            return value(Path.strip(strip, Key.pan))
        }
        let cue = CueSelection(target.engine)
        let sources = target.fileSources()
        let strips = preset.strips.enumerated().map { index, strip in
            let name = strip.name
            return Strip(
                name: name, gain_db: gain(value(Path.strip(name, Key.gain))), pan: value(Path.strip(name, Key.pan)) ?? 0,
                mute: value(Path.strip(name, Key.mute)) == 1, solo: value(Path.strip(name, Key.solo)) == 1,
                sends: strip.sends.map { send in
                    Send(
                        bus: send.busName, gain_db: gain(value(Path.send(name, send.busName))), pan: sendPan(strip: name, send: send),
                        width: value(Path.send(name, send.busName, Key.width)))
                },
                units: units("strip", name, strip.units), trim_db: value(Path.strip(name, Key.trim)) ?? 0,
                talkback: strip.talkback == nil ? nil : value(Path.strip(name, Key.talkback)) == 1,
                pfl: cue.contains(.cuePFL(strip: index)), afl: cue.contains(.cueAFL(strip: index)),
                source: sources.first { $0.strip == name }.map { Source($0, musicians: preset.web.musiciansSeeSources) }, label: strip.label)
        }
        let buses = preset.buses.enumerated().map { index, bus in
            Bus(
                name: bus.name, gain_db: gain(value(Path.bus(bus.name, Key.gain))), mute: value(Path.bus(bus.name, Key.mute)) == 1,
                units: units("bus", bus.name, bus.units), cue: cue.contains(.cueBus(bus: index)), label: bus.label)
        }
        let output = preset.cue.map { Cue(gain_db: gain(value(Path.cue(Key.gain)) ?? $0.gainDB)) }
        let parameters = tree.nodes.map { node in
            let descriptor = node.descriptor
            func bound(_ value: Float) -> Float? { value.isFinite ? value : nil }
            func shown(_ value: Float) -> Float { value.isFinite ? max(value, floorDB) : (value > 0 ? descriptor.range.upperBound : floorDB) }
            return Parameter(
                path: node.path, type: descriptor.type.rawValue, min: bound(descriptor.range.lowerBound), max: bound(descriptor.range.upperBound),
                default: shown(node.presetValue), value: shown(live(node)), unit: descriptor.unit, curve: descriptor.curve.rawValue,
                smoothed: descriptor.isSmoothed, musician: node.musicianBus, choices: descriptor.choices.isEmpty ? nil : descriptor.choices,
                label: descriptor.summary, step: descriptor.resolution)
        }
        return WebState(
            preset: preset.name ?? preset.path, setlist: setlist?.positionText, cue: output, strips: strips, buses: buses, parameters: parameters,
            soundcheck: take(target),
            groups: preset.dcas.map { Group.dca($0.name, strips: $0.strips) }
                + preset.muteGroups.map { Group.muteGroup($0.name, strips: $0.strips) },
            outputs: target.engine.graph.map(WebUnitOutput.all(in:)) ?? [],
            tempo: tree.node(at: Path.tempo(Key.bpm)) == nil ? nil : target.liveTempo?.statusText,
            musicians_tap: preset.web.musiciansTapTempo)
    }

    /// The sound-check take of `target` as a page shows it, or nil without one.
    static func take(_ target: any LiveControlTarget) -> Soundcheck? {
        target.soundcheckStatus.map { status in
            Soundcheck(
                strips: status.stripsOnTake, playing: status.stripsPlayingTake, position_s: status.positionSeconds.map { Int($0) },
                length_s: Int(status.lengthSeconds.rounded()), loop_s: status.loopSeconds.map { [$0.lowerBound, $0.upperBound] })
        }
    }
}

/// One meter tick as JSON `{"type": "meters", …}`: peak and RMS per strip and bus in dBFS (floored), each
/// compressor's gain reduction, each bus's loudness and in-ear buses' dose, the DSP load and the xrun count.
public struct WebMeters: Encodable, Equatable, Sendable {
    public var type = "meters"
    /// `[peak, rms]` per strip, by strip name.
    public var strips: [String: [Float]]
    /// `[peak, rms]` per bus, by bus name.
    public var buses: [String: [Float]]
    /// Gain reduction in dB (≥ 0) per `strip/unit`.
    public var gr: [String: Float]
    /// Each feedback unit's notches in place, `[[n, frequency Hz, depth dB, age s], …]` per `strip/unit` (as ``gr``;
    /// the age in whole seconds since the notch was placed).
    public var notches: [String: [[Float]]]
    /// DSP load, percent.
    public var dsp: Float
    /// Xruns since start.
    public var xruns: Int
    /// `[momentary, short-term, integrated]` LUFS and the last true peak in dBTP per bus (floored at −144).
    public var loudness: [String: [Float]]
    /// `[dose so far, projected to the show's end]` in percent per in-ear bus.
    public var dose: [String: [Float]]
    /// The units' read-only outputs now, by the path the state's `outputs` describe them at.
    public var outputs: [String: Float] = [:]

    /// The meters of `snapshot` with the host's `load` and `xruns`, and the buses' `loudness`.
    public init(_ snapshot: MeterSnapshot, load: Double, xruns: Int, loudness busLoudness: [BusLoudness] = []) {
        func level(_ reading: MeterReading) -> [Float] {
            [reading.peak, reading.rms].map { linear in
                let decibels = Decibels.decibels(fromLinearGain: linear)
                return decibels.isFinite ? (max(decibels, MeterFeed.floorDB) * 10).rounded() / 10 : MeterFeed.floorDB
            }
        }
        strips = Dictionary(snapshot.strips.map { ($0.name, level($0.reading)) }) { first, _ in first }
        buses = Dictionary(snapshot.buses.map { ($0.name, level($0.reading)) }) { first, _ in first }
        var reductions: [String: Float] = [:]
        for unit in snapshot.units {
            for reading in unit.readings where reading.key == CompressorUnit.compressionKey && reading.value.isFinite {
                reductions["\(unit.strip)/\(unit.unit)"] = (reading.value * 10).rounded() / 10
            }
        }
        gr = reductions
        notches = Dictionary(snapshot.units.compactMap { unit in
            let placed = FeedbackNotchReport.notches(in: unit.readings).filter { $0.depth < 0 }
            return placed.isEmpty ? nil : ("\(unit.strip)/\(unit.unit)", placed.map {
                [Float($0.slot), ($0.frequency * 10).rounded() / 10, ($0.depth * 10).rounded() / 10] + ($0.age.map { [$0.rounded(.down)] } ?? [])
            })
        }) { first, _ in first }
        dsp = load.isFinite ? Float((load * 10).rounded() / 10) : 0
        self.xruns = xruns
        func tenths(_ value: Double) -> Float { value.isFinite ? Float((max(value, Double(WebState.floorDB)) * 10).rounded() / 10) : WebState.floorDB }
        loudness = Dictionary(busLoudness.map { bus in
            let reading = bus.reading
            return (bus.name, [reading.momentaryLUFS, reading.shortTermLUFS, reading.integratedLUFS, reading.truePeakDBTP].map(tenths))
        }) { first, _ in first }
        dose = Dictionary(busLoudness.compactMap { bus in
            guard let percent = bus.dosePercent, let projected = bus.projectedDosePercent else { return nil }
            return (bus.name, [Float(percent.rounded()), Float(projected.rounded())])
        }) { first, _ in first }
    }
}

extension Encodable {
    /// This value as compact JSON text (keys sorted, so equal values give equal text).
    func jsonText() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
