// A JACK client with one MIDI output port that sends the messages a test queues. Realtime: the process callback; setup is non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
import CJack
public import FoldbackJACK
import Foundation
public import FoldbackEngine

/// A MIDI controller stand-in for tests and probes: ``send(_:)`` queues messages from one thread, and the
/// next process cycle writes them to the `midi_out` port at frame 0, in order.
public final class JACKTestMIDISender: @unchecked Sendable {
    private struct Context {
        var port: OpaquePointer
        var ring: MIDIEventRing
        var written: UnsafeAtomic<Int>
    }

    /// The client.
    public let client: JACKClient
    /// The MIDI output port.
    public let port: JACKPort
    private let context: UnsafeMutablePointer<Context>
    private let events = JACKClientEvents()
    private var queued = 0

    /// Opens the client, registers `midi_out` and activates.
    public init(name: String = "fb-midi-sender", serverName: String? = nil) throws(JACKError) {
        client = try JACKClient(name: name, serverName: serverName)
        port = try client.registerMIDIPort("midi_out", direction: .output)
        context = .allocate(capacity: 1)
        context.initialize(to: Context(port: port.handle, ring: MIDIEventRing(capacity: 1_024), written: .create(0)))
        try client.startProcessing(Self.process, context: context, events: events)
    }

    deinit {
        close()
        context.pointee.ring.destroy()
        context.pointee.written.destroy()
        context.deinitialize(count: 1).deallocate()
    }

    /// Connects `midi_out` to the MIDI input port named `destination`.
    public func connect(to destination: String) -> JACKConnectionWarning? {
        client.connect(from: port.name, to: destination)
    }

    /// Queues `messages` for the next cycle; false if the queue is full.
    @discardableResult
    public func send(_ messages: MIDIMessage...) -> Bool {
        for message in messages {
            guard context.pointee.ring.push(message) else { return false }
            queued += 1
        }
        return true
    }

    /// Whether every queued message has been written to the port (waits up to `timeout` seconds).
    public func waitUntilSent(timeout: Double = 5) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while context.pointee.written.load(ordering: .acquiring) < queued {
            guard ContinuousClock.now < deadline else { return false }
            usleep(1_000)
        }
        return true
    }

    /// Closes the client. Safe to call twice.
    public func close() { client.close() }

    private static let process: @convention(c) (jack_nframes_t, UnsafeMutableRawPointer?) -> Int32 = { frames, arg in
        guard let context = arg?.assumingMemoryBound(to: Context.self),
              let buffer = jack_port_get_buffer(context.pointee.port, frames) else { return 0 }
        jack_midi_clear_buffer(buffer)
        var written = 0
        while let message = context.pointee.ring.pop() {
            var bytes = (message.status, message.data1, message.data2)
            let length = message.length
            _ = withUnsafeBytes(of: &bytes) { raw in
                jack_midi_event_write(buffer, 0, raw.baseAddress?.assumingMemoryBound(to: jack_midi_data_t.self), length)
            }
            written += 1
        }
        if written > 0 { context.pointee.written.wrappingIncrement(by: written, ordering: .releasing) }
        return 0
    }
}
