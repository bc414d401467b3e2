// The eq and geq editors' response curve: the running unit's bands with their live values, through the engine's own response code (EQResponse, as `foldback check --eq-svg`). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackDSP
import FoldbackPresets
import Foundation

/// `GET /response?unit=strip/vox/unit/eq`: the magnitude response of a running eq or geq unit as JSON
/// `{"hz": [...], "db": [...]}`, 200 log-spaced points from 20 Hz to 20 kHz, from the live values.
enum WebResponse {
    /// Points on the frequency axis.
    static let pointCount = 200

    /// The JSON text of unit `path`'s response now, or nil when `path` names no running eq or geq.
    static func json(_ target: any LiveControlTarget, unit path: String) -> String? {
        guard let (unit, sampleRate) = liveUnit(target, path: path), let response = unit.equalizerResponse(sampleRate: sampleRate) else { return nil }
        let frequencies = EQResponse.logSpacedFrequencies(from: 20, to: 20_000, count: pointCount)
        let levels = EQResponse.magnitudeDB(bands: response.bands, sampleRate: sampleRate, frequencies: frequencies, outputGainDB: response.outputGainDB)
        return Points(hz: frequencies.map { ($0 * 10).rounded() / 10 }, db: levels.map { $0.isFinite ? ($0 * 100).rounded() / 100 : -144 }).jsonText()
    }

    /// The running unit `path` (`strip/vox/unit/eq`, `bus/mon/unit/comp`) as the preset model holds it with
    /// every live change written in, and the graph's sample rate; nil when `path` names no running unit.
    static func liveUnit(_ target: any LiveControlTarget, path: String) -> (unit: UnitSpec, sampleRate: Double)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count == 4, parts[2] == "unit", let graph = target.engine.graph else { return nil }
        let preset = target.currentPreset.applying(target.engine.changedValues, graph: graph).preset
        let units: [UnitSpec]? = switch parts[0] {
        case "strip": preset.strips.first { $0.name == parts[1] }?.units
        case "bus": preset.buses.first { $0.name == parts[1] }?.units
        default: nil
        }
        return units?.first { $0.id == parts[3] }.map { ($0, graph.sampleRate) }
    }

    private struct Points: Encodable {
        var hz: [Double]
        var db: [Double]
    }
}
