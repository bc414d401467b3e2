// The response plot of a strip's first eq or geq unit, as `foldback check --eq-svg` draws it. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
public import FoldbackPresets
public import FoldbackPlot

/// Why a strip's equaliser cannot be plotted; the description names the strip.
public struct EqualizerPlotError: Error, CustomStringConvertible {
    public let description: String
}

extension Preset {
    /// The response of strip `stripName`'s first `eq` or `geq` unit at `sampleRate`, titled for the plot.
    public func equalizerPlot(ofStrip stripName: String, sampleRate: Double = 48_000) throws(EqualizerPlotError) -> ResponsePlot {
        guard let strip = strip(named: stripName) else {
            let names = strips.map { "'\($0.name)'" }.joined(separator: ", ")
            throw EqualizerPlotError(description: "no strip '\(stripName)' in \(path); its strips are \(names)")
        }
        guard let unit = strip.units.first(where: \.isEqualizer), let response = unit.equalizerResponse(sampleRate: sampleRate) else {
            throw EqualizerPlotError(description: "strip '\(stripName)' has no eq or geq unit")
        }
        return ResponsePlot(
            title: "\(stripName) / \(unit.id)",
            subtitle: "\(response.description), output \(unit.parameters[ParameterTree.Key.gain] ?? 0) dB (\(Int(sampleRate / 1000)) kHz; \(path))",
            bands: response.bands, sampleRate: sampleRate, outputGainDB: response.outputGainDB)
    }
}
