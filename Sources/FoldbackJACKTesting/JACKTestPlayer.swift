// A JACK client that plays deterministic TestSignals, one per output port, keyed to absolute frame time. Realtime: the process callback; setup is non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CJack
public import FoldbackJACK

/// A player client: output port `i` plays `signals[i]`, sample `k` of a cycle being the signal at
/// frame time `jack_last_frame_time() + k`, so what was played at any frame time can be recomputed
/// exactly with ``expectedSample(channel:frameTime:)``. Active from construction until ``close()``.
public final class JACKTestPlayer: @unchecked Sendable {
    private struct Context {
        var client: OpaquePointer
        var ports: UnsafeMutablePointer<OpaquePointer>
        var signals: UnsafeMutablePointer<TestSignal>
        var count: Int
        var sampleRate: Double
    }

    /// The client; its ``JACKClient/actualName`` prefixes the port names.
    public let client: JACKClient
    /// The output ports, in channel order.
    public let ports: [JACKPort]
    /// What each port plays.
    public let signals: [TestSignal]
    /// The sample rate the signals are computed at (the server's when the player started), in hertz.
    public let sampleRate: Double
    private let context: UnsafeMutablePointer<Context>
    private let events = JACKClientEvents()

    /// Opens the client, registers `out_1`…`out_N` (or `portNames`) and activates.
    public init(
        name: String = "fb-player", serverName: String? = nil, signals: [TestSignal], portNames: [String]? = nil
    ) throws(JACKError) {
        let names = portNames ?? signals.indices.map { "out_\($0 + 1)" }
        guard names.count == signals.count, !signals.isEmpty else {
            throw .invalidArgument("The player needs one port name per signal and at least one signal.")
        }
        client = try JACKClient(name: name, serverName: serverName)
        var registered: [JACKPort] = []
        for portName in names {
            registered.append(try client.registerAudioPort(portName, direction: .output))
        }
        ports = registered
        self.signals = signals
        sampleRate = client.sampleRate

        let portTable = UnsafeMutablePointer<OpaquePointer>.allocate(capacity: registered.count)
        portTable.initialize(from: registered.map(\.handle), count: registered.count)
        let signalTable = UnsafeMutablePointer<TestSignal>.allocate(capacity: signals.count)
        signalTable.initialize(from: signals, count: signals.count)
        context = .allocate(capacity: 1)
        context.initialize(to: Context(
            client: client.handle, ports: portTable, signals: signalTable, count: signals.count, sampleRate: sampleRate))

        try client.startProcessing(Self.process, context: context, events: events)
    }

    deinit {
        close()
        context.pointee.ports.deinitialize(count: context.pointee.count).deallocate()
        context.pointee.signals.deinitialize(count: context.pointee.count).deallocate()
        context.deinitialize(count: 1).deallocate()
    }

    /// Xruns the server has reported to this client.
    public var xrunCount: Int { events.xrunCount }
    /// Set once the server shut down or dropped this client.
    public var shutdown: JACKShutdown? { events.shutdown }

    /// What channel `channel` played (or plays) at absolute frame time `frameTime`.
    public func expectedSample(channel: Int, frameTime: UInt32) -> Float {
        signals[channel].sample(at: frameTime, sampleRate: sampleRate)
    }

    /// Connects output `channel` to the input port named `destination`.
    public func connect(channel: Int, to destination: String) -> JACKConnectionWarning? {
        client.connect(from: ports[channel].name, to: destination)
    }

    /// Stops playing and closes the client. Safe to call twice.
    public func close() { client.close() }

    private static let process: @convention(c) (jack_nframes_t, UnsafeMutableRawPointer?) -> Int32 = { frames, arg in
        guard let context = arg?.assumingMemoryBound(to: Context.self) else { return 0 }
        let start = jack_last_frame_time(context.pointee.client)
        let sampleRate = context.pointee.sampleRate
        for channel in 0..<context.pointee.count {
            guard let raw = jack_port_get_buffer(context.pointee.ports[channel], frames) else { continue }
            context.pointee.signals[channel].fill(raw.assumingMemoryBound(to: Float.self), frames: Int(frames), from: start, sampleRate: sampleRate)
        }
        return 0
    }
}
