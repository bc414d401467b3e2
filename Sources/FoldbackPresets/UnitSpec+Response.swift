// What an eq or geq unit of a preset does to the spectrum, as bands a response plot draws. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackDSP
import FoldbackEngine

extension UnitSpec {
    /// The filters of an eq or geq unit at `sampleRate` Hz, for drawing its magnitude response.
    public struct EqualizerResponse: Sendable {
        /// The bands (a graphic EQ's as corrected band gains).
        public var bands: [EQBand]
        /// The unit's output gain, dB.
        public var outputGainDB: Double
        /// `curve Vocal Booster, 5 bands` or `31-band graphic EQ (corrected band gains)`.
        public var description: String
    }

    /// Whether the unit is one ``equalizerResponse(sampleRate:)`` describes (eq or geq).
    public var isEqualizer: Bool { [UnitSchema.eq.type, UnitSchema.geq.type].contains(type) }

    /// The bands, output gain and description of an eq or geq unit; nil for any other type.
    public func equalizerResponse(sampleRate: Double) -> EqualizerResponse? {
        guard isEqualizer else { return nil }
        let outputGainDB = Double(parameters[ParameterTree.Key.gain] ?? 0)
        guard type == UnitSchema.geq.type else {
            let description = (curve.map { "curve \($0), " } ?? "") + "\(bands.count) bands"
            return EqualizerResponse(bands: bands.map(\.band), outputGainDB: outputGainDB, description: description)
        }
        let design = GraphicEQDesign(sampleRate: sampleRate)
        let gains = design.gains(faders: GraphicEQDesign.keys.map { Double(parameters[$0] ?? 0) })
        return EqualizerResponse(bands: design.bands(gains: gains), outputGainDB: outputGainDB, description: "31-band graphic EQ (corrected band gains)")
    }
}
