// Addresses of live-controllable parameters and the realtime message that carries a change. Non-realtime API, realtime message.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A live-controllable parameter of the installed graph, by strip/bus/send/unit index.
///
/// Values are in the parameter's own unit: dB for gains, −1…+1 for pan, 0/1 for switches, the unit's
/// ``ParameterDescriptor`` range for unit parameters.
public enum ParameterAddress: Sendable, Hashable {
    /// A strip's fader, dB.
    case stripGain(strip: Int)
    /// A strip's pan, −1…+1.
    case stripPan(strip: Int)
    /// A strip's mute, 0/1.
    case stripMute(strip: Int)
    /// A strip's solo (solo-in-place), 0/1.
    case stripSolo(strip: Int)
    /// Whether a strip is enabled, 0/1. A disabled strip is silent and skips its units.
    case stripEnabled(strip: Int)
    /// The level of a strip's send number `send`, dB.
    case sendGain(strip: Int, send: Int)
    /// The pan of a strip's send number `send` into a stereo bus, −1…+1; once set, the send no longer follows
    /// the strip's pan.
    case sendPan(strip: Int, send: Int)
    /// The stereo width of a stereo strip's send number `send` into a stereo bus, 0 (mono sum) … 1 (as is) … 2.
    case sendWidth(strip: Int, send: Int)
    /// Whether a strip's send number `send` is muted (switched off), 0/1; its level is kept and the taps ramp.
    case sendMute(strip: Int, send: Int)
    /// Where a strip's send number `send` sits in a binaural bus, along `axis` (see ``BinauralAxis``); the source
    /// crossfades to its new filters. Into other buses it is kept and has no effect.
    case sendPosition(strip: Int, send: Int, axis: BinauralAxis)
    /// The gain of DCA `dca`, dB, added to each member's fader.
    case dcaGain(dca: Int)
    /// Whether DCA `dca` is muted (its members' faders closed), 0/1.
    case dcaMute(dca: Int)
    /// Whether mute group `group` mutes its members, 0/1.
    case muteGroup(group: Int)
    /// A bus's output gain, dB.
    case busGain(bus: Int)
    /// A bus's mute, 0/1.
    case busMute(bus: Int)
    /// Parameter `parameter` of unit `unit` in strip `strip`.
    case unitParameter(strip: Int, unit: Int, parameter: Int)
    /// Whether unit `unit` in strip `strip` is bypassed, 0/1 (crossfaded).
    case unitBypass(strip: Int, unit: Int)
    /// Parameter `parameter` of unit `unit` in bus `bus`.
    case busUnitParameter(bus: Int, unit: Int, parameter: Int)
    /// Whether unit `unit` in bus `bus` is bypassed, 0/1 (crossfaded).
    case busUnitBypass(bus: Int, unit: Int)
    /// A bus limiter's ceiling, dBFS (−30…0; glides, no click).
    case busLimiterCeiling(bus: Int)
    /// A bus limiter's release time, ms (1…2000).
    case busLimiterRelease(bus: Int)
    /// The level of a binaural bus's room, dB (−40…6, see ``BinauralRoom``; glides, no click).
    case busRoomLevel(bus: Int)
    /// A strip's input trim before its units, dB (−24…+24), uncompensated: the sends follow it.
    case stripTrim(strip: Int)
    /// A gain-compensated trim move, dB (−24…+24): the trim moves the signal into the units and the inverse
    /// goes to every send, ramped together, so no bus moves. The engine stores it as ``stripTrim(strip:)``
    /// plus the accumulated ``stripTrimCompensation(strip:)``.
    case stripTrimCompensated(strip: Int)
    /// The compensation a strip's sends apply against its trim, dB (what compensated moves add up to).
    case stripTrimCompensation(strip: Int)
    /// Whether talkback strip `strip` is pressed, 0/1.
    case talkback(strip: Int)
    /// Whether bus `bus` is in the cue (what it outputs), 0/1. Cue selections add up and fade.
    case cueBus(bus: Int)
    /// Whether strip `strip`'s PFL (after its units, before its fader and mute) is in the cue, 0/1.
    case cuePFL(strip: Int)
    /// Whether strip `strip`'s AFL (after its fader and mute) is in the cue, 0/1.
    case cueAFL(strip: Int)
    /// The cue output's level, dB.
    case cueGain
    /// Takes everything out of the cue (any value).
    case cueClear
    /// A host-side parameter: applied by the engine's ``HostParameterApplier``, never through the realtime queue.
    case host(HostParameter)
}

/// A parameter change as it travels through the realtime ring: plain values only.
struct ParameterChange: BitwiseCopyable {
    enum Kind: UInt8 {
        case stripGain, stripPan, stripMute, stripSolo, stripEnabled, sendGain, busGain, busMute, unitParameter, unitBypass
        case busUnitParameter, busUnitBypass, busLimiterCeiling, busLimiterRelease, stripTrim, stripTrimCompensation, talkback
        case cueBus, cuePFL, cueAFL, cueGain, cueClear, sendPan, dcaGain, dcaMute, muteGroup
        case sendWidth, sendMute, sendPosition, busRoomLevel
    }

    /// The graph the change was addressed to; dropped if another graph is current by then.
    var graph: UnsafeMutableRawPointer
    var kind: Kind
    /// Strip index (the bus index for bus units).
    var strip: Int32
    /// Send, bus or unit index, by kind.
    var index: Int32
    var parameter: Int32
    var value: Float
}

extension ParameterAddress {
    /// Whether this selects a source for the cue (bus, PFL or AFL).
    public var isCueSelection: Bool {
        switch self {
        case .cueBus, .cuePFL, .cueAFL: true
        default: false
        }
    }

    /// The ring message for this address, for `graph`.
    func change(value: Float, graph: UnsafeMutableRawPointer) -> ParameterChange {
        func message(_ kind: ParameterChange.Kind, _ strip: Int, _ index: Int = 0, _ parameter: Int = 0) -> ParameterChange {
            ParameterChange(graph: graph, kind: kind, strip: Int32(strip), index: Int32(index), parameter: Int32(parameter), value: value)
        }
        switch self {
        case let .stripGain(strip): return message(.stripGain, strip)
        case let .stripPan(strip): return message(.stripPan, strip)
        case let .stripMute(strip): return message(.stripMute, strip)
        case let .stripSolo(strip): return message(.stripSolo, strip)
        case let .stripEnabled(strip): return message(.stripEnabled, strip)
        case let .sendGain(strip, send): return message(.sendGain, strip, send)
        case let .sendPan(strip, send): return message(.sendPan, strip, send)
        case let .sendWidth(strip, send): return message(.sendWidth, strip, send)
        case let .sendMute(strip, send): return message(.sendMute, strip, send)
        case let .sendPosition(strip, send, axis): return message(.sendPosition, strip, send, axis.rawValue)
        case let .dcaGain(dca): return message(.dcaGain, 0, dca)
        case let .dcaMute(dca): return message(.dcaMute, 0, dca)
        case let .muteGroup(group): return message(.muteGroup, 0, group)
        case let .busGain(bus): return message(.busGain, 0, bus)
        case let .busMute(bus): return message(.busMute, 0, bus)
        case let .unitParameter(strip, unit, parameter): return message(.unitParameter, strip, unit, parameter)
        case let .unitBypass(strip, unit): return message(.unitBypass, strip, unit)
        case let .busUnitParameter(bus, unit, parameter): return message(.busUnitParameter, bus, unit, parameter)
        case let .busUnitBypass(bus, unit): return message(.busUnitBypass, bus, unit)
        case let .busLimiterCeiling(bus): return message(.busLimiterCeiling, 0, bus)
        case let .busLimiterRelease(bus): return message(.busLimiterRelease, 0, bus)
        case let .busRoomLevel(bus): return message(.busRoomLevel, 0, bus)
        case let .stripTrim(strip): return message(.stripTrim, strip, 0, 0)
        case let .stripTrimCompensated(strip): return message(.stripTrim, strip, 0, 1)
        case let .stripTrimCompensation(strip): return message(.stripTrimCompensation, strip)
        case let .talkback(strip): return message(.talkback, strip)
        case let .cueBus(bus): return message(.cueBus, 0, bus)
        case let .cuePFL(strip): return message(.cuePFL, 0, strip)
        case let .cueAFL(strip): return message(.cueAFL, 0, strip)
        case .cueGain: return message(.cueGain, 0)
        case .cueClear: return message(.cueClear, 0)
        case .host: return message(.stripGain, Int(Int32.max))   // never queued (Engine.set hands it to the host); no such strip: ignored
        }
    }
}
