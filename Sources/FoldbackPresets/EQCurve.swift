// A factory EQ curve (a small TOML file of bands) and its validation. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import TOMLKit

/// A named set of EQ bands an `eq` unit can start from (`curve = "Vocal Booster"`).
///
/// A curve file holds a `[curve]` table with `name` and a one-line `description`, then one `[[band]]` table
/// per band with the keys of `[[strip.unit.band]]` (except `index`).
public struct EQCurve: Sendable {
    /// The name presets use, unique in the library (`"Vocal Booster"`).
    public var name: String
    /// One line saying what the curve is for.
    public var summary: String
    /// The bands, in file order: band n of the curve is `index = n` in a preset.
    public var bands: [EQBandSpec]
    /// The file the curve came from.
    public var path: String

    /// Creates a curve.
    public init(name: String, summary: String, bands: [EQBandSpec], path: String) {
        self.name = name
        self.summary = summary
        self.bands = bands
        self.path = path
    }

    /// The file name without directory or `.toml` (`vocal-booster`).
    public var fileStem: String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return file.hasSuffix(".toml") ? String(file.dropLast(5)) : file
    }

    /// Reads and validates the curve file at `path`.
    /// - Throws: ``PresetError`` with every problem, each at file:line:column.
    public static func load(path: String) throws(PresetError) -> EQCurve {
        try parse(PresetLoader.readFile(path), path: path)
    }

    /// Validates curve text; `path` names the file in diagnostics.
    public static func parse(_ text: String, path: String) throws(PresetError) -> EQCurve {
        let root = try TOMLDocument.parse(text, path: path)
        let log = DiagnosticLog()
        let reader = TableReader(table: root, path: .root, locator: SourceLocator(text: text, file: path), log: log, label: "the top level")
        reader.checkKeys(allowed: ["curve", "band"])
        let info = reader.subtable("curve", label: "[curve]")
        if info == nil, root["curve"] == nil {
            log.error("a curve file needs a [curve] table with 'name' and 'description'", at: reader.location)
        }
        info?.checkKeys(allowed: ["name", "description"])
        let name = info?.requiredString("name")
        if let name, name.trimmingSpaces.isEmpty { log.error("the curve's name is empty", at: info?.valueLocation("name") ?? reader.location) }
        let summary = info?.requiredString("description")
        var bands: [EQBandSpec] = []
        for bandReader in reader.tables("band", label: "[[band]]") ?? [] {
            bandReader.checkKeys(allowed: EQBandDecoder.keys)
            if let band = EQBandDecoder.decode(bandReader) {
                bands.append(EQBandSpec(band: band, origin: .curve, location: bandReader.location))
            }
        }
        if bands.count > EQKernel.maximumBands {
            log.error("a curve holds at most \(EQKernel.maximumBands) bands; this one has \(bands.count) (band \(EQKernel.maximumBands + 1) is here)",
                      at: bands[EQKernel.maximumBands].location)
        }
        guard !log.hasErrors, let name, let summary else { throw PresetError(diagnostics: log.sortedDiagnostics()) }
        return EQCurve(name: name, summary: summary, bands: bands, path: path)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
