// Which files a control surface (OSC, later the web) may read or write: `.toml` files in allowed folders. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// The rule for file paths that arrive in control requests (`/foldback/preset/load`, `…/preset/save`,
/// `…/midi/save`): only a `.toml` file directly in an allowed folder, after every symlink is resolved.
///
/// Allowed folders are the running preset's folder (given to each ``resolve(_:presetPath:)``), plus
/// ``folders``: the setlist's folder and `foldback run --allow-dir` folders. Subfolders are not included,
/// so a preset in a home folder does not expose `~/.config`. A relative path is taken relative to the
/// running preset's folder. Everything is checked on the real path (`realpath`): for a file that exists, the
/// file's; for one that does not exist yet, its folder's. Anything else is refused with
/// ``ControlError/fileRefused(_:)`` before a byte is read or written.
public struct FilePathPolicy: Sendable, Equatable {
    /// The longest path accepted, in UTF-8 bytes.
    public static let maxPathBytes = 1024
    /// The only file-name ending accepted.
    public static let fileExtension = ".toml"

    /// The allowed folders besides the running preset's, as real paths.
    public private(set) var folders: [String]

    /// A policy allowing the running preset's folder only.
    public init() {
        folders = []
    }

    /// A policy allowing, besides the running preset's folder, each of `folders`.
    /// - Throws: ``ControlError/fileRefused(_:)`` naming a folder that does not exist or is not a folder.
    public init(folders: [String]) throws(ControlError) {
        self.folders = []
        for folder in folders {
            guard let real = Self.realPath(folder), Self.isFolder(real) else {
                throw .fileRefused("'\(folder)' is not an existing folder")
            }
            if !self.folders.contains(real) { self.folders.append(real) }
        }
    }

    /// This policy also allowing the folder holding `file` (a setlist's folder); one that no longer
    /// resolves adds nothing.
    public func including(folderOf file: String) -> FilePathPolicy {
        var policy = self
        if let real = Self.realPath(Self.folder(of: file)), !policy.folders.contains(real) { policy.folders.append(real) }
        return policy
    }

    /// The real path of the file `path` names, if the rule allows it: a relative `path` is taken
    /// relative to the folder of `presetPath` (the running preset), which is allowed too.
    /// - Throws: ``ControlError/fileRefused(_:)`` saying why (empty, too long, a NUL byte, not `.toml`,
    ///   no such folder, or outside the allowed folders, which it lists).
    public func resolve(_ path: String, presetPath: String) throws(ControlError) -> String {
        guard !path.isEmpty else { throw .fileRefused("empty file path") }
        guard !path.utf8.contains(0) else { throw .fileRefused("the file path contains a NUL byte") }
        guard path.utf8.count <= Self.maxPathBytes else {
            throw .fileRefused("the file path is longer than \(Self.maxPathBytes) bytes")
        }
        let presetFolder = Self.folder(of: presetPath)
        let full = path.hasPrefix("/") ? path : presetFolder + "/" + path
        let name = Self.name(of: full)
        guard Self.isTOMLName(name) else { throw .fileRefused("\(Self.quoted(path)) is not a \(Self.fileExtension) file") }
        guard let parent = Self.realPath(Self.folder(of: full)) else {
            throw .fileRefused("\(Self.quoted(path)): its folder does not exist")
        }
        var file = (parent == "/" ? "" : parent) + "/" + name
        if Self.exists(file) {
            guard let real = Self.realPath(file) else { throw .fileRefused("\(Self.quoted(path)) is a symlink to nothing") }
            guard Self.isTOMLName(Self.name(of: real)), Self.isRegularFile(real) else {
                throw .fileRefused("\(Self.quoted(path)) leads to \(Self.quoted(real)), not a \(Self.fileExtension) file")
            }
            file = real
        }
        let allowed = (Self.realPath(presetFolder).map { [$0] } ?? []) + folders
        guard allowed.contains(Self.folder(of: file)) else {
            throw .fileRefused("\(Self.quoted(path)) is outside the folders control requests may use (\(allowed.joined(separator: ", "))); "
                + "only \(Self.fileExtension) files directly in the preset's folder, the setlist's folder or a "
                + "'foldback run --allow-dir' folder")
        }
        return file
    }

    /// The folder part of `path` ("." for a bare name, "/" for a file at the root).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` in quotes for replies and the log, control characters escaped (a request must not be able
    /// to drive the console's terminal).
    static func quoted(_ path: String) -> String {
        let escaped = path.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
        }
        return "'" + escaped.joined() + "'"
    }

    private static func name(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    private static func isTOMLName(_ name: String) -> Bool {
        name.hasSuffix(fileExtension) && name.utf8.count > fileExtension.utf8.count
    }

    /// `path` with every symlink, `.` and `..` resolved; nil if some part of it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether anything (a dangling symlink too) is at `path`.
    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private static func isFolder(_ path: String) -> Bool { fileType(path) == S_IFDIR }

    private static func isRegularFile(_ path: String) -> Bool { fileType(path) == S_IFREG }

    private static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }
}
