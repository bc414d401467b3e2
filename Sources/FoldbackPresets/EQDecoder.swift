// Reads an `eq` unit's `curve` and `[[strip.unit.band]]` (or `[[bus.unit.band]]`) tables into its resolved list of bands. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

/// Resolves an `eq` unit's bands: the curve's bands (if it names one), each replaced by a preset band with
/// the same `index` (only the keys it writes change), then the preset's other bands in file order.
enum EQDecoder {
    /// The keys an `eq` unit table takes besides its schema's numbers.
    static let unitKeys = ["curve", "band"]

    /// The curve name (as the library spells it) and the bands; problems go to the reader's log. The library
    /// is read only for a unit that names a curve (loading it parses every factory curve file).
    static func decode(_ reader: TableReader, library: @autoclosure () -> Result<CurveLibrary, PresetError> = CurveLibrary.standard)
        -> (curve: String?, bands: [EQBandSpec]) {
        var curveName: String?
        var bands: [EQBandSpec] = []
        var curveIsKnown = true
        if let name = reader.string("curve") {
            switch library() {
            case .success(let curves):
                if let curve = curves.curve(named: name) {
                    curveName = curve.name
                    bands = curve.bands
                } else {
                    curveIsKnown = false
                    reader.log.error(curves.unknownCurveMessage(name), at: reader.valueLocation("curve"))
                }
            case .failure(let error):
                curveIsKnown = false
                let reason = error.diagnostics.first.map(\.description) ?? "unknown reason"
                reader.log.error("curve '\(name)' cannot be looked up: \(reason)", at: reader.valueLocation("curve"))
            }
        }
        let curveBandCount = bands.count
        var indices = NameRegistry(what: "band index")
        let isOnBus = reader.path.components.first == .key("bus")
        for bandReader in reader.tables("band", label: isOnBus ? "[[bus.unit.band]]" : "[[strip.unit.band]]") ?? [] {
            bandReader.checkKeys(allowed: EQBandDecoder.presetKeys)
            guard let index = overriddenIndex(bandReader, curve: curveName, curveBandCount: curveBandCount, curveIsKnown: curveIsKnown) else {
                if bandReader.table["index"] == nil, let band = EQBandDecoder.decode(bandReader) {
                    bands.append(EQBandSpec(band: band, origin: .added, location: bandReader.location))
                }
                continue
            }
            guard indices.register(String(index), at: bandReader.valueLocation("index"), log: reader.log),
                  let band = EQBandDecoder.decode(bandReader, over: bands[index - 1].band) else { continue }
            bands[index - 1] = EQBandSpec(band: band, origin: .overridden, location: bandReader.location)
        }
        if bands.count > EQKernel.maximumBands {
            let fromCurve = curveBandCount > 0 ? ", \(curveBandCount) of them from curve '\(curveName ?? "")'" : ""
            reader.log.error("an eq holds at most \(EQKernel.maximumBands) bands; this one has \(bands.count)\(fromCurve) "
                             + "(band \(EQKernel.maximumBands + 1) is here)", at: bands[EQKernel.maximumBands].location)
        }
        return (curveName, bands)
    }

    /// The valid `index` of a band table (1 … the curve's band count), or nil when absent or wrong (reported).
    private static func overriddenIndex(_ reader: TableReader, curve: String?, curveBandCount: Int, curveIsKnown: Bool) -> Int? {
        guard reader.table["index"] != nil else { return nil }
        let value = reader.number("index", in: 1...Float(EQKernel.maximumBands), default: .nan)
        guard !value.isNaN else { return nil }
        guard value == value.rounded() else {
            reader.log.error("'index' must be a whole number (a band of the curve), found \(NumberFormatting.plain(value))",
                             at: reader.valueLocation("index"))
            return nil
        }
        guard let curve else {
            if curveIsKnown {
                reader.log.error("'index' picks a band of the unit's curve to override, but this eq has no 'curve'; leave 'index' out to add a band",
                                 at: reader.keyLocation("index"))
            }
            return nil
        }
        let index = Int(value)
        guard index <= curveBandCount else {
            reader.log.error("'index' = \(index), but curve '\(curve)' has \(curveBandCount) bands (1 to \(curveBandCount)); "
                             + "leave 'index' out to add a band", at: reader.valueLocation("index"))
            return nil
        }
        return index
    }
}
