// The `[midi]` section of a preset: CC and note mappings, their curves and switch modes, and program change. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoldbackDSP

/// How a preset answers MIDI on the `midi_in` port.
public struct MIDIMap: Sendable, Hashable {
    /// Controller (`[[midi.cc]]`) then note (`[[midi.note]]`) mappings, in file order; at most one per
    /// (kind, channel, number).
    public var controls: [MIDIControlSpec]
    /// Whether program changes select setlist entries.
    public var respondsToProgramChange: Bool
    /// The channel program changes are taken from (1…16), or nil for any channel.
    public var programChannel: Int?

    /// A map; the default answers program changes on any channel and maps no controller.
    public init(controls: [MIDIControlSpec] = [], respondsToProgramChange: Bool = true, programChannel: Int? = nil) {
        self.controls = controls
        self.respondsToProgramChange = respondsToProgramChange
        self.programChannel = programChannel
    }

    /// Whether the preset has no `[midi]` settings beyond the defaults (the writer then leaves the section out).
    public var isDefault: Bool { self == MIDIMap() }

    /// The mapping for `controller` (a control change's, or a note's with `kind` `.note`) on `channel`, if any.
    public func control(channel: Int, controller: Int, kind: MIDIControlKind = .controlChange) -> MIDIControlSpec? {
        controls.first { $0.kind == kind && $0.channel == channel && $0.controller == controller }
    }

    /// Adds `control`, replacing any mapping of the same kind, channel and number (as MIDI learn does).
    public mutating func bind(_ control: MIDIControlSpec) {
        if let index = controls.firstIndex(where: {
            $0.kind == control.kind && $0.channel == control.channel && $0.controller == control.controller
        }) {
            controls[index] = control
        } else {
            controls.append(control)
        }
    }
}

/// What a mapping listens to: a controller (`[[midi.cc]]`) or a note (`[[midi.note]]`).
public enum MIDIControlKind: String, Sendable, Hashable {
    /// Control changes of one controller number.
    case controlChange = "cc"
    /// One note: a note-on with a velocity above 0 is a controller going to 127 (a press), its note-off (or a
    /// note-on of velocity 0) one going to 0. Only switch and press targets take notes.
    case note

    /// How `foldback check` and notes name number `number` of this kind: `CC 7`, `note 60`.
    public func name(_ number: Int) -> String { self == .note ? "note \(number)" : "CC \(number)" }
}

/// One `[[midi.cc]]` or `[[midi.note]]` entry: a controller or a note mapped to a parameter.
public struct MIDIControlSpec: Sendable, Hashable {
    /// The MIDI channel, 1…16.
    public var channel: Int
    /// The controller number (or, for a note mapping, the note number), 0…127.
    public var controller: Int
    /// Whether ``controller`` numbers a controller or a note.
    public var kind: MIDIControlKind
    /// The parameter moved.
    public var target: MIDITarget
    /// The value at controller value 0 (continuous targets).
    public var minimum: Float
    /// The value at controller value 127 (continuous targets).
    public var maximum: Float
    /// How controller values spread between ``minimum`` and ``maximum``.
    public var curve: MIDICurve
    /// How a switch target (mute, solo, bypass, on/off parameters) follows the controller.
    public var mode: MIDISwitchMode
    /// For an endless encoder on a continuous target: how it spells its turns (nil: the controller's value
    /// is a position between ``minimum`` and ``maximum``).
    public var relative: MIDIRelativeEncoding?
    /// What one detent of a relative encoder moves the parameter by, in its unit.
    public var step: Float

    /// Creates a mapping.
    public init(
        channel: Int, controller: Int, target: MIDITarget, minimum: Float = 0, maximum: Float = 1,
        curve: MIDICurve = .linear, mode: MIDISwitchMode = .level, relative: MIDIRelativeEncoding? = nil, step: Float = 1,
        kind: MIDIControlKind = .controlChange
    ) {
        self.channel = channel
        self.controller = controller
        self.kind = kind
        self.target = target
        self.minimum = minimum
        self.maximum = maximum
        self.curve = curve
        self.mode = mode
        self.relative = relative
        self.step = step
    }

    /// The mapping a controller gets by default for `target` (MIDI learn): the target's usual range and curve.
    public init(channel: Int, controller: Int, target: MIDITarget, info: MIDITargetInfo) {
        self.init(
            channel: channel, controller: controller, target: target, minimum: info.defaultRange.lowerBound,
            maximum: info.defaultRange.upperBound, curve: info.defaultCurve)
    }

    /// The parameter value for controller value `value` (0…127) on a continuous target; a relative encoder's
    /// moves `current` by its detents × ``step``, kept within ``minimum``…``maximum`` (a level at −∞ starts from the bottom).
    public func parameterValue(forControllerValue value: Int, current: Float = 0) -> Float {
        guard let relative else { return curve.value(at: Float(min(max(value, 0), 127)) / 127, from: minimum, to: maximum) }
        let low = min(minimum, maximum), high = max(minimum, maximum)
        let start = current.isFinite ? current : low
        return min(max(start + Float(relative.detents(forControllerValue: value)) * step, low), high)
    }
}

/// How controller travel maps to a parameter between two ends.
public enum MIDICurve: String, Sendable, Hashable, CaseIterable {
    /// Evenly: halfway is the midpoint of the two values.
    case linear
    /// For levels in dB: the controller sets the amplitude, linear between the two ends' amplitudes,
    /// so most of the travel is near the top, like a console fader.
    case db
    /// For frequencies: equal travel gives equal ratios (octaves); both ends must be above 0.
    case log

    /// The value at `position` (0…1) of the travel from `start` to `end`.
    public func value(at position: Float, from start: Float, to end: Float) -> Float {
        switch self {
        case .linear:
            return start + position * (end - start)
        case .db:
            let low = Decibels.linearGain(fromDecibels: start)
            let high = Decibels.linearGain(fromDecibels: end)
            return max(Decibels.decibels(fromLinearGain: low + position * (high - low)), min(start, end))
        case .log:
            guard start > 0, end > 0 else { return start + position * (end - start) }
            return start * powf(end / start, position)
        }
    }
}

/// How a controller drives an on/off target.
public enum MIDISwitchMode: String, Sendable, Hashable, CaseIterable {
    /// On while the controller is at 64 or above, off below (latching pedals and buttons).
    case level
    /// Each press (a move from below 64 to 64 or above) flips the state (momentary buttons).
    case toggle
}
