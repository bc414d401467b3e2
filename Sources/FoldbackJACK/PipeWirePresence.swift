// Whether a PipeWire daemon runs for this user, and the hint `foldback run` prints when it finds no JACK server but PipeWire. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import Foundation

/// A PipeWire daemon of this user, found by its socket or its process: most desktops run PipeWire, whose
/// JACK programs reach it through PipeWire's own libjack (`pw-jack PROGRAM`), not jackd's.
public struct PipeWirePresence: Sendable, Equatable {
    /// How it was found, for the message: "its socket /run/user/1000/pipewire-0" or "a pipewire process (pid 812)".
    public let evidence: String

    /// Looks for the daemon's socket, `$PIPEWIRE_RUNTIME_DIR` or `$XDG_RUNTIME_DIR` (else `/run/user/UID`) joined
    /// with `$PIPEWIRE_REMOTE` (else `pipewire-0`), then for a process named `pipewire` owned by this user.
    /// - Parameters:
    ///   - environment: the variables to read (the process's own by default).
    ///   - scansProcesses: whether to look through `/proc` when there is no socket.
    public static func detect(
        environment: [String: String] = ProcessInfo.processInfo.environment, scansProcesses: Bool = true
    ) -> PipeWirePresence? {
        let runtime = [environment["PIPEWIRE_RUNTIME_DIR"], environment["XDG_RUNTIME_DIR"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? "/run/user/\(getuid())"
        let remote = environment["PIPEWIRE_REMOTE"].flatMap { $0.isEmpty ? nil : $0 } ?? "pipewire-0"
        let socketPath = remote.hasPrefix("/") ? remote : "\(runtime)/\(remote)"
        var status = stat()
        if stat(socketPath, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK {
            return PipeWirePresence(evidence: "its socket \(socketPath)")
        }
        guard scansProcesses, let pid = daemonProcess() else { return nil }
        return PipeWirePresence(evidence: "a pipewire process (pid \(pid))")
    }

    /// Whether this process runs PipeWire's libjack (loaded from `…/pipewire-0.3/jack/`, as `pw-jack` arranges).
    public static var isLibjackPipeWires: Bool {
        // Read to the end: /proc files report a size of 0.
        let maps = FileHandle(forReadingAtPath: "/proc/self/maps").map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) }
        return maps?.contains("pipewire-0.3/jack/libjack.so") ?? false
    }

    /// What to tell the user after `error` stopped a JACK client from opening: `nil` unless no JACK server was
    /// found and a PipeWire daemon runs for this user. Then it names the daemon and the command that works,
    /// `arguments` (the command line as typed, `CommandLine.arguments` by default) run through `pw-jack`.
    public static func hint(
        after error: any Error, arguments: [String] = CommandLine.arguments,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        guard case .serverNotRunning(let server)? = error as? JACKError, let presence = detect(environment: environment) else {
            return nil
        }
        if isLibjackPipeWires {
            return "PipeWire runs for this user (\(presence.evidence)) and this foldback talks to it through PipeWire's libjack, "
                + "which takes a server name as a PipeWire remote: there is no remote named '\(server)'. "
                + "Leave out --server (and JACK_DEFAULT_SERVER) to use the default PipeWire daemon."
        }
        let command = (["pw-jack", displayName(ofProgram: arguments.first)] + arguments.dropFirst().map(shellQuoted))
            .joined(separator: " ")
        return "PipeWire runs for this user (\(presence.evidence)), but this foldback loaded jackd's libjack, which cannot reach it. "
            + "Run it through PipeWire's JACK instead (pw-jack comes with PipeWire's JACK support: "
            + "Debian/Ubuntu `pipewire-jack`, Fedora `pipewire-jack-audio-connection-kit`):\n    \(command)"
    }

    /// The program as typed, or `foldback` when it was found on PATH by a bare name.
    private static func displayName(ofProgram program: String?) -> String {
        guard let program, !program.isEmpty else { return "foldback" }
        return shellQuoted(program)
    }

    /// `word` as a shell would need it typed: unchanged when it holds only safe characters, else single-quoted.
    static func shellQuoted(_ word: String) -> String {
        let safe = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%")
        if !word.isEmpty && word.unicodeScalars.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The pid of a process named `pipewire` whose real user is this process's, if any.
    private static func daemonProcess() -> Int32? {
        let uid = getuid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry),
                  let comm = FileHandle(forReadingAtPath: "/proc/\(pid)/comm")?.readDataToEndOfFile(),
                  String(decoding: comm, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "pipewire",
                  let status = FileHandle(forReadingAtPath: "/proc/\(pid)/status")?.readDataToEndOfFile()
            else { continue }
            let uidLine = String(decoding: status, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("Uid:") }
            if let real = uidLine?.split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().first, UInt32(real) == uid {
                return pid
            }
        }
        return nil
    }
}
