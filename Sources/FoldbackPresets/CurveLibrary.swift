// The factory EQ curves: a directory of curve files, loaded and validated, looked up by name. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every curve in a curves directory (`presets/curves`), with the problems of any file that did not load.
///
/// Names match loosely: case, spaces and punctuation are ignored, and a file's stem works too, so
/// `"Vocal Booster"`, `"vocal booster"` and `"vocal-booster"` are the same curve.
public struct CurveLibrary: Sendable {
    /// The directory the curves came from.
    public var directory: String
    /// The curves that loaded, sorted by name.
    public var curves: [EQCurve]
    /// Every problem in the files that did not load, each at file:line:column.
    public var problems: [PresetDiagnostic]

    /// Creates a library from curves already loaded.
    public init(directory: String, curves: [EQCurve], problems: [PresetDiagnostic] = []) {
        self.directory = directory
        self.curves = curves.sorted { $0.name.lowercased() < $1.name.lowercased() }
        self.problems = problems
    }

    /// Loads every `*.toml` file in `directory`. A broken file is left out and its problems are listed in
    /// ``problems``; two files with the same curve name are a problem too.
    /// - Throws: ``PresetError`` if the directory cannot be read.
    public static func load(directory: String) throws(PresetError) -> CurveLibrary {
        var curves: [EQCurve] = []
        var problems: [PresetDiagnostic] = []
        var names: [String: String] = [:]
        for file in try curveFiles(in: directory) {
            let path = directory.hasSuffix("/") ? directory + file : directory + "/" + file
            do {
                let curve = try EQCurve.load(path: path)
                if let first = names[key(curve.name)] {
                    problems.append(PresetDiagnostic(
                        location: SourceLocation(file: path, line: 0, column: 0),
                        message: "curve name '\(curve.name)' is already used by \(first)"))
                    continue
                }
                names[key(curve.name)] = path
                curves.append(curve)
            } catch {
                problems += error.diagnostics
            }
        }
        return CurveLibrary(directory: directory, curves: curves, problems: problems)
    }

    /// The curve called `name` (or whose file is `name`), ignoring case, spaces and punctuation.
    public func curve(named name: String) -> EQCurve? {
        let wanted = Self.key(name)
        return curves.first { Self.key($0.name) == wanted } ?? curves.first { Self.key($0.fileStem) == wanted }
    }

    /// Why `name` is not a curve, with the likeliest names: `unknown curve 'Vocal Boster'; did you mean
    /// 'Vocal Booster'?` or the three closest names.
    public func unknownCurveMessage(_ name: String) -> String {
        var message = "unknown curve '\(name)'"
        let names = curves.map(\.name)
        if let match = Suggestion.closest(to: name, in: names) {
            message += "; did you mean '\(match)'?"
        } else if !names.isEmpty {
            let typed = Array(name.lowercased().unicodeScalars)
            let ranked = names.map { ($0, Suggestion.editDistance(typed, Array($0.lowercased().unicodeScalars))) }
                .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
            message += "; the closest are " + ranked.prefix(3).map { "'\($0.0)'" }.joined(separator: ", ")
        }
        if !problems.isEmpty { message += " (some curve files did not load; 'foldback curves' says why)" }
        return message
    }

    /// The lookup key of a name: lower-case letters and digits only.
    static func key(_ name: String) -> String {
        String(String.UnicodeScalarView(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }))
    }

    /// The `.toml` file names in `directory`, sorted.
    private static func curveFiles(in directory: String) throws(PresetError) -> [String] {
        guard let handle = opendir(directory) else {
            let reason = String(cString: strerror(errno))
            throw PresetError(diagnostics: [PresetDiagnostic(
                location: SourceLocation(file: directory, line: 0, column: 0), message: "cannot read the curves directory: \(reason)")])
        }
        defer { closedir(handle) }
        var files: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name.hasSuffix(".toml") && !name.hasPrefix(".") { files.append(name) }
        }
        return files.sorted()
    }
}
