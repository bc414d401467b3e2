// A JACK client with no ports that copies, each cycle, what another client's port holds (say system:playback_1), as the driver reads it. Realtime: the process callback; setup and reading are non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
import CJack
public import FoldbackJACK

/// Hears a port as the server's driver does, without being downstream of whoever feeds it.
///
/// A recorder connected to a client's output runs after that client in the JACK graph: when that client's
/// cycle never ends, the recorder stops too and records nothing, while the driver (jack2, async mode) goes on
/// reading the stale output period every cycle. This client is connected to nothing: each cycle it reads the
/// buffer of the watched ports (an input port such as `system:playback_1` gives what is connected to it)
/// through `jack_port_get_buffer` and appends the cycle to preallocated memory, so a test can see what the
/// driver would play. jack2 gives any client the buffer of any port; PipeWire's libjack may not.
public final class JACKPortMonitor: @unchecked Sendable {
    private struct Context {
        var ports: UnsafeMutablePointer<OpaquePointer>
        var buffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
        var count: Int
        var capacity: Int
        /// Frames written; published to readers with a releasing store.
        var written: UnsafeAtomic<Int>
    }

    /// The client (`name`).
    public let client: JACKClient
    /// The watched port names, in channel order.
    public let portNames: [String]
    /// Frames each channel holds at most; the monitor stops when full.
    public let capacity: Int
    private let context: UnsafeMutablePointer<Context>
    private let events = JACKClientEvents()

    /// Opens the client, looks up `ports` (full names), preallocates `seconds` of audio per port and activates.
    public init(name: String, serverName: String?, ports: [String], seconds: Double) throws(JACKError) {
        client = try JACKClient(name: name, serverName: serverName)
        let capacity = Int((seconds * client.sampleRate).rounded(.up))
        guard !ports.isEmpty, capacity > 0, capacity <= 1 << 28 else {
            throw .invalidArgument("The monitor needs a port and 1 to 2^28 frames.")
        }
        var handles: [OpaquePointer] = []
        for port in ports {
            guard let handle = jack_port_by_name(client.handle, port) else {
                client.close()
                throw .invalidArgument("No JACK port '\(port)' to monitor.")
            }
            handles.append(handle)
        }
        portNames = ports
        self.capacity = capacity
        let table = UnsafeMutablePointer<OpaquePointer>.allocate(capacity: handles.count)
        table.initialize(from: handles, count: handles.count)
        let buffers = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: handles.count)
        for channel in 0..<handles.count {
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
            buffer.initialize(repeating: 0, count: capacity)
            (buffers + channel).initialize(to: buffer)
        }
        context = .allocate(capacity: 1)
        context.initialize(to: Context(ports: table, buffers: buffers, count: handles.count, capacity: capacity, written: .create(0)))
        try client.startProcessing(Self.process, context: context, events: events)
    }

    deinit {
        close()
        for channel in 0..<context.pointee.count { context.pointee.buffers[channel].deallocate() }
        context.pointee.buffers.deallocate()
        context.pointee.ports.deallocate()
        context.pointee.written.destroy()
        context.deinitialize(count: 1).deallocate()
    }

    /// Frames monitored so far (per channel).
    public var frameCount: Int { context.pointee.written.load(ordering: .acquiring) }

    /// Everything monitored so far: one array per watched port.
    public func samples() -> [[Float]] {
        let frames = frameCount
        return (0..<context.pointee.count).map { Array(UnsafeBufferPointer(start: context.pointee.buffers[$0], count: frames)) }
    }

    /// Closes the client (the callback stops). Safe to call twice.
    public func close() { client.close() }

    private static let process: @convention(c) (jack_nframes_t, UnsafeMutableRawPointer?) -> Int32 = { frames, arg in
        guard let context = arg?.assumingMemoryBound(to: Context.self) else { return 0 }
        let offset = context.pointee.written.load(ordering: .relaxed)
        let count = min(Int(frames), context.pointee.capacity - offset)
        guard count > 0 else { return 0 }
        copy(ports: context.pointee.ports, channels: context.pointee.count, frames: frames, into: context.pointee.buffers, at: offset, count: count)
        context.pointee.written.store(offset + count, ordering: .releasing)
        return 0
    }

    /// Copies the first `count` frames of each port's buffer this cycle (`frames` long) to `buffers[channel] + offset`,
    /// zeros for a port without one. Realtime (the recorder's and the monitor's process callbacks).
    static func copy(
        ports: UnsafeMutablePointer<OpaquePointer>, channels: Int, frames: jack_nframes_t,
        into buffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>, at offset: Int, count: Int
    ) {
        for channel in 0..<channels {
            let destination = buffers[channel] + offset
            if let raw = jack_port_get_buffer(ports[channel], frames) {
                destination.update(from: raw.assumingMemoryBound(to: Float.self), count: count)
            } else {
                destination.update(repeating: 0, count: count)
            }
        }
    }
}
