// The representative graph and the control-side script the realtime check runs against it. Non-realtime.
import FoldbackEngine

/// A monitor-mix graph like a small gig's: mono mics and stereo playback into front-of-house and two in-ears.
enum RealtimeScenario {
    static let sampleRate = 48000.0

    /// The graph: 6 strips (4 mono, 2 stereo) with two gain units each, 3 stereo buses, pre- and post-fader sends.
    static func graph(maxFrames: Int, busGainDB: Float = 0) throws(EngineError) -> EngineGraph {
        let buses = [
            BusDescription(name: "main", channels: 2, gainDB: busGainDB),
            BusDescription(name: "iem_vox", channels: 2, gainDB: busGainDB),
            BusDescription(name: "iem_keys", channels: 2, gainDB: busGainDB),
        ]
        var strips: [StripDescription] = []
        for index in 0..<6 {
            let channels = index < 4 ? 1 : 2
            strips.append(StripDescription(
                name: "strip\(index)", channels: channels,
                units: [GainUnit(gainDB: -3), GainUnit(gainDB: 3, isInverted: index % 2 == 1)],
                unitIDs: ["trim", "polarity"],
                sends: [
                    SendDescription(bus: 0, gainDB: -2),
                    SendDescription(bus: 1, gainDB: index == 0 ? 3 : -9, isPreFader: true),
                    SendDescription(bus: 2, gainDB: -6, isPreFader: index % 2 == 0),
                ],
                gainDB: -1, pan: Float(index - 3) / 3))
        }
        return try EngineGraph(GraphDescription(strips: strips, buses: buses), sampleRate: sampleRate, maxFrames: maxFrames)
    }

    /// Parameter changes the control thread makes, one every few cycles: every kind of address.
    static let changes: [(ParameterAddress, Float)] = [
        (.stripGain(strip: 0), -6), (.stripPan(strip: 1), 0.5), (.stripMute(strip: 2), 1),
        (.stripSolo(strip: 3), 1), (.sendGain(strip: 4, send: 1), -12), (.busGain(bus: 1), -3),
        (.unitParameter(strip: 0, unit: 0, parameter: 0), 6), (.unitParameter(strip: 1, unit: 1, parameter: 1), 0),
        (.unitBypass(strip: 5, unit: 0), 1), (.stripEnabled(strip: 2), 0), (.busMute(bus: 2), 1),
        (.stripSolo(strip: 3), 0), (.stripMute(strip: 2), 0), (.stripEnabled(strip: 2), 1),
        (.unitBypass(strip: 5, unit: 0), 0), (.busMute(bus: 2), 0), (.stripGain(strip: 0), 0),
    ]
}
