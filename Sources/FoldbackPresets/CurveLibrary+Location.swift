// Finds the factory curves directory (environment, next to the executable, the repository) and loads it once. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CurveLibrary {
    /// The environment variable that names the curves directory, overriding the search.
    public static let directoryVariable = "FOLDBACK_CURVES_DIR"

    /// Where the curves are looked for, in order: `$FOLDBACK_CURVES_DIR` alone if it is set; else
    /// `presets/curves` or `share/foldback/curves` in the executable's directory or any of its parents (an
    /// installed prefix, or the package root above `.build/debug`); then `presets/curves` under the current
    /// directory; then under the package this library was built from.
    public static func searchedDirectories() -> [String] {
        if let override = getenv(directoryVariable).map({ String(cString: $0) }), !override.isEmpty { return [override] }
        return SharedData.searchedDirectories(repository: "presets/curves", installed: "share/foldback/curves")
    }

    /// The first of ``searchedDirectories()`` that exists, or nil.
    public static func defaultDirectory() -> String? {
        searchedDirectories().first { SharedData.isDirectory($0) }
    }

    /// Loads the curves from ``defaultDirectory()``.
    /// - Throws: ``PresetError`` saying where it looked when there is no curves directory, or why it cannot be read.
    public static func loadDefault() throws(PresetError) -> CurveLibrary {
        guard let directory = defaultDirectory() else {
            let looked = searchedDirectories().joined(separator: ", ")
            throw PresetError(diagnostics: [PresetDiagnostic(
                location: SourceLocation(file: searchedDirectories().first ?? "presets/curves", line: 0, column: 0),
                message: "no factory curves directory found (looked in \(looked)); set \(directoryVariable) to the presets/curves directory")])
        }
        return try load(directory: directory)
    }

    /// The library presets' `curve = "…"` keys resolve against: ``loadDefault()``, once per process.
    static let standard: Result<CurveLibrary, PresetError> = Result { () throws(PresetError) in try loadDefault() }
}
