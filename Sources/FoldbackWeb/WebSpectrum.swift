// The analyser frame a page is pushed, with what is drawn over it: the source's `geq` faders and feedback notches. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackAnalysis
import FoldbackControl
import FoldbackDSP
import FoldbackEngine
import FoldbackPresets

/// One analyser frame as JSON `{"type": "spectrum", …}` (see docs/web.md): the ⅓-octave bars, the line and its
/// peak hold (dBFS, at `line_from_hz` … `line_to_hz` on a log axis), the interpolated peak, and the `geq` fader
/// gains and feedback notches of the strip or bus the source belongs to (read-only, from the engine).
struct WebSpectrum: Encodable {
    /// One `geq` unit's fader gains, dB, at ``bands_hz``.
    struct GraphicEQ: Encodable {
        var unit: String
        var bands_db: [Float]
    }

    /// One feedback notch placed now.
    struct Notch: Encodable {
        var unit: String
        var freq_hz: Float
        var depth_db: Float
    }

    var type = "spectrum"
    var source: String
    var bands_hz: [Float]
    var bands: [Float]
    var line_from_hz: Float
    var line_to_hz: Float
    var line: [Float]
    var hold: [Float]
    var peak_hz: Float
    var peak_db: Float
    var geq: [GraphicEQ]
    var notches: [Notch]

    /// `frame` with the overlays of its source's strip or bus in `target`'s running preset.
    init(_ frame: SpectrumFrame, target: any LiveControlTarget) {
        func tenths(_ values: [Float]) -> [Float] { values.map { ($0 * 10).rounded() / 10 } }
        source = frame.source
        bands_hz = SpectrumAnalysis.bandCentres.map { Float(($0 * 10).rounded() / 10) }
        bands = tenths(frame.bands)
        line_from_hz = Float(SpectrumAnalysis.lineFrequencies.first ?? 20)
        line_to_hz = Float(SpectrumAnalysis.lineFrequencies.last ?? 20_000)
        line = tenths(frame.line)
        hold = tenths(frame.hold)
        peak_hz = Float((frame.peakHz * 10).rounded() / 10)
        peak_db = (frame.peakDB * 10).rounded() / 10
        let (geq, notches) = Self.overlays(source: frame.source, target: target)
        self.geq = geq
        self.notches = notches
    }

    /// The `geq` faders and feedback notches of the strip or bus `source` names.
    private static func overlays(source: String, target: any LiveControlTarget) -> ([GraphicEQ], [Notch]) {
        let parts = source.split(separator: "/").map(String.init)
        guard parts.count >= 2, let graph = target.engine.graph else { return ([], []) }
        let preset = target.currentPreset
        let (kind, owner) = (parts[0], parts[1])
        let units = kind == "bus" ? preset.buses.first { $0.name == owner }?.units : preset.strips.first { $0.name == owner }?.units
        let geq: [GraphicEQ] = (units ?? []).filter { $0.type == "geq" }.map { unit in
            GraphicEQ(unit: unit.id, bands_db: GraphicEQDesign.keys.map { key in
                let path = [kind, owner, "unit", unit.id, key].map { Substring($0) }
                guard let parameter = try? ParameterPath.resolve(path, graph: graph, preset: preset) else { return 0 }
                return ((target.engine.value(at: parameter.address) ?? parameter.presetValue) * 10).rounded() / 10
            })
        }
        let meterOwner = kind == "bus" ? "bus/\(owner)" : owner
        let notches = target.engine.meters().units.filter { $0.strip == meterOwner }.flatMap { unit in
            FeedbackNotchReport.notches(in: unit.readings).filter { $0.depth < 0 }.map {
                Notch(unit: unit.unit, freq_hz: ($0.frequency * 10).rounded() / 10, depth_db: ($0.depth * 10).rounded() / 10)
            }
        }
        return (geq, notches)
    }
}
