// A JACK client that records its input ports into preallocated buffers on request. Realtime: the process callback; setup and recording requests are non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
import CJack
public import FoldbackJACK
import Foundation

/// A recorder client with `in_1`…`in_M` input ports. ``record(frames:settleFrames:timeout:)`` arms it;
/// the process callback copies whole cycles into preallocated buffers, noting the frame time of the
/// first sample, and stops when full. A gap in frame times (a missed cycle) restarts the take, so a
/// finished recording is always contiguous.
public final class JACKTestRecorder: @unchecked Sendable {
    private enum Phase: Int { case idle = 0, armed = 1, done = 2 }

    private struct Context {
        var client: OpaquePointer
        var ports: UnsafeMutablePointer<OpaquePointer>
        var buffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
        var count: Int
        var capacity: Int
        var phase: UnsafeAtomic<Int>
        // Written by the owner before arming (published by the releasing store of `phase`).
        var target: Int
        var startAt: UInt32
        var restartsOnGap: Bool
        // Owned by the process callback while armed; read by the owner once `phase` is done.
        var written: Int
        var firstFrameTime: UInt32
        var nextFrameTime: UInt32
        /// Missed cycles recorded through (when not restarting on a gap).
        var gaps: Int
    }

    /// The client; its ``JACKClient/actualName`` prefixes the port names.
    public let client: JACKClient
    /// The input ports, in channel order.
    public let ports: [JACKPort]
    /// The longest take, in frames.
    public let capacity: Int
    private let context: UnsafeMutablePointer<Context>
    private let events = JACKClientEvents()
    private let recordLock = NSLock()

    /// Opens the client, registers `channels` input ports, preallocates `capacity` frames per channel and activates.
    public convenience init(
        name: String = "fb-recorder", serverName: String? = nil, channels: Int, capacity: Int
    ) throws(JACKError) {
        try self.init(name: name, serverName: serverName, channels: channels, capacityFrames: { _ in capacity })
    }

    /// Opens the client, registers `channels` input ports, preallocates `seconds` of audio at the
    /// server's sample rate and activates.
    public convenience init(
        name: String = "fb-recorder", serverName: String? = nil, channels: Int, seconds: Double
    ) throws(JACKError) {
        try self.init(name: name, serverName: serverName, channels: channels, capacityFrames: { sampleRate in
            seconds.isFinite ? Int((seconds * sampleRate).rounded(.up)) : 0
        })
    }

    private init(
        name: String, serverName: String?, channels: Int, capacityFrames: (_ sampleRate: Double) -> Int
    ) throws(JACKError) {
        client = try JACKClient(name: name, serverName: serverName)
        let capacity = capacityFrames(client.sampleRate)
        guard channels > 0, capacity > 0, capacity <= 1 << 30 else {
            throw .invalidArgument("The recorder needs at least one channel and a capacity of 1 to 2^30 frames.")
        }
        var registered: [JACKPort] = []
        for channel in 1...channels {
            registered.append(try client.registerAudioPort("in_\(channel)", direction: .input))
        }
        ports = registered
        self.capacity = capacity

        let portTable = UnsafeMutablePointer<OpaquePointer>.allocate(capacity: channels)
        portTable.initialize(from: registered.map(\.handle), count: channels)
        let buffers = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: channels)
        for channel in 0..<channels {
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
            buffer.initialize(repeating: 0, count: capacity)
            (buffers + channel).initialize(to: buffer)
        }
        context = .allocate(capacity: 1)
        context.initialize(to: Context(
            client: client.handle, ports: portTable, buffers: buffers, count: channels, capacity: capacity,
            phase: .create(Phase.idle.rawValue), target: 0, startAt: 0, restartsOnGap: true, written: 0,
            firstFrameTime: 0, nextFrameTime: 0, gaps: 0))

        try client.startProcessing(Self.process, context: context, events: events)
    }

    deinit {
        close()
        let shared = context.pointee
        for channel in 0..<shared.count { shared.buffers[channel].deallocate() }
        shared.buffers.deallocate()
        shared.ports.deallocate()
        shared.phase.destroy()
        context.deinitialize(count: 1).deallocate()
    }

    /// Xruns the server has reported to this client.
    public var xrunCount: Int { events.xrunCount }
    /// Set once the server shut down or dropped this client.
    public var shutdown: JACKShutdown? { events.shutdown }

    /// Connects the output port named `source` to input `channel`.
    public func connect(from source: String, toChannel channel: Int) -> JACKConnectionWarning? {
        client.connect(from: source, to: ports[channel].name)
    }

    /// Records `frames` frames, starting at the first cycle at least `settleFrames` after now.
    /// Waits on the callback's completion flag, polling every millisecond until `timeout` seconds pass.
    /// - Parameter requiresContinuity: when true (for sample-exact checks) a missed cycle restarts the take;
    ///   when false (a recording for people, like jack_rec) the take goes on and ``lastTakeGaps`` counts them.
    public func record(
        frames: Int, settleFrames: Int = 0, timeout: Double = 10, requiresContinuity: Bool = true
    ) throws(JACKError) -> JACKRecording {
        guard frames > 0, frames <= capacity else {
            throw .invalidArgument("Cannot record \(frames) frames: the recorder holds 1 to \(capacity).")
        }
        recordLock.lock()
        defer { recordLock.unlock() }
        context.pointee.target = frames
        context.pointee.written = 0
        context.pointee.startAt = client.frameTime &+ UInt32(clamping: max(0, settleFrames))
        context.pointee.restartsOnGap = requiresContinuity
        context.pointee.gaps = 0
        context.pointee.phase.store(Phase.armed.rawValue, ordering: .releasing)

        let deadline = Date().addingTimeInterval(timeout)
        while context.pointee.phase.load(ordering: .acquiring) != Phase.done.rawValue {
            if let shutdown = events.shutdown { throw .serverShutDown(reason: shutdown.reason) }
            guard Date() < deadline else {
                // Disarm. A cycle that already saw "armed" finishes within microseconds, long before
                // a caller could arm again, and only ever writes inside our own buffers.
                _ = context.pointee.phase.compareExchange(
                    expected: Phase.armed.rawValue, desired: Phase.idle.rawValue, ordering: .acquiringAndReleasing)
                throw .timedOut(what: "\(frames) recorded frames", seconds: timeout)
            }
            Thread.sleep(forTimeInterval: 0.001)
        }
        let shared = context.pointee
        let channels = (0..<shared.count).map { Array(UnsafeBufferPointer(start: shared.buffers[$0], count: frames)) }
        context.pointee.phase.store(Phase.idle.rawValue, ordering: .releasing)
        return JACKRecording(startFrameTime: shared.firstFrameTime, sampleRate: client.sampleRate, channels: channels)
    }

    /// Missed cycles the last take recorded through (0 for a take that required continuity).
    public var lastTakeGaps: Int {
        recordLock.withLock { context.pointee.gaps }
    }

    /// Closes the client. Safe to call twice.
    public func close() { client.close() }

    private static let process: @convention(c) (jack_nframes_t, UnsafeMutableRawPointer?) -> Int32 = { frames, arg in
        guard let context = arg?.assumingMemoryBound(to: Context.self),
              context.pointee.phase.load(ordering: .acquiring) == Phase.armed.rawValue
        else { return 0 }
        let start = jack_last_frame_time(context.pointee.client)
        if context.pointee.written == 0 {
            // Wait for the settle point (wrap-safe comparison of frame times).
            guard Int32(bitPattern: start &- context.pointee.startAt) >= 0 else { return 0 }
            context.pointee.firstFrameTime = start
        } else if start != context.pointee.nextFrameTime {
            if context.pointee.restartsOnGap {
                // A cycle went missing: start the take again from this one.
                context.pointee.written = 0
                context.pointee.firstFrameTime = start
            } else {
                context.pointee.gaps += 1
            }
        }
        context.pointee.nextFrameTime = start &+ frames
        let offset = context.pointee.written
        let count = min(Int(frames), context.pointee.target - offset)
        JACKPortMonitor.copy(ports: context.pointee.ports, channels: context.pointee.count, frames: frames,
                             into: context.pointee.buffers, at: offset, count: count)
        context.pointee.written = offset + count
        if context.pointee.written == context.pointee.target {
            _ = context.pointee.phase.compareExchange(
                expected: Phase.armed.rawValue, desired: Phase.done.rawValue, ordering: .acquiringAndReleasing)
        }
        return 0
    }
}
