// Loads a preset file: reads it, parses the TOML, validates it into a Preset. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import FoldbackEngine
import TOMLKit

/// Reads preset files (TOML) into validated ``Preset`` models.
///
/// Every problem comes back in one ``PresetError``, each diagnostic naming `file:line:column`:
/// TOML syntax, unknown keys (with a suggested spelling), wrong types, out-of-range values,
/// duplicate names, sends to unknown buses, unknown plugins and their ports, and so on.
///
/// An `lv2` unit is checked against a ``PluginCatalog`` the caller passes; FoldbackGraph adds `load(path:)` and
/// `parse(_:path:)` that check against the installed LV2 plugins.
public enum PresetLoader {
    /// Reads and validates the preset file at `path`, its plugins looked up in `plugins`.
    /// - Throws: ``PresetError`` if the file cannot be read or the preset is invalid.
    public static func load(path: String, plugins: any PluginCatalog) throws(PresetError) -> Preset {
        try parse(readFile(path), path: path, plugins: plugins)
    }

    /// Validates preset text, its plugins looked up in `plugins`; `path` names the file in diagnostics.
    /// - Throws: ``PresetError`` listing every problem found.
    public static func parse(_ text: String, path: String, plugins: any PluginCatalog) throws(PresetError) -> Preset {
        let root = try TOMLDocument.parse(text, path: path)
        return try PresetDecoder.decode(root, locator: SourceLocator(text: text, file: path), plugins: plugins)
    }

    /// The file's text; a read failure becomes a diagnostic naming the path and the system's reason.
    static func readFile(_ path: String) throws(PresetError) -> String {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw unreadable(path, errno: errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw unreadable(path, errno: errno)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return try text(of: bytes, path: path)
    }

    /// A file's bytes as text; bytes that are not UTF-8 become a diagnostic naming `path`.
    /// - Throws: ``PresetError`` when the bytes are not valid UTF-8.
    public static func text(of bytes: [UInt8], path: String) throws(PresetError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let location = SourceLocation(file: path, line: 0, column: 0)
            throw PresetError(diagnostics: [PresetDiagnostic(location: location, message: "preset file is not valid UTF-8 text")])
        }
        return text
    }

    private static func unreadable(_ path: String, errno code: Int32) -> PresetError {
        let reason = String(cString: strerror(code))
        let location = SourceLocation(file: path, line: 0, column: 0)
        return PresetError(diagnostics: [PresetDiagnostic(location: location, message: "cannot read preset '\(path)': \(reason)")])
    }
}
