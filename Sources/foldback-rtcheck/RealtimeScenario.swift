// The representative graph and the control-side script the realtime check runs against it. Non-realtime.
import FoldbackDSP
import FoldbackEngine

/// A monitor-mix graph like a small gig's: every built-in unit, mono mics and stereo playback, three limited buses.
enum RealtimeScenario {
    static let sampleRate = 48000.0

    /// Unit order in every strip (indices used by ``changes``): trim, EQ, compressor, then reverb on strips 0 and 4.
    static let trim = 0, equalizer = 1, compressor = 2, reverb = 3

    /// The graph: 6 strips (4 mono, 2 stereo) of gain → 10-band EQ → compressor (→ reverb, mono in → stereo out,
    /// on strips 0 and 4; → an LV2 plugin on strips 1 and 5, see ``lv2Unit(strip:)``; → a feedback suppressor with its
    /// analysis worker on strips 2 and 5, see ``feedbackUnit(strip:)``), 3 stereo buses with safety limiters, pre- and post-fader sends.
    static func graph(maxFrames: Int, busGainDB: Float = 0, continuing predecessor: EngineGraph? = nil) throws(EngineError) -> EngineGraph {
        let buses = ["main", "iem_vox", "iem_keys"].map {
            BusDescription(name: $0, channels: 2, gainDB: busGainDB, limiter: LimiterSettings())
        }
        var strips: [StripDescription] = []
        for index in 0..<6 {
            var units: [any EngineUnit] = [GainUnit(gainDB: -3, isInverted: index % 2 == 1), EQUnit(bands: tenBands(tilt: index)), makeCompressor(index)]
            var ids = ["trim", "eq", "comp"]
            if index == 0 || index == 4 {
                units.append(ReverbUnit(settings: ReverbParameters(decay: 1.2 + Float(index) * 0.2, mix: 0.3)))
                ids.append("verb")
            }
            if let plugin = try lv2Unit(strip: index) {
                units.append(plugin)
                ids.append("lv2")
            }
            if let feedback = feedbackUnit(strip: index) {
                units.append(feedback)
                ids.append("fbx")
            }
            strips.append(StripDescription(
                name: "strip\(index)", channels: index < 4 ? 1 : 2, units: units, unitIDs: ids,
                sends: [
                    SendDescription(bus: 0, gainDB: -2),
                    SendDescription(bus: 1, gainDB: index == 0 ? 3 : -9, isPreFader: true),
                    SendDescription(bus: 2, gainDB: -6, isPreFader: index % 2 == 0),
                ],
                gainDB: -1, pan: Float(index - 3) / 3))
        }
        return try EngineGraph(GraphDescription(strips: strips, buses: buses), sampleRate: sampleRate, maxFrames: maxFrames, continuing: predecessor)
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
        (.unitParameter(strip: 0, unit: trim, parameter: 0), 6), (.unitParameter(strip: 1, unit: trim, parameter: 1), 0),
        (.unitParameter(strip: 0, unit: equalizer, parameter: 9), 3000), (.unitParameter(strip: 0, unit: equalizer, parameter: 10), -9),
        (.unitParameter(strip: 5, unit: equalizer, parameter: 0), 6), (.unitParameter(strip: 2, unit: compressor, parameter: 0), -40),
        (.unitParameter(strip: 3, unit: compressor, parameter: 1), 10), (.unitParameter(strip: 0, unit: reverb, parameter: 0), 4),
        (.unitParameter(strip: 4, unit: reverb, parameter: 5), 0.8), (.unitBypass(strip: 5, unit: compressor), 1),
        (.unitBypass(strip: 0, unit: reverb), 1), (.stripEnabled(strip: 2), 0), (.busMute(bus: 2), 1),
        (.stripSolo(strip: 3), 0), (.stripMute(strip: 2), 0), (.stripEnabled(strip: 2), 1),
        (.unitBypass(strip: 5, unit: compressor), 0), (.unitBypass(strip: 0, unit: reverb), 0), (.busMute(bus: 2), 0),
        (.stripGain(strip: 0), 0),
    ] + lv2Changes + feedbackParameterChanges
}
