// Turns MIDI messages (controllers, notes, program changes) into engine parameter changes by a preset's `[midi]` map, with MIDI learn. Non-realtime (a control thread).
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine
import Foundation
import Synchronization

/// Applies a preset's ``MIDIMap`` to the messages of the `midi_in` port.
///
/// Call ``handle(_:)`` from one non-realtime control thread with each message the audio thread copied
/// out; it sets the mapped parameters through ``Engine/set(_:to:)``. Program changes go to
/// ``onProgramChange`` (a setlist); while learning (``arm(_:)``), the next controller moved is bound.
public final class MIDIController: Sendable {
    /// The engine whose parameters the controller moves.
    public let engine: Engine
    private let state: Mutex<State>
    /// The time of a press, in seconds on a monotonic clock (the system's uptime unless a test sets one).
    private let clock: @Sendable () -> Double

    private struct State {
        var preset: Preset
        var programChangeHandler: (@Sendable (Int) -> Void)?
        var noteHandler: (@Sendable (String) -> Void)?
        var sourceTransportHandler: (@Sendable (_ strip: String, _ command: String) -> Void)?
        var tempoTapHandler: (@Sendable (_ time: Double) -> Void)?
        var learnTarget: MIDITarget?
        var learnHandler: (@Sendable (MIDIControlSpec) -> Void)?
        /// Per (kind, channel, controller or note): whether the last value was 64 or above (a note held), for presses.
        var wasHigh: [Int: Bool] = [:]
    }

    /// A controller for `preset` (its `[midi]` map) driving `engine`, whose graph was built from `preset`.
    /// `clock` times `tempo.tap` presses (seconds, monotonic; nil: the system's uptime).
    public init(preset: Preset, engine: Engine, clock: (@Sendable () -> Double)? = nil) {
        self.engine = engine
        self.clock = clock ?? { ProcessInfo.processInfo.systemUptime }
        state = Mutex(State(preset: preset))
    }

    /// Switches to `preset` (its `[midi]` map, its strips and buses) after the engine switched to it.
    /// Learning in progress is cancelled; toggle states start afresh.
    public func adopt(_ preset: Preset) {
        state.withLock {
            $0.preset = preset
            $0.learnTarget = nil
            $0.learnHandler = nil
            $0.wasHigh = [:]
        }
    }

    /// The map in force: the preset's plus whatever MIDI learn bound.
    public var map: MIDIMap { state.withLock { $0.preset.midi } }

    /// The preset the controller works from, with the learned mappings in its `midi` map.
    public var preset: Preset { state.withLock { $0.preset } }

    /// Called with the program number (0…127) of each program change the map accepts; with none set,
    /// program changes are ignored with a note. A setlist selects its entry with this index.
    public var onProgramChange: (@Sendable (Int) -> Void)? {
        get { state.withLock { $0.programChangeHandler } }
        set { state.withLock { $0.programChangeHandler = newValue } }
    }

    /// Called with one-line status notes (a program change with nowhere to go, a refused value, a learned mapping).
    public var onNote: (@Sendable (String) -> Void)? {
        get { state.withLock { $0.noteHandler } }
        set { state.withLock { $0.noteHandler = newValue } }
    }

    /// Called with the strip and the command (`play`, `stop`, `cue`) of each press of a controller mapped to
    /// `strip.<strip>.source.<command>`; with none set, such presses are ignored with a note.
    public var onSourceTransport: (@Sendable (_ strip: String, _ command: String) -> Void)? {
        get { state.withLock { $0.sourceTransportHandler } }
        set { state.withLock { $0.sourceTransportHandler = newValue } }
    }

    /// Called with the time (seconds, from the controller's clock) of each press of a controller mapped to
    /// `tempo.tap`; with none set, such presses are ignored with a note.
    public var onTempoTap: (@Sendable (_ time: Double) -> Void)? {
        get { state.withLock { $0.tempoTapHandler } }
        set { state.withLock { $0.tempoTapHandler = newValue } }
    }

    /// Handles one message: a mapped control change sets its parameter, a mapped note presses (note-on with a
    /// velocity above 0) and releases (note-off, or note-on at velocity 0) its target, a program change is passed on.
    public func handle(_ message: MIDIMessage) {
        if message.isProgramChange {
            handleProgramChange(message)
        } else if message.isControlChange {
            handleControl(message, kind: .controlChange, value: Int(message.data2))
        } else if message.isNote {
            handleControl(message, kind: .note, value: message.isNotePressed ? 127 : 0)
        }
    }

    private func handleProgramChange(_ message: MIDIMessage) {
        let (map, handler, notes) = state.withLock { ($0.preset.midi, $0.programChangeHandler, $0.noteHandler) }
        guard map.respondsToProgramChange, map.programChannel == nil || map.programChannel == message.channel else { return }
        let program = Int(message.data1)
        if let handler {
            handler(program)
        } else {
            notes?("MIDI program change \(program) (channel \(message.channel)) ignored: no setlist is loaded")
        }
    }

    /// A control change's value, or a note as a controller (127 pressed, 0 released), on its mapping.
    private func handleControl(_ message: MIDIMessage, kind: MIDIControlKind, value controllerValue: Int) {
        let key = (kind == .note ? 16 * 128 : 0) + message.channel * 128 + Int(message.data1)
        let isHigh = controllerValue >= 64
        let source = kind.name(Int(message.data1))
        let (learned, control, preset, wasHigh, notes) = state.withLock { state in
            let wasHigh = state.wasHigh[key] ?? false
            state.wasHigh[key] = isHigh
            let learned = kind == .controlChange ? learn(from: message, in: &state) : nil
            let control = learned?.control ?? state.preset.midi.control(channel: message.channel, controller: Int(message.data1), kind: kind)
            return (learned, control, state.preset, wasHigh, state.noteHandler)
        }
        if let learned {
            learned.handler?(learned.control)
            notes?("MIDI learn: channel \(learned.control.channel) CC \(learned.control.controller) → \(learned.control.target)")
        }
        if let (strip, command) = control?.target.sourceTransport {
            guard isHigh, !wasHigh else { return }   // a press: the controller rising through 64
            if let transport = state.withLock({ $0.sourceTransportHandler }) {
                transport(strip, command)
            } else {
                notes?("MIDI channel \(message.channel) \(source) → strip.\(strip).source.\(command) ignored: no file players run here")
            }
            return
        }
        if control?.target.isTempoTap == true {
            guard isHigh, !wasHigh else { return }   // a press: the controller rising through 64
            let time = clock()
            if let tap = state.withLock({ $0.tempoTapHandler }) {
                tap(time)
            } else {
                notes?("MIDI channel \(message.channel) \(source) → tempo.tap ignored: no show tempo here")
            }
            return
        }
        guard let control, let graph = engine.graph else { return }
        let tree = ParameterTree.cached(preset: preset, graph: graph)
        guard let address = tree.node(at: control.target.path)?.address else { return }
        let value: Float
        switch control.target.info(in: tree, preset: preset) {
        case .success(let info) where info.isSwitch:
            switch control.mode {
            case .level: value = isHigh ? control.maximum : control.minimum
            case .toggle:
                guard isHigh, !wasHigh else { return }
                let current = engine.value(at: address) ?? preset.value(at: address, graph: graph) ?? 0
                value = current >= 0.5 ? 0 : 1
            }
        case .success(let info):
            let current = control.relative == nil ? 0 : engine.value(at: address) ?? preset.value(at: address, graph: graph) ?? 0
            value = info.stepped(control.parameterValue(forControllerValue: controllerValue, current: current))
        case .failure(let problem):
            notes?("MIDI channel \(message.channel) \(source): \(problem)")
            return
        }
        do {
            try engine.set(address, to: value)
        } catch {
            notes?("MIDI channel \(message.channel) \(source) → \(control.target): \(error)")
        }
    }

    /// While learning, binds the controller of `message` to the armed target: the new mapping and who to tell.
    private func learn(from message: MIDIMessage, in state: inout State)
        -> (control: MIDIControlSpec, handler: (@Sendable (MIDIControlSpec) -> Void)?)? {
        guard let target = state.learnTarget, case .success(let info) = target.info(in: state.preset) else { return nil }
        let control = MIDIControlSpec(channel: message.channel, controller: Int(message.data1), target: target, info: info)
        state.preset.midi.bind(control)
        defer {
            state.learnTarget = nil
            state.learnHandler = nil
        }
        return (control, state.learnHandler)
    }

    // MARK: MIDI learn

    /// Arms MIDI learn: the next control change on any channel is bound to `target` (with the target's
    /// default range and curve, replacing any mapping of that controller), and `onBound` is called with it.
    /// - Throws: ``MIDITargetProblem`` when `target` names nothing in the preset.
    public func arm(_ target: MIDITarget, onBound: (@Sendable (MIDIControlSpec) -> Void)? = nil) throws(MIDITargetProblem) {
        try state.withLock { (state: inout State) throws(MIDITargetProblem) in
            if case .failure(let problem) = target.info(in: state.preset) { throw problem }
            state.learnTarget = target
            state.learnHandler = onBound
        }
    }

    /// The target MIDI learn is waiting to bind, if armed.
    public var armedTarget: MIDITarget? { state.withLock { $0.learnTarget } }

    /// Stops waiting for a controller to learn.
    public func disarm() {
        state.withLock {
            $0.learnTarget = nil
            $0.learnHandler = nil
        }
    }

    /// Writes the preset with every learned mapping in its `[midi]` section to `path` (MIDI learn's save).
    /// - Throws: ``PresetError`` when the file cannot be written.
    public func savePreset(to path: String) throws(PresetError) {
        try PresetWriter.write(preset, to: path)
    }
}
