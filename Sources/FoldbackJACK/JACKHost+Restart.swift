// JACKHost surviving a server restart: reopen the same client and ports, restore tracked connections. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CJack
import Foundation

extension JACKHost {
    /// How long after a shutdown notice the dead client is left alone before ``reopen()`` closes it.
    static let shutdownSettleSeconds = 0.5

    /// Every connection this client's ports had at the last ``maintainConnections()`` (or still to be restored).
    public var trackedConnections: Set<JACKConnection> { connectionTracker.connections }

    /// Connections waiting for their other end to appear on the restarted server.
    public var pendingConnections: Set<JACKConnection> { connectionTracker.pendingConnections }

    /// Connections someone undid while the server stayed up (a patchbay disconnect), forgotten since the
    /// last call: a server restart will not bring them back.
    public func takeForgottenConnections() -> [JACKConnection] { connectionTracker.takeForgotten() }

    /// Call every 100 ms or so from the owner's loop, never the audio thread: makes the pending
    /// connections whose other end now exists, then records what the server holds for this client's
    /// ports, including connections others made in a patchbay (after JACK announced a connection change, else once
    /// a second). Does nothing while the server is gone.
    /// - Returns: the connections restored by this call.
    @discardableResult
    public func maintainConnections() -> [JACKConnection] {
        let client = client
        guard shutdown == nil, !client.isClosed else { return [] }
        let (inputs, outputs) = lock.withLock { (inputPorts, outputPorts) }
        var ports = inputs.merging(outputs) { first, _ in first }
        if let midi = midiInputPort { ports[Self.midiInputPortName] = midi }
        let made = connectionTracker.pendingConnections.isEmpty ? [] : connectionTracker.restore(client: client, ports: ports)
        connectionTracker.snapshotIfChanged(client: client, ports: Array(ports.values), generation: notifications.connectionGeneration)
        return made
    }

    /// After a server shutdown (``shutdown`` set): closes the dead client, opens a new one with the
    /// same name on the same server, registers the same ports, activates, and restores every tracked
    /// connection whose other end exists (the rest stay pending for ``maintainConnections()``).
    /// The engine keeps its graph; a different sample rate reaches `onFormatChange` as usual.
    /// - Returns: the connections restored at once.
    /// - Throws: ``JACKError/serverNotRunning(serverName:)`` while the server is still away (try again
    ///   later), or another ``JACKError`` when the new client cannot be set up (the host stays closed).
    @discardableResult
    public func reopen() throws(JACKError) -> [JACKConnection] {
        let old = client
        // libjack's thread that reported the shutdown must have finished with the dead client before it is
        // closed: closing it at once could cancel that thread inside libjack and leave jack_client_close waiting
        // forever on a lock it held (jack2 issue 395; seen here as a run deaf to Ctrl-C). The server needs longer
        // than this to come back anyway.
        if let age = events.secondsSinceShutdown, age < Self.shutdownSettleSeconds, !old.isClosed {
            throw .serverNotRunning(serverName: old.serverName ?? "default")
        }
        old.close(afterServerShutdown: true)
        notifications.clientClosed()
        let fresh = try JACKClient(name: old.actualName, serverName: old.serverName)
        let hadMIDIInput = midiInputPort != nil
        midiInputPort = nil
        process.pointee.midi.port.store(nil, at: 0)
        lock.withLock {
            openClient = fresh
            inputPorts = [:]
            outputPorts = [:]
            isActive = false
        }
        events.rearm()
        connectionTracker.beginRestore()
        do {
            try installCallbacks()
            try updatePorts(for: layout)
            if hadMIDIInput { _ = try registerMIDIInput() }
            try activate()
        } catch {
            fresh.close()
            notifications.clientClosed()
            throw error
        }
        return maintainConnections()
    }
}
