// Parses TOML text into a table, turning a syntax error into a located diagnostic. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import TOMLKit

/// TOML parsing shared by the file kinds Foldback reads: presets and factory curves.
enum TOMLDocument {
    /// The document's root table; a syntax error becomes a ``PresetError`` at the parser's position in `path`.
    /// Text the bundled parser would abort on is refused first (``TOMLInputGuard``), so no input ends the process.
    static func parse(_ text: String, path: String) throws(PresetError) -> TOMLTable {
        if let unsafe = TOMLInputGuard.firstUnsafePlace(in: text, path: path) {
            throw PresetError(diagnostics: [unsafe])
        }
        do {
            return try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let position = error.source.begin
            let location = SourceLocation(file: path, line: max(position.line, 1), column: max(position.column, 1))
            throw PresetError(diagnostics: [PresetDiagnostic(location: location, message: "TOML syntax error: \(error.description)")])
        } catch {
            let location = SourceLocation(file: path, line: 1, column: 1)
            throw PresetError(diagnostics: [PresetDiagnostic(location: location, message: "TOML syntax error: \(error)")])
        }
    }
}
