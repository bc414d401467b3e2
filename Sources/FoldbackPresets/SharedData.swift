// Finds Foldback's shipped data (presets, factory curves): an installed share/foldback, or the repository's presets folder. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the files Foldback ships live: `share/foldback/…` beside an installed executable (`/usr/bin/foldback`
/// → `/usr/share/foldback`), or the repository's `presets/…` above a build folder, or under the current directory.
public enum SharedData {
    /// Where the shipped presets are looked for, in the order of ``searchedDirectories(repository:installed:)``.
    public static func presetDirectories() -> [String] {
        searchedDirectories(repository: "presets", installed: "share/foldback/presets")
    }

    /// The preset file a `foldback run NAME` means: `name` itself when it is a path (it has a `/`, ends in `.toml`
    /// or names a file that exists), else `NAME.toml` in the first of ``presetDirectories()`` holding one
    /// (`foldback run vocal-monitor`); nil when no shipped preset has that name.
    public static func presetPath(named name: String) -> String? {
        if name.contains("/") || name.hasSuffix(".toml") || access(name, F_OK) == 0 { return name }
        return presetDirectories().lazy.map { "\($0)/\(name).toml" }.first { access($0, R_OK) == 0 }
    }

    /// The names of the shipped presets (file names without `.toml`), sorted, from the first preset folder found.
    public static func presetNames() -> [String] {
        guard let folder = presetDirectories().first(where: isDirectory), let stream = opendir(folder) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".toml") { names.append(String(name.dropLast(5))) }
        }
        return names.sorted()
    }

    /// `repository` or `installed` in the executable's directory or any of its parents (an installed prefix, or
    /// the package root above `.build/release`); then `repository` under the current directory; then under the
    /// package this library was built from. Without duplicates.
    public static func searchedDirectories(repository: String, installed: String) -> [String] {
        var candidates: [String] = []
        if var directory = executableDirectory() {
            for _ in 0..<6 {
                candidates += [directory + "/" + repository, directory + "/" + installed]
                guard let parent = parentDirectory(directory) else { break }
                directory = parent
            }
        }
        candidates.append(repository)
        var source = #filePath
        for _ in 0..<3 { source = parentDirectory(source) ?? source }    // …/Sources/FoldbackPresets/this file → package root
        candidates.append(source + "/" + repository)
        var seen = Set<String>()
        return candidates.filter { seen.insert($0).inserted }
    }

    static func isDirectory(_ path: String) -> Bool {
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
