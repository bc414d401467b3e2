// JACKHost's non-realtime JACK callbacks: buffer-size and sample-rate changes, latency reporting, connections made and broken. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CJack
import Foundation

/// The state JACK's notification-thread callbacks read, kept apart from ``JACKHost`` and retained on
/// JACK's behalf until the client is closed, so a late callback can never touch a freed host.
final class JACKHostNotifications: @unchecked Sendable {
    private let lock = NSLock()
    private var reportedFormat: (sampleRate: Double, bufferSize: Int)
    private var latencyPaths = JACKLatencyPaths()
    private let onFormatChange: JACKHost.FormatChangeHandler?
    private var retained: Unmanaged<JACKHostNotifications>?
    private var clientHandle: OpaquePointer?
    /// Told at once of each new connection of this client's ports, so one made just before a server dies
    /// is not missed between two polls.
    var tracker: JACKConnectionTracker?
    /// Called after any connection in the server's graph is made or broken (guarded by `lock`).
    private var connectionObserver: (@Sendable () -> Void)?
    /// Connections made or broken anywhere in the server's graph since the client opened (guarded by `lock`).
    private var connectionChanges = 0

    init(sampleRate: Double, bufferSize: Int, onFormatChange: JACKHost.FormatChangeHandler?) {
        reportedFormat = (sampleRate, bufferSize)
        self.onFormatChange = onFormatChange
    }

    /// Registers the buffer-size, sample-rate and latency callbacks on `client` (not yet active).
    /// JACK2 runs them on its notification thread, never the process thread.
    func install(on client: JACKClient) throws(JACKError) {
        let retained = Unmanaged.passRetained(self)
        lock.withLock { self.retained = retained }
        let arg = retained.toOpaque()
        guard jack_set_buffer_size_callback(client.handle, Self.onBufferSize, arg) == 0 else {
            throw .callbackRegistrationFailed(callback: "buffer-size")
        }
        guard jack_set_sample_rate_callback(client.handle, Self.onSampleRate, arg) == 0 else {
            throw .callbackRegistrationFailed(callback: "sample-rate")
        }
        guard jack_set_latency_callback(client.handle, Self.onLatency, arg) == 0 else {
            throw .callbackRegistrationFailed(callback: "latency")
        }
        guard jack_set_port_connect_callback(client.handle, Self.onConnect, arg) == 0 else {
            throw .callbackRegistrationFailed(callback: "port-connect")
        }
        lock.withLock { clientHandle = client.handle }
    }

    /// Drops the reference held for JACK; call once the client is closed.
    func clientClosed() {
        lock.withLock {
            defer { (retained, clientHandle) = (nil, nil) }
            return retained
        }?.release()
    }

    /// The ports and per-path latencies the latency callback reports from now on.
    /// - Returns: whether they changed (then ask JACK to recompute).
    func update(latencyPaths: JACKLatencyPaths) -> Bool {
        lock.withLock {
            defer { self.latencyPaths = latencyPaths }
            return latencyPaths != self.latencyPaths
        }
    }

    /// How many connections were made or broken anywhere in the server's graph so far (JACK's port-connect notifications).
    var connectionGeneration: Int { lock.withLock { connectionChanges } }

    /// Calls `observer` on JACK's notification thread after each connection made or broken anywhere (nil: none).
    func observeConnections(_ observer: (@Sendable () -> Void)?) { lock.withLock { connectionObserver = observer } }

    /// Calls the owner's handler once per actual change (JACK also calls these on activation).
    private func formatChanged(sampleRate: Double? = nil, bufferSize: Int? = nil) {
        let changed: (Double, Int)? = lock.withLock {
            let next = (sampleRate ?? reportedFormat.sampleRate, bufferSize ?? reportedFormat.bufferSize)
            guard next != reportedFormat else { return nil }
            reportedFormat = next
            return next
        }
        if let changed, let onFormatChange { onFormatChange(changed.0, changed.1) }
    }

    /// Reports per-port latency ranges (see ``JACKLatencyPaths``).
    private func reportLatency(_ mode: jack_latency_callback_mode_t) {
        lock.withLock { latencyPaths }.report(mode)
    }

    /// A connection was made somewhere in the graph: one between a port of this client and another
    /// client's goes to the tracker.
    private func connected(_ first: jack_port_id_t, _ second: jack_port_id_t) {
        guard let tracker, let handle = lock.withLock({ clientHandle }),
              let a = jack_port_by_id(handle, first), let b = jack_port_by_id(handle, second) else { return }
        let (isMineA, isMineB) = (jack_port_is_mine(handle, a) != 0, jack_port_is_mine(handle, b) != 0)
        guard isMineA != isMineB else { return }
        let (own, peer) = isMineA ? (a, b) : (b, a)
        guard let shortName = jack_port_short_name(own), let peerName = jack_port_name(peer) else { return }
        tracker.noteConnected(JACKConnection(port: String(cString: shortName), peer: String(cString: peerName)))
    }

    private static func from(_ arg: UnsafeMutableRawPointer?) -> JACKHostNotifications? {
        arg.map { Unmanaged<JACKHostNotifications>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let onBufferSize: @convention(c) (jack_nframes_t, UnsafeMutableRawPointer?) -> Int32 = { frames, arg in
        from(arg)?.formatChanged(bufferSize: Int(frames))
        return 0
    }

    private static let onSampleRate: @convention(c) (jack_nframes_t, UnsafeMutableRawPointer?) -> Int32 = { rate, arg in
        from(arg)?.formatChanged(sampleRate: Double(rate))
        return 0
    }

    private static let onLatency: @convention(c) (jack_latency_callback_mode_t, UnsafeMutableRawPointer?) -> Void = {
        mode, arg in
        from(arg)?.reportLatency(mode)
    }

    private static let onConnect: @convention(c) (jack_port_id_t, jack_port_id_t, Int32, UnsafeMutableRawPointer?) -> Void = {
        first, second, isConnect, arg in
        guard let notifications = from(arg) else { return }
        if isConnect != 0 { notifications.connected(first, second) }
        notifications.lock.withLock {
            notifications.connectionChanges &+= 1
            return notifications.connectionObserver
        }?()
    }
}
