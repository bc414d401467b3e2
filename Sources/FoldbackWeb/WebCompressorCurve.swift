// The compressor editor's static curve: the running unit's live settings through the kernel's own gain computer (CompressorKernel.staticGainDB). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackDSP
import FoldbackEngine
import FoldbackPresets
import Foundation

/// `GET /curve?unit=strip/vox/unit/comp`: a running compressor's static curve as JSON
/// `{"in": [...], "gain": [...], "out": [...]}`: detector levels from ``lowestLevel`` to 0 dBFS in 1 dB steps,
/// the gain the compressor settles on at each (makeup, knee and expander included) and the output level.
enum WebCompressorCurve {
    /// The lowest input level drawn, in dBFS (below the expander's default threshold).
    static let lowestLevel = -90

    /// The JSON text of unit `path`'s curve now, or nil when `path` names no running compressor.
    static func json(_ target: any LiveControlTarget, unit path: String) -> String? {
        guard let (unit, _) = WebResponse.liveUnit(target, path: path), unit.type == UnitSchema.compressor.type else { return nil }
        return curve(settings: CompressorUnit(values: unit.parameters).settings).jsonText()
    }

    /// The curve of `settings`.
    static func curve(settings: CompressorSettings) -> Curve {
        let levels = (lowestLevel...0).map(Float.init)
        let gains = levels.map { (CompressorKernel.staticGainDB(for: settings, atLevel: $0) * 1000).rounded() / 1000 }
        return Curve(in: levels, gain: gains, out: zip(levels, gains).map { $0 + $1 })
    }

    struct Curve: Encodable {
        var `in`: [Float]
        var gain: [Float]
        var out: [Float]
    }
}
