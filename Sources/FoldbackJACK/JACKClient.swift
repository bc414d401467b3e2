// One open JACK client: opening, ports, pretty-name metadata, connections, activation, closing. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import CJack
import Foundation

/// A JACK client: the thin, typed layer every FoldbackJACK type builds on.
///
/// Opened with `JackNoStartServer`: it never starts a server behind the user's back
/// (``JACKServerLauncher`` does that on request). Close it with ``close()``; `deinit` closes it too.
public final class JACKClient: @unchecked Sendable {
    /// The libjack client; FoldbackJACK's own setup code uses it before activation, public API goes through `openHandle`.
    package let handle: OpaquePointer
    /// The name asked for.
    public let requestedName: String
    /// The name the server gave the client; differs from ``requestedName`` when that was taken.
    public let actualName: String
    /// The server this client is connected to, or `nil` for the default server.
    public let serverName: String?

    private let lock = NSLock()
    private var closed = false
    private var portsWithMetadata: Set<jack_uuid_t> = []

    /// The server name to use: `explicit` when given, else `$JACK_DEFAULT_SERVER`, else `nil` (the default server).
    public static func resolveServerName(_ explicit: String?) -> String? {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return nil
    }

    /// Opens a client on a running server.
    /// - Parameters:
    ///   - name: the client name to ask for; JACK appends `-01`, `-02`… when it is taken (see ``actualName``).
    ///   - serverName: the server to connect to; `nil` means `$JACK_DEFAULT_SERVER`, else the default server.
    /// - Throws: ``JACKError/serverNotRunning(serverName:)`` when no such server runs, or
    ///   ``JACKError/clientOpenFailed(clientName:serverName:reasons:)``.
    public init(name: String = "foldback", serverName: String? = nil) throws(JACKError) {
        guard !name.isEmpty, name.utf8.count < Int(jack_client_name_size()) else {
            throw .invalidArgument("JACK client name '\(name)' must be 1 to \(jack_client_name_size() - 1) bytes long.")
        }
        let server = JACKClient.resolveServerName(serverName)
        let opened = try Self.openUniquelyNamed(name, server: server)
        handle = opened
        requestedName = name
        actualName = String(cString: jack_get_client_name(opened))
        self.serverName = server
    }

    deinit { close() }

    /// Opens `name`, or `name-01`, `name-02`… when the server lets another client keep that name: PipeWire's
    /// libjack (0.3.x) gives a second `foldback` the name `foldback` too, and its ports then clash with the
    /// first one's; jackd renames it itself, so this loop never turns there.
    private static func openUniquelyNamed(_ name: String, server: String?) throws(JACKError) -> OpaquePointer {
        let stem = String(name.utf8.prefix(Int(jack_client_name_size()) - 4)) ?? name   // room for "-NN"
        var candidate = name
        var suffix = 0
        while true {
            var status = jack_status_t(rawValue: 0)
            guard let opened = JACKMessages.quietly({ fb_jack_client_open(candidate, JackNoStartServer, &status, server) }) else {
                throw JACKError.openFailure(status: status.rawValue, clientName: candidate, serverName: server)
            }
            suffix += 1
            guard suffix < 100, fb_jack_client_name_is_shared(opened) != 0 else { return opened }
            jack_client_close(opened)
            candidate = stem + (suffix < 10 ? "-0\(suffix)" : "-\(suffix)")
        }
    }

    /// The handle while open; every public call goes through it, so a closed client is inert, never a crash.
    /// The tempo in BPM of JACK transport's timebase master (its BBT position, rolling or stopped), or nil when
    /// no client is timebase master, it gives no BBT, or the client is closed. Any non-realtime thread.
    public var transportTempo: Double? {
        guard let handle = openHandle else { return nil }
        var position = jack_position_t()
        _ = jack_transport_query(handle, &position)
        guard position.valid.rawValue & JackPositionBBT.rawValue != 0, position.beats_per_minute.isFinite,
              position.beats_per_minute > 0 else { return nil }
        return position.beats_per_minute
    }

    private var openHandle: OpaquePointer? { lock.withLock { closed ? nil : handle } }

    /// Whether ``close()`` has been called.
    public var isClosed: Bool { openHandle == nil }
    /// The server's sample rate in hertz (0 once closed).
    public var sampleRate: Double { openHandle.map { Double(jack_get_sample_rate($0)) } ?? 0 }
    /// The server's period, frames per process cycle (0 once closed).
    public var bufferSize: Int { openHandle.map { Int(jack_get_buffer_size($0)) } ?? 0 }
    /// The server's DSP load, in percent of the cycle time (jack_cpu_load; 0 once closed).
    public var cpuLoad: Double { openHandle.map { Double(jack_cpu_load($0)) } ?? 0 }
    /// The server's current estimate of the frame time (jack_frame_time; 0 once closed).
    public var frameTime: UInt32 { openHandle.map { jack_frame_time($0) } ?? 0 }

    /// Asks the server to change its period; every client's buffer-size callback then runs.
    /// - Parameter frames: the new period, a power of two the backend supports.
    public func requestBufferSize(_ frames: Int) throws(JACKError) {
        guard let handle = openHandle else { throw .clientClosed(clientName: actualName) }
        guard frames > 0, let period = UInt32(exactly: frames), jack_set_buffer_size(handle, period) == 0 else {
            throw .invalidArgument("The JACK server refused a buffer size of \(frames) frames.")
        }
    }

    /// Registers an audio port, with an optional pretty name published as JACK metadata.
    public func registerAudioPort(
        _ shortName: String, direction: JACKPortDirection, prettyName: String? = nil
    ) throws(JACKError) -> JACKPort {
        guard let handle = openHandle else { throw .clientClosed(clientName: actualName) }
        let flags = direction == .input ? JackPortIsInput : JackPortIsOutput
        guard let port = jack_port_register(handle, shortName, JACK_DEFAULT_AUDIO_TYPE, UInt(flags.rawValue), 0) else {
            throw .portRegistrationFailed(port: "\(actualName):\(shortName)")
        }
        let registered = JACKPort(
            handle: port, name: String(cString: jack_port_name(port)), shortName: shortName, direction: direction)
        if let prettyName { setPrettyName(prettyName, of: registered) }
        return registered
    }

    /// Publishes `prettyName` under `http://jackaudio.org/metadata/pretty-name`; patchbays show it.
    public func setPrettyName(_ prettyName: String, of port: JACKPort) {
        guard let handle = openHandle else { return }
        let uuid = jack_port_uuid(port.handle)
        if jack_set_property(handle, uuid, Self.prettyNameKey, prettyName, "text/plain") == 0 {
            lock.withLock { _ = portsWithMetadata.insert(uuid) }
        }
    }

    /// Removes the port's metadata and unregisters it.
    public func unregister(_ port: JACKPort) {
        guard let handle = openHandle else { return }
        let uuid = jack_port_uuid(port.handle)
        if lock.withLock({ portsWithMetadata.remove(uuid) }) != nil {
            jack_remove_properties(handle, uuid)
        }
        jack_port_unregister(handle, port.handle)
    }

    /// Starts the process callback.
    public func activate() throws(JACKError) {
        guard let handle = openHandle else { throw .clientClosed(clientName: actualName) }
        let code = jack_activate(handle)
        guard code == 0 else { throw .activationFailed(clientName: actualName, code: code) }
    }

    /// Installs `process` (called with `context` on JACK's realtime thread).
    func setProcessCallback(
        _ process: @escaping @convention(c) (jack_nframes_t, UnsafeMutableRawPointer?) -> Int32,
        context: UnsafeMutableRawPointer
    ) throws(JACKError) {
        guard jack_set_process_callback(handle, process, context) == 0 else {
            throw .callbackRegistrationFailed(callback: "process")
        }
    }

    /// Installs `process` and `events`' callbacks, then activates: the test clients' whole start-up.
    package func startProcessing(
        _ process: @escaping @convention(c) (UInt32, UnsafeMutableRawPointer?) -> Int32,
        context: UnsafeMutableRawPointer, events: JACKClientEvents
    ) throws(JACKError) {
        try events.install(on: self)
        try setProcessCallback(process, context: context)
        try activate()
    }

    /// Stops the process callback; ports stay registered and connections are dropped by the server.
    public func deactivate() {
        if let handle = openHandle { jack_deactivate(handle) }
    }

    /// Removes this client's port metadata, unregisters its ports and closes it. Safe to call twice.
    ///
    /// The ports go before `jack_client_close`: libjack stops reading the client's notifications first, and
    /// jackd (1.9.21) blocks for good writing the notifications the close of a client with a few hundred
    /// ports sends it once its socket buffer (208 KiB) is full; unregistered one by one, they are read as they come.
    ///
    /// After the server has shut down (`afterServerShutdown`) only `jack_client_close` runs: libjack's
    /// metadata store is a Berkeley DB shared by every JACK client of the user, and touching it for a dead
    /// server's ports risks waiting forever on a lock the server left held.
    public func close(afterServerShutdown: Bool = false) {
        let uuids: Set<jack_uuid_t>? = lock.withLock {
            if closed { return nil }
            closed = true
            defer { portsWithMetadata.removeAll() }
            return portsWithMetadata
        }
        guard let uuids else { return }
        // Quiet: after a server shutdown libjack complains about every call, and nothing can be done.
        JACKMessages.quietly {
            guard !afterServerShutdown else {
                jack_client_close(handle)
                return
            }
            jack_deactivate(handle)
            for uuid in uuids { jack_remove_properties(handle, uuid) }
            for port in Self.takeNameList(jack_get_ports(handle, nil, nil, 0)) {
                if let registered = jack_port_by_name(handle, port), jack_port_is_mine(handle, registered) != 0 {
                    jack_port_unregister(handle, registered)
                }
            }
            jack_client_close(handle)
        }
    }

    /// Marks the client closed without a call into libjack: for leaving after the server has shut down, when
    /// `jack_client_close` can wait forever on a lock libjack's own threads held as the server went (jack2
    /// issue 395), which would leave a program deaf to Ctrl-C. The process's exit frees what the client held.
    public func abandon() {
        lock.withLock {
            closed = true
            portsWithMetadata.removeAll()
        }
    }

    /// Connects two ports by full name. Already connected counts as success.
    /// - Returns: `nil` on success, or a warning naming the missing or refused end.
    public func connect(from source: String, to destination: String) -> JACKConnectionWarning? {
        guard let handle = openHandle else {
            return JACKConnectionWarning(source: source, destination: destination, reason: "\(actualName) is closed")
        }
        for end in [source, destination] where jack_port_by_name(handle, end) == nil {
            return JACKConnectionWarning(source: source, destination: destination, reason: "no JACK port named '\(end)'")
        }
        let code = jack_connect(handle, source, destination)
        if code == 0 || code == EEXIST { return nil }
        return JACKConnectionWarning(
            source: source, destination: destination, reason: "the server refused (jack_connect returned \(code))")
    }

    /// Full names of the server's ports whose names match the regular expression `pattern` (all when `nil`);
    /// with `audioOnly`, audio ports only (no MIDI).
    public func portNames(matching pattern: String? = nil, direction: JACKPortDirection? = nil, audioOnly: Bool = false) -> [String] {
        let flags: UInt = switch direction {
        case .input: UInt(JackPortIsInput.rawValue)
        case .output: UInt(JackPortIsOutput.rawValue)
        case nil: 0
        }
        guard let handle = openHandle else { return [] }
        return Self.takeNameList(jack_get_ports(handle, pattern, audioOnly ? JACK_DEFAULT_AUDIO_TYPE : nil, flags))
    }

    /// Full names of the ports connected to the port named `fullName`.
    public func connections(ofPort fullName: String) -> [String] {
        guard let handle = openHandle, let port = jack_port_by_name(handle, fullName) else { return [] }
        return Self.takeNameList(jack_port_get_all_connections(handle, port))
    }

    /// Full names of the ports connected to `port`, one of this client's (no look-up by name).
    func connections(of port: JACKPort) -> [String] {
        guard let handle = openHandle else { return [] }
        return Self.takeNameList(jack_port_get_all_connections(handle, port.handle))
    }

    /// The latency range JACK holds for the port named `fullName`, in frames.
    public func latencyRange(ofPort fullName: String, mode: JACKLatencyMode) -> ClosedRange<Int>? {
        guard let handle = openHandle, let port = jack_port_by_name(handle, fullName) else { return nil }
        var range = jack_latency_range_t()
        jack_port_get_latency_range(port, mode.jackMode, &range)
        return Int(range.min)...Int(max(range.min, range.max))
    }

    /// The pretty name published for the port named `fullName`, read back from the server's metadata.
    public func prettyName(ofPort fullName: String) -> String? {
        guard let handle = openHandle, let port = jack_port_by_name(handle, fullName) else { return nil }
        var value: UnsafeMutablePointer<CChar>?
        var type: UnsafeMutablePointer<CChar>?
        guard jack_get_property(jack_port_uuid(port), Self.prettyNameKey, &value, &type) == 0, let value else {
            return nil
        }
        defer {
            jack_free(value)
            if let type { jack_free(type) }
        }
        return String(cString: value)
    }

    /// JACK_METADATA_PRETTY_NAME; spelled out because Swift 6 cannot read the mutable C global safely.
    static let prettyNameKey = "http://jackaudio.org/metadata/pretty-name"

    /// Copies and frees a NULL-terminated name list returned by libjack.
    private static func takeNameList(_ list: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> [String] {
        guard let list else { return [] }
        defer { jack_free(list) }
        var names: [String] = []
        var index = 0
        while let name = list[index] {
            names.append(String(cString: name))
            index += 1
        }
        return names
    }
}
