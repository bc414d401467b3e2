// The `[midi]` section of a preset: CC mappings, their curves and switch modes, and program change. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoldbackDSP

/// How a preset answers MIDI on the `midi_in` port.
public struct MIDIMap: Sendable, Hashable {
    /// Controller mappings, in file order; at most one per (channel, controller).
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

    /// The mapping for `controller` on `channel`, if any.
    public func control(channel: Int, controller: Int) -> MIDIControlSpec? {
        controls.first { $0.channel == channel && $0.controller == controller }
    }

    /// Adds `control`, replacing any mapping of the same channel and controller (as MIDI learn does).
    public mutating func bind(_ control: MIDIControlSpec) {
        if let index = controls.firstIndex(where: { $0.channel == control.channel && $0.controller == control.controller }) {
            controls[index] = control
        } else {
            controls.append(control)
        }
    }
}

/// One `[[midi.cc]]` entry: a controller mapped to a parameter.
public struct MIDIControlSpec: Sendable, Hashable {
    /// The MIDI channel, 1…16.
    public var channel: Int
    /// The controller number, 0…127.
    public var controller: Int
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
        curve: MIDICurve = .linear, mode: MIDISwitchMode = .level, relative: MIDIRelativeEncoding? = nil, step: Float = 1
    ) {
        self.channel = channel
        self.controller = controller
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
