// The representative graph and the control-side script the realtime check runs against it. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import FoldbackHRTF

/// A monitor-mix graph like a small gig's: every built-in unit, mono mics and stereo playback, three limited buses.
enum RealtimeScenario {
    static let sampleRate = 48000.0

    /// Unit order in every strip (indices used by ``changes``): trim, EQ, compressor, then reverb on strips 0 and 4.
    static let trim = 0, equalizer = 1, compressor = 2, reverb = 3
    /// The effect bus and its return strip, and the talkback strip (talking to `iem_vox` and `iem_keys`).
    static let verbBus = 3, verbReturn = 6, talkback = 7
    /// Strips with a graphic EQ and a delay after their other built-in units, and the index of the geq (the
    /// delay follows it): strip 2 (mono) and strip 4 (stereo, after its reverb).
    static let graphicEQ = [2: 3, 4: 4]

    /// The graph: 6 strips (4 mono, 2 stereo) of gain → 10-band EQ → compressor (→ reverb, mono in → stereo out,
    /// on strips 0 and 4; → de-esser → echo, mono in → stereo out, on strip 3, see ``echoUnits()``;
    /// → graphic EQ → delay on strips 2 and 4; → an LV2 plugin on strips 1 and 5, see
    /// ``lv2Unit(strip:)``; → x42 fil4 in a sandbox process on strip 0, whose chain starts with swh amp → x42 darc sharing one, see ``sandboxedUnit(strip:)``; → a feedback suppressor with its analysis worker on strips 2 and 5, see
    /// ``feedbackUnit(strip:)``), 3 stereo buses with safety limiters, pre- and post-fader sends.
    /// `main` carries an EQ and a compressor, `iem_vox` a gain unit and a live feedback suppressor; strips 0 and 1 also feed the effect bus `verb`
    /// (a reverb, no outputs), whose return strip `verb_ret` (an EQ) feeds `main` and `iem_vox`. Strip 3's
    /// lookahead compressor makes every other path into its buses run through a send delay. Strip 0 has an input
    /// trim; the talkback `tb` talks to both in-ear buses; the cue output follows the buses. `iem_keys` is binaural
    /// (the Debian KEMAR set, with a room at −3 dB): every send into it renders at its own position, see ``binauralChanges``.
    static func graph(maxFrames: Int, busGainDB: Float = 0, continuing predecessor: EngineGraph? = nil) throws(EngineError) -> EngineGraph {
        var buses = ["main", "iem_vox", "iem_keys"].map {
            BusDescription(name: $0, channels: 2, gainDB: busGainDB, limiter: LimiterSettings())
        }
        buses[0].units = [EQUnit(bands: tenBands(tilt: 2)), makeCompressor(0)]
        buses[0].unitIDs = ["eq", "glue"]
        buses[1].units = [GainUnit(gainDB: -2), busFeedbackUnit()]
        buses[1].unitIDs = ["trim", "fbx"]
        buses[2].hrtf = try binauralSet()
        buses[2].roomDB = -3
        buses.append(BusDescription(
            name: "verb", channels: 2, units: [ReverbUnit(settings: ReverbParameters(decay: 1.5, mix: 1))], unitIDs: ["plate"], hasOutput: false))
        var strips: [StripDescription] = []
        for index in 0..<6 {
            // Strip 0's `"strip"` sandbox is first in its chain: posted at the start of each chunk, collected at its place.
            let group = try sandboxedGroup(strip: index)
            var units: [any EngineUnit] = group + [GainUnit(gainDB: -3, isInverted: index % 2 == 1), EQUnit(bands: tenBands(tilt: index)), makeCompressor(index)]
            var ids = Array(["amp-strip", "darc-strip"].prefix(group.count)) + ["trim", "eq", "comp"]
            if index == 0 || index == 4 {
                units.append(ReverbUnit(settings: ReverbParameters(decay: 1.2 + Float(index) * 0.2, mix: 0.3)))
                ids.append("verb")
            }
            if index == 3 {
                units += echoUnits()
                ids += ["deess", "echo"]
            }
            if graphicEQ[index] != nil {
                units += [GraphicEQUnit(values: ["g250": -4, "g2k5": -6, "g3k15": -9, "g8k": 2]), DelayUnit(milliseconds: Float(index) * 5)]
                ids += ["geq", "delay"]
            }
            if let plugin = try lv2Unit(strip: index) {
                units.append(plugin)
                ids.append("lv2")
            }
            if let sandboxed = try sandboxedUnit(strip: index) {
                units.append(sandboxed)
                ids.append("fil4")
            }
            if let feedback = feedbackUnit(strip: index) {
                units.append(feedback)
                ids.append("fbx")
            }
            strips.append(StripDescription(
                name: "strip\(index)", channels: index < 4 ? 1 : 2, units: units, unitIDs: ids,
                sends: [
                    SendDescription(bus: 0, gainDB: -2),
                    SendDescription(bus: 1, gainDB: index == 0 ? 3 : -9, isPreFader: true, pan: index % 2 == 0 ? Float(index) / 6 - 0.5 : nil),
                    SendDescription(bus: 2, gainDB: -6, isPreFader: index % 2 == 0),
                ] + (index < 2 ? [SendDescription(bus: verbBus, gainDB: -8)] : []),
                gainDB: -1, pan: Float(index - 3) / 3))
        }
        var verbReturn = StripDescription(
            name: "verb_ret", channels: 2, units: [EQUnit(bands: tenBands(tilt: 1))], unitIDs: ["eq"],
            sends: [SendDescription(bus: 0, gainDB: -6), SendDescription(bus: 1, gainDB: -12, isPreFader: true)])
        verbReturn.returnBus = verbBus
        strips.append(verbReturn)
        strips[0].trimDB = -4
        var talkbackStrip = StripDescription(name: "tb", channels: 1, sends: [SendDescription(bus: 1), SendDescription(bus: 2)], gainDB: -6)
        talkbackStrip.isTalkback = true
        strips.append(talkbackStrip)
        var description = GraphDescription(strips: strips, buses: buses)
        description.cue = CueDescription(gainDB: -3)
        description.dcas = [DCADescription(name: "mics", strips: [0, 1, 2, 3], gainDB: -2), DCADescription(name: "all", strips: [1, 4, 5])]
        description.muteGroups = [MuteGroupDescription(name: "band", strips: [2, 3, 4])]
        return try EngineGraph(description, sampleRate: sampleRate, maxFrames: maxFrames, continuing: predecessor)
    }

    private static func tenBands(tilt: Int) -> [EQBand] {
        [EQBand(type: .highPass, frequency: 80, slopeDBPerOctave: 24)]
            + [125.0, 250, 500, 1000, 2000, 4000, 8000].enumerated().map { offset, frequency in
                EQBand(type: .peak, frequency: frequency, gainDB: Double((offset + tilt) % 5) - 2, q: 1.2)
            }
            + [EQBand(type: .highShelf, frequency: 10000, gainDB: 2), EQBand(type: .notch, frequency: 3150, q: 8)]
    }

    private static func makeCompressor(_ index: Int) -> CompressorUnit {
        var settings = CompressorSettings()
        settings.thresholdDB = -24
        settings.detection = index % 2 == 0 ? .rms : .peak
        settings.lookaheadMs = index == 3 ? 2 : 0
        settings.expanderThresholdDB = -50
        settings.expanderRatio = 2
        return CompressorUnit(settings: settings)
    }

    /// Parameter changes the control thread makes, one every few cycles: every kind of address and every unit type.
    static let changes: [(ParameterAddress, Float)] = [
        (.stripGain(strip: 0), -6), (.stripPan(strip: 1), 0.5), (.stripMute(strip: 2), 1),
        (.stripSolo(strip: 3), 1), (.sendGain(strip: 4, send: 1), -12), (.busGain(bus: 1), -3),
        (.unitParameter(strip: 0, unit: sandboxLead + trim, parameter: 0), 6), (.unitParameter(strip: 1, unit: trim, parameter: 1), 0),
        (.unitParameter(strip: 0, unit: sandboxLead + equalizer, parameter: 9), 3000), (.unitParameter(strip: 0, unit: sandboxLead + equalizer, parameter: 10), -9),
        (.unitParameter(strip: 5, unit: equalizer, parameter: 0), 6), (.unitParameter(strip: 2, unit: compressor, parameter: 0), -40),
        (.unitParameter(strip: 1, unit: equalizer, parameter: 4 * 10 + 3), 2), (.unitParameter(strip: 1, unit: equalizer, parameter: 4 * 10 + 1), 0),
        (.unitParameter(strip: 3, unit: compressor, parameter: 1), 10), (.unitParameter(strip: 0, unit: sandboxLead + reverb, parameter: 0), 4),
        (.unitParameter(strip: 4, unit: reverb, parameter: 5), 0.8), (.unitBypass(strip: 5, unit: compressor), 1),
        (.unitBypass(strip: 0, unit: sandboxLead + reverb), 1), (.stripEnabled(strip: 2), 0), (.busMute(bus: 2), 1),
        (.stripSolo(strip: 3), 0), (.stripMute(strip: 2), 0), (.stripEnabled(strip: 2), 1),
        (.unitBypass(strip: 5, unit: compressor), 0), (.unitBypass(strip: 0, unit: sandboxLead + reverb), 0), (.busMute(bus: 2), 0),
        (.stripGain(strip: 0), 0),
        (.busUnitParameter(bus: 0, unit: 0, parameter: 0), -3), (.busUnitParameter(bus: 0, unit: 1, parameter: 0), -30),
        (.busUnitBypass(bus: 0, unit: 1), 1), (.busUnitParameter(bus: 1, unit: 0, parameter: 0), 4),
        (.busUnitParameter(bus: verbBus, unit: 0, parameter: 0), 3), (.busLimiterCeiling(bus: 1), -6), (.busLimiterRelease(bus: 1), 200),
        (.stripGain(strip: verbReturn), -4), (.sendGain(strip: verbReturn, send: 1), -3), (.unitBypass(strip: verbReturn, unit: 0), 1),
        (.busUnitBypass(bus: 0, unit: 1), 0), (.busLimiterCeiling(bus: 1), -1), (.unitBypass(strip: verbReturn, unit: 0), 0),
    ] + graphicEQAndDelayChanges + engineerToolChanges + lv2Changes + feedbackParameterChanges + groupAndSendPanChanges + echoChanges
        + binauralChanges + sandboxChanges

    /// Send pans (a send with its own pan and one following the strip), a stereo send's width, DCA moves and mutes, a mute group.
    private static let groupAndSendPanChanges: [(ParameterAddress, Float)] = [
        (.sendPan(strip: 0, send: 1), 0.7), (.sendPan(strip: 1, send: 1), -1), (.sendPan(strip: 4, send: 1), 0.3),
        (.dcaGain(dca: 0), -9), (.dcaGain(dca: 1), 4), (.dcaMute(dca: 1), 1), (.muteGroup(group: 0), 1),
        (.stripPan(strip: 1), -0.5), (.dcaMute(dca: 1), 0), (.muteGroup(group: 0), 0), (.dcaGain(dca: 0), 0),
        (.sendWidth(strip: 0, send: 1), 0.3), (.sendPan(strip: 0, send: 1), -0.4), (.sendWidth(strip: 0, send: 1), 1.6),
        (.sendMute(strip: 0, send: 1), 1), (.sendMute(strip: 2, send: 0), 1), (.sendMute(strip: 0, send: 1), 0), (.sendMute(strip: 2, send: 0), 0),
    ]

    /// Trim moves (compensated and not), talkback presses and cue selections, switching and summing.
    private static let engineerToolChanges: [(ParameterAddress, Float)] = [
        (.stripTrimCompensated(strip: 0), 8), (.stripTrim(strip: 3), -6), (.talkback(strip: talkback), 1),
        (.cueBus(bus: 1), 1), (.cuePFL(strip: 3), 1), (.stripTrimCompensated(strip: 3), 6), (.talkback(strip: talkback), 0),
        (.cueClear, 0), (.cueAFL(strip: 4), 1), (.cueBus(bus: verbBus), 1), (.cueGain, 6), (.stripTrimCompensation(strip: 0), -3),
        (.talkback(strip: talkback), 1), (.stripMute(strip: talkback), 1), (.stripMute(strip: talkback), 0), (.cueClear, 0),
        (.cueBus(bus: 0), 1), (.talkback(strip: talkback), 0), (.stripTrim(strip: 0), 0),
    ]

    /// Graphic EQ faders, its output gain and delay moves (to the 500 ms end, and back mid-crossfade), a bypass.
    private static let graphicEQAndDelayChanges: [(ParameterAddress, Float)] = [
        (.unitParameter(strip: 2, unit: 3, parameter: 18), 12), (.unitParameter(strip: 4, unit: 4, parameter: 22), 15),
        (.unitParameter(strip: 4, unit: 4, parameter: 0), -3), (.unitParameter(strip: 2, unit: 4, parameter: 0), 500),
        (.unitParameter(strip: 4, unit: 5, parameter: 0), 120), (.unitParameter(strip: 4, unit: 5, parameter: 0), 3.3),
        (.unitParameter(strip: 2, unit: 3, parameter: 1), -15), (.unitBypass(strip: 4, unit: 5), 1),
        (.unitBypass(strip: 4, unit: 5), 0), (.unitParameter(strip: 2, unit: 4, parameter: 0), 0),
    ]

    /// Sources moving in the binaural bus `iem_keys` (bus 2): a mono and a stereo strip round the head, up, away and
    /// back, one move landing during another's crossfade, the stereo strip's width and the room's level.
    private static let binauralChanges: [(ParameterAddress, Float)] = [
        (.sendPosition(strip: 0, send: 2, axis: .azimuth), 90), (.sendPosition(strip: 4, send: 2, axis: .azimuth), -135),
        (.busRoomLevel(bus: 2), -12), (.busRoomLevel(bus: 2), 3),
        (.sendPosition(strip: 0, send: 2, axis: .azimuth), -170), (.sendPosition(strip: 1, send: 2, axis: .elevation), 45),
        (.sendPosition(strip: 1, send: 2, axis: .distance), 12), (.sendWidth(strip: 4, send: 2), 1.8),
        (.sendPosition(strip: 4, send: 2, axis: .azimuth), 170), (.sendPosition(strip: 1, send: 2, axis: .distance), 0.3),
        (.sendPosition(strip: 0, send: 2, axis: .azimuth), 0), (.sendPosition(strip: 1, send: 2, axis: .elevation), -40),
    ]

    /// The binaural bus's HRTF set, read once (every graph of the run shares it).
    private static func binauralSet() throws(EngineError) -> HRIRSet {
        switch loadedSet {
        case let .success(set): return set
        case let .failure(error): throw .binauralBus(name: "iem_keys", reason: error.description)
        }
    }

    private static let loadedSet = Result { () throws(SOFAError) in try SOFALoader.load(path: SOFALoader.defaultPath, sampleRate: sampleRate) }
}
