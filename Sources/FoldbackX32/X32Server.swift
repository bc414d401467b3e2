// An X32 or X-Air port: a UDP socket on its own thread answering clients and pushing changes and meters every 20 ms. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackControl
import FoldbackEngine
import Foundation

/// Listens for X32 (or X-Air) OSC on one address and port and runs its ``X32Console`` on a thread of its own
/// (`fb-x32`, never the audio thread). The protocol has no authentication: bind 127.0.0.1 unless the network is trusted.
public final class X32Server: @unchecked Sendable {
    /// How often changes and periodic answers go out, seconds.
    static let tickInterval = 0.02
    /// How often refusals are summarised in the log, seconds.
    static let logInterval = 1.0

    private let socket: UDPSocket
    private let console: X32Console
    private let log: @Sendable (String) -> Void
    private var worker: PeriodicWorker?
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant
    private var lastTick = 0.0, lastLog = 0.0, loggedRefusals = 0

    /// Binds `host:port` (0 picks a free port) for `dialect`, answering for `target` through `router`. `log`
    /// hears refusals (summarised once a second). Call ``start()`` to begin.
    /// - Throws: ``ControlError/failed(_:)`` if the address cannot be bound.
    public init(
        dialect: X32Dialect, host: String, port: UInt16, target: any LiveControlTarget, router: ControlRouter,
        writableBuses: Set<String>? = nil, log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(ControlError) {
        socket = try UDPSocket(host: host, port: port)
        console = X32Console(dialect: dialect, target: target, router: router, address: host, writableBuses: writableBuses)
        self.log = log
        origin = clock.now
    }

    deinit { stop() }

    /// The bound address and port.
    public var local: OSCPeer { socket.local }

    /// The console answering (its port's thread owns it: read it only while the server is stopped, or in tests).
    public var dialect: X32Dialect { console.dialect }

    /// Starts the port's thread.
    public func start() {
        guard worker == nil else { return }
        let worker = PeriodicWorker(name: "fb-x32") { [self] in
            step()
            return .after(.zero)
        }
        self.worker = worker
        worker.start()
    }

    /// Stops the thread and waits for it. Safe to call twice.
    public func stop() {
        worker?.stop()
        worker = nil
    }

    private var now: Double {
        let elapsed = clock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// One pass: a packet (waiting at most until the next tick), then the tick when due, then the log.
    private func step() {
        let wait = max(0, lastTick + Self.tickInterval - now)
        if let (packet, sender) = socket.receive(timeout: wait) {
            if let message = try? OSCCodec.decode(packet) {
                send(console.receive(message, from: sender, now: now))
            } else {
                console.noteUnreadable(packet.count)
            }
        }
        let time = now
        if time - lastTick >= Self.tickInterval {
            lastTick = time
            send(console.tick(now: time))
        }
        if time - lastLog >= Self.logInterval, console.refusals != loggedRefusals {
            log("port refused \(console.refusals - loggedRefusals) message(s); last: \(console.lastRefusal)")
            loggedRefusals = console.refusals
            lastLog = time
        }
    }

    private func send(_ outgoing: [X32Console.Outgoing]) {
        for (message, peer) in outgoing {
            guard let packet = try? OSCCodec.encode(message) else { continue }
            socket.send(packet, to: peer)
        }
    }
}
