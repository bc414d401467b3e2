// The realtime check's de-esser and echo on strip 3, and the control-side moves made to them. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine

extension RealtimeScenario {
    /// Strip 3's units after its compressor: a de-esser, then an echo (which makes the mono strip stereo).
    static let deesser = 3, echo = 4
    /// Echoes that carry their lines (and tail) across a graph swap to the same preset: strip 3's.
    static let continuingEchoCount = 1

    /// The de-esser and the tempo-synced, ducked ping-pong echo strip 3 ends with.
    static func echoUnits() -> [any EngineUnit] {
        [DeesserUnit(settings: DeesserParameters(frequency: 6500, threshold: -40, range: 10)),
         EchoUnit(settings: EchoParameters(sync: .dottedEighth, feedback: 60, lowCut: 200, highCut: 5000, mode: .pingPong, mix: 0.4, ducking: 6))]
    }

    /// Tempo changes mid-tail (crossfaded, then glided), free time, modes, loop filters, freeze, the echo's own
    /// bypass (its tail rings on), and the de-esser's band, wide, listen and bypass.
    static let echoChanges: [(ParameterAddress, Float)] = [
        (.unitParameter(strip: 3, unit: echo, parameter: Int(EchoUnit.tempoParameter)), 96),
        (.unitParameter(strip: 3, unit: echo, parameter: 10), 1), (.unitParameter(strip: 3, unit: echo, parameter: Int(EchoUnit.tempoParameter)), 140),
        (.unitParameter(strip: 3, unit: echo, parameter: 1), 0), (.unitParameter(strip: 3, unit: echo, parameter: 0), 1800),
        (.unitParameter(strip: 3, unit: echo, parameter: 5), 0), (.unitParameter(strip: 3, unit: echo, parameter: 3), 900),
        (.unitParameter(strip: 3, unit: echo, parameter: 4), 20000), (.unitParameter(strip: 3, unit: echo, parameter: 9), 1),
        (.unitBypass(strip: 3, unit: echo), 1), (.unitParameter(strip: 3, unit: echo, parameter: 9), 0), (.unitBypass(strip: 3, unit: echo), 0),
        (.unitParameter(strip: 3, unit: echo, parameter: 5), 2), (.unitParameter(strip: 3, unit: echo, parameter: 1), 8),
        (.unitParameter(strip: 3, unit: deesser, parameter: 0), 9000), (.unitParameter(strip: 3, unit: deesser, parameter: 2), 1),
        (.unitParameter(strip: 3, unit: deesser, parameter: 7), 1), (.unitParameter(strip: 3, unit: deesser, parameter: 8), 1),
        (.unitParameter(strip: 3, unit: deesser, parameter: 8), 0), (.unitBypass(strip: 3, unit: deesser), 1), (.unitBypass(strip: 3, unit: deesser), 0),
    ]
}
