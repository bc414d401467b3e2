// Applies parameter changes from the ring to the current graph at a cycle boundary. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

extension GraphRender {
    /// Applies one change; out-of-range indices are ignored (the non-realtime side validated them).
    mutating func apply(_ change: ParameterChange) {
        isAtRest = false   // whatever it changes, the next chunk renders in full
        let strip = Int(change.strip)
        let index = Int(change.index)
        let isOn = change.value >= 0.5
        switch change.kind {
        case .stripGain:
            guard strip < stripCount else { return }
            strips[strip].faderLinear = Decibels.linearGain(fromDecibels: change.value)
            strips[strip].fader.setTarget(strips[strip].faderLinear * strips[strip].dcaGain)
        case .stripPan:
            guard strip < stripCount else { return }
            strips[strip].pan = change.value
            retargetTaps(ofStrip: strip)
        case .stripMute:
            guard strip < stripCount else { return }
            strips[strip].isMuted = isOn
            retargetGates()
        case .stripSolo:
            guard strip < stripCount else { return }
            strips[strip].isSoloed = isOn
            retargetGates()
        case .stripEnabled:
            guard strip < stripCount else { return }
            strips[strip].isEnabled = isOn
            retargetGates()
        case .sendGain:
            guard strip < stripCount, index < Int(strips[strip].sendCount) else { return }
            sends[Int(strips[strip].firstSend) + index].level = Decibels.linearGain(fromDecibels: change.value)
            retargetTaps(ofStrip: strip)
        case .sendPan:
            guard strip < stripCount, index < Int(strips[strip].sendCount) else { return }
            sends[Int(strips[strip].firstSend) + index].pan = change.value
            sends[Int(strips[strip].firstSend) + index].hasOwnPan = true
            retargetTaps(ofStrip: strip)
        case .sendWidth:
            guard strip < stripCount, index < Int(strips[strip].sendCount) else { return }
            sends[Int(strips[strip].firstSend) + index].width = change.value
            retargetTaps(ofStrip: strip)
            retargetBinaural(sends + Int(strips[strip].firstSend) + index)
        case .sendPosition:
            guard strip < stripCount, index < Int(strips[strip].sendCount), let axis = BinauralAxis(rawValue: Int(change.parameter)) else { return }
            let send = sends + Int(strips[strip].firstSend) + index
            send.pointee.position = axis.setting(change.value, in: send.pointee.position)
            retargetBinaural(send)
        case .sendMute:
            guard strip < stripCount, index < Int(strips[strip].sendCount) else { return }
            sends[Int(strips[strip].firstSend) + index].isMuted = isOn
            retargetTaps(ofStrip: strip)
        case .busGain:
            guard index < busCount else { return }
            buses[index].gainLinear = Decibels.linearGain(fromDecibels: change.value)
            buses[index].gain.setTarget(buses[index].isMuted ? 0 : buses[index].gainLinear)
        case .busMute:
            guard index < busCount else { return }
            buses[index].isMuted = isOn
            buses[index].gain.setTarget(isOn ? 0 : buses[index].gainLinear)
        case .unitParameter, .busUnitParameter:
            guard let slot = unitSlot(of: change) else { return }
            Self.wake(slot)
            slot.pointee.functions.setParameter(slot.pointee.state, change.parameter, change.value)
        case .unitBypass, .busUnitBypass:
            guard let slot = unitSlot(of: change) else { return }
            Self.setBypass(slot, isOn: isOn)
        case .stripTrim:
            guard strip < stripCount else { return }
            setTrim(ofStrip: strip, to: change.value, compensated: change.parameter != 0)
        case .stripTrimCompensation:
            guard strip < stripCount else { return }
            setTrimCompensation(ofStrip: strip, to: change.value)
        case .talkback:
            guard strip < stripCount else { return }
            setTalkback(ofStrip: strip, isOn: isOn)
        case .dcaGain:
            setDCA(index, gainDB: change.value)
        case .dcaMute:
            setDCA(index, isMuted: isOn)
        case .muteGroup:
            setMuteGroup(index, isOn: isOn)
        case .cueBus, .cuePFL, .cueAFL:
            setCue(change.kind, index: index, isOn: isOn)
        case .cueGain:
            cue?.pointee.gain.setTarget(Decibels.linearGain(fromDecibels: change.value))
        case .cueClear:
            clearCueSelection()
        case .busRoomLevel:
            guard index < busCount, let room = buses[index].room else { return }
            room.pointee.setLevel(change.value)
        case .busLimiterCeiling, .busLimiterRelease:
            guard index < busCount, let limiter = buses[index].limiter else { return }
            let isCeiling = change.kind == .busLimiterCeiling
            limiter.pointee.update(
                ceilingDB: isCeiling ? change.value : limiter.pointee.ceilingDB,
                releaseMs: isCeiling ? limiter.pointee.releaseMs : change.value)
        }
    }

    /// The unit a unit change addresses: unit `index` of strip `strip`, or of bus `strip` for bus units; nil when out of range.
    private func unitSlot(of change: ParameterChange) -> UnsafeMutablePointer<UnitSlot>? {
        let owner = Int(change.strip), index = Int(change.index)
        let isBus = change.kind == .busUnitParameter || change.kind == .busUnitBypass
        guard owner < (isBus ? busCount : stripCount) else { return nil }
        let first = Int(isBus ? buses[owner].firstUnit : strips[owner].firstUnit)
        let count = Int(isBus ? buses[owner].unitCount : strips[owner].unitCount)
        return index < count ? units + first + index : nil
    }

    /// Bypasses a unit (or brings it back): through its own bypass parameter if it has one, else by the crossfade.
    private static func setBypass(_ slot: UnsafeMutablePointer<UnitSlot>, isOn: Bool) {
        if slot.pointee.selfBypassParameter >= 0 {
            wake(slot)
            slot.pointee.functions.setParameter(slot.pointee.state, slot.pointee.selfBypassParameter, isOn ? 0 : 1)
        } else {
            slot.pointee.bypass.setTarget(isOn ? 1 : 0)
        }
    }

    /// Recomputes every strip's gate target from mute, enable and solo-in-place.
    mutating func retargetGates() {
        var soloed = 0
        for strip in 0..<stripCount where strips[strip].isSoloed && strips[strip].isEnabled { soloed += 1 }
        soloCount = soloed
        for strip in 0..<stripCount {
            strips[strip].gate.setTarget(Self.gateTarget(of: strips[strip], soloCount: soloed))
        }
        retargetDims()
    }

    /// The gate of a strip: 0 when muted (by itself or a mute group), disabled, or not soloed while others are (a disabled strip's solo
    /// does not count). Effect returns are solo-safe: a solo leaves them open, so a soloed strip keeps its
    /// reverb (the other strips' sends into the effect bus are gated already). A talkback is open only
    /// while pressed, and solo-safe too.
    static func gateTarget(of strip: StripRender, soloCount: Int) -> Float {
        if strip.isMuted || strip.isGroupMuted || !strip.isEnabled { return 0 }
        if strip.isTalkback { return strip.isTalking ? 1 : 0 }
        if soloCount > 0 && !strip.isSoloed && strip.returnBus < 0 { return 0 }
        return 1
    }

    /// Recomputes the coefficient targets of a strip's send taps from pan (the send's own, else the strip's), width, send levels and mutes.
    mutating func retargetTaps(ofStrip strip: Int) {
        let stripChannels = Int(strips[strip].outputChannels)
        for sendOffset in 0..<Int(strips[strip].sendCount) {
            let send = sends[Int(strips[strip].firstSend) + sendOffset]
            let busChannels = Int(buses[Int(send.bus)].channels)
            for tap in 0..<Int(send.tapCount) {
                let pan = send.hasOwnPan ? send.pan : strips[strip].pan
                let gain = SendTapLaw.gain(tap: tap, stripChannels: stripChannels, busChannels: busChannels, pan: pan, width: send.width)
                taps[Int(send.firstTap) + tap].coefficient.setTarget(send.isMuted ? 0 : send.level * gain)
            }
        }
    }
}
