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
        var candidates: [String] = []
        if var directory = executableDirectory() {
            for _ in 0..<6 {
                candidates += [directory + "/presets/curves", directory + "/share/foldback/curves"]
                guard let parent = parentDirectory(directory) else { break }
                directory = parent
            }
        }
        candidates.append("presets/curves")
        var source = #filePath
        for _ in 0..<3 { source = parentDirectory(source) ?? source }    // …/Sources/FoldbackPresets/this file → package root
        candidates.append(source + "/presets/curves")
        var seen = Set<String>()
        return candidates.filter { seen.insert($0).inserted }
    }

    /// The first of ``searchedDirectories()`` that exists, or nil.
    public static func defaultDirectory() -> String? {
        searchedDirectories().first { isDirectory($0) }
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

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private static func parentDirectory(_ path: String) -> String? {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
        return String(path[..<slash])
    }

    /// The directory holding the running executable (Linux: /proc/self/exe; else argv[0]).
    private static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path: String
        if length > 0 {
            path = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        } else if let first = CommandLine.arguments.first, first.contains("/") {
            path = first
        } else {
            return nil
        }
        return parentDirectory(path)
    }
}
