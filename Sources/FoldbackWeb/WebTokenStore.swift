// The web surface's tokens kept per show between runs, in the user's state folder (mode 0600), so musicians' bookmarks survive a restart. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackPresets
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a show's tokens live between runs: one file per show (its preset or setlist, by absolute path) in
/// `$XDG_STATE_HOME/foldback/tokens/` (else `~/.local/state/foldback/tokens/`), a folder of mode 0700 holding
/// files of mode 0600. A file is lines `engineer TOKEN` and `bus NAME TOKEN`; anything else in it is ignored,
/// and a token that is not well formed is replaced by a fresh one.
public struct WebTokenStore: Sendable {
    /// The file holding the tokens of the show at `showPath`.
    public let file: String

    /// The store of the show at `showPath` (made absolute) under `environment`'s state folder; nil when neither
    /// `XDG_STATE_HOME` nor `HOME` says where that is.
    public init?(showPath: String, environment given: [String: String]? = nil) {
        let environment = given ?? ProcessInfo.processInfo.environment
        let base: String
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = state
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = home + "/.local/state"
        } else {
            return nil
        }
        let absolute = URL(fileURLWithPath: showPath).standardizedFileURL.path
        file = base + "/foldback/tokens/" + Self.fileName(for: absolute)
    }

    /// `<file name>-<16 hex digits of the path's FNV-1a hash>.tokens`: readable, and distinct for two shows of the same name.
    static func fileName(for absolutePath: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in absolutePath.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let stem = URL(fileURLWithPath: absolutePath).deletingPathExtension().lastPathComponent
            .unicodeScalars.map { $0.isASCII && (Character($0).isLetter || Character($0).isNumber || "-_.".unicodeScalars.contains($0)) ? Character($0) : "_" }
        let digits = String(hash, radix: 16)
        return String(stem.prefix(40)) + "-" + String(repeating: "0", count: 16 - digits.count) + digits + ".tokens"
    }

    /// The tokens stored for this show: the engineer's (nil if none) and each bus's, by name; empty when there is no file.
    public func load() -> (engineer: String?, buses: [String: String]) {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return (nil, [:]) }
        var engineer: String?
        var buses: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if words.count == 2, words[0] == "engineer", WebAccess.isWellFormed(words[1]) { engineer = words[1] }
            if words.count == 3, words[0] == "bus", WebAccess.isWellFormed(words[2]) { buses[words[1]] = words[2] }
        }
        return (engineer, buses)
    }

    /// Writes `access`'s tokens (and `kept`, the stored tokens of buses this run does not have, so a song that
    /// leaves a bus out does not change its link), through a temporary file renamed over the old one.
    /// - Throws: ``WebTokenStoreError`` naming the file and the system's reason.
    public func save(_ access: WebAccess, keeping kept: [String: String] = [:]) throws(WebTokenStoreError) {
        let folder = (file as NSString).deletingLastPathComponent
        try makeFolder(folder)
        var lines = ["# Foldback's web tokens for one show; delete this file or run with --fresh-tokens for new ones.",
                     "engineer \(access.engineerToken)"]
        let current = Set(access.busTokens.map(\.bus))
        lines += access.busTokens.map { "bus \($0.bus) \($0.token)" }
        lines += kept.filter { !current.contains($0.key) }.sorted { $0.key < $1.key }.map { "bus \($0.key) \($0.value)" }
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        let temporary = file + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw WebTokenStoreError(file: file, reason: String(cString: strerror(errno))) }
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let code = errno
        let finished = written == bytes.count && fchmod(descriptor, 0o600) == 0 && fsync(descriptor) == 0
        close(descriptor)
        guard finished, rename(temporary, file) == 0 else {
            let reason = String(cString: strerror(finished ? errno : code))
            unlink(temporary)
            throw WebTokenStoreError(file: file, reason: reason)
        }
    }

    /// Creates `folder` and its parents, the last one mode 0700 (tokens are as good as passwords).
    private func makeFolder(_ folder: String) throws(WebTokenStoreError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw WebTokenStoreError(file: file, reason: "cannot create \(folder): \(error.localizedDescription)")
        }
    }
}

/// The tokens file could not be written.
public struct WebTokenStoreError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public let file: String
    /// The system's reason.
    public let reason: String

    public var description: String { "cannot keep the web tokens in \(file): \(reason)" }
}

extension WebAccess {
    /// The tokens a show starts with: the preset's fixed ones (`[web]`) first, then, unless `fresh`, those `stored`
    /// from its last run, then fresh ones for the rest; every token distinct.
    public static func remembered(
        buses: [String], fixed: WebSpec = WebSpec(), stored: (engineer: String?, buses: [String: String]), fresh: Bool
    ) -> WebAccess {
        guard !fresh else { return generated(buses: buses, fixed: fixed) }
        var spec = fixed
        var used = Set(fixed.busTokens.map(\.token) + [fixed.engineerToken].compactMap { $0 })
        if spec.engineerToken == nil, let token = stored.engineer, used.insert(token).inserted { spec.engineerToken = token }
        for bus in buses where spec.token(forBus: bus) == nil {
            if let token = stored.buses[bus], used.insert(token).inserted { spec.busTokens.append(WebSpec.BusToken(bus: bus, token: token)) }
        }
        return generated(buses: buses, fixed: spec)
    }
}
