// Runs one input through every TOML loader Foldback has (preset, curve, setlist) and classifies the outcome. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackLV2
import FoldbackPresets

/// What the loaders made of one input, added up over a run.
struct LoaderTally: Sendable {
    /// Inputs (times loaders) that loaded.
    var loaded = 0
    /// Inputs (times loaders) refused with diagnostics.
    var refused = 0
    /// Inputs refused before parsing because they are not UTF-8 text.
    var notText = 0
    /// Refusals whose diagnostics do not name the file, or name no line for text (a bug: the user cannot find it).
    var unlocated: [String] = []
}

/// Feeds bytes to ``PresetLoader``, ``EQCurve`` and ``SetlistLoader`` the way `foldback check` and a
/// live reload would, and checks that every refusal is a located diagnostic.
enum LoaderProbe {
    /// The path the inputs are reported under; its folder does not exist, so relative files are never found.
    static let path = "/nonexistent-foldback-fuzz/case.toml"
    /// Where `lv2` units are looked up: the installed plugins, as `foldback check` does.
    static let plugins = LV2PluginCatalog()

    static func run(_ bytes: [UInt8], name: String, into tally: inout LoaderTally) {
        let text: String
        do {
            text = try PresetLoader.text(of: bytes, path: path)
        } catch {
            tally.notText += 1
            check(error, name: name, requireLine: false, into: &tally)
            return
        }
        attempt(name, into: &tally) { () throws(PresetError) in
            let preset = try PresetLoader.parse(text, path: path, plugins: plugins)
            _ = PresetReport.render(preset)
        }
        attempt(name, into: &tally) { () throws(PresetError) in _ = try EQCurve.parse(text, path: path) }
        attempt(name, into: &tally) { () throws(PresetError) in _ = try SetlistLoader.parse(text, path: path) }
    }

    private static func attempt(_ name: String, into tally: inout LoaderTally, _ body: () throws(PresetError) -> Void) {
        do {
            try body()
            tally.loaded += 1
        } catch {
            tally.refused += 1
            check(error, name: name, requireLine: true, into: &tally)
        }
    }

    private static func check(_ error: PresetError, name: String, requireLine: Bool, into tally: inout LoaderTally) {
        let located = !error.diagnostics.isEmpty && error.diagnostics.allSatisfy { diagnostic in
            diagnostic.location.file == path && (!requireLine || diagnostic.location.line >= 1 || Self.isWholeFile(diagnostic))
        }
        if !located, tally.unlocated.count < 20 {
            tally.unlocated.append("\(name): \(error.diagnostics.map(\.description))")
        }
    }

    /// Diagnostics about the file as a whole (it cannot be read) rightly carry no line.
    private static func isWholeFile(_ diagnostic: PresetDiagnostic) -> Bool {
        diagnostic.message.hasPrefix("cannot read") || diagnostic.message.contains("not valid UTF-8")
    }
}
