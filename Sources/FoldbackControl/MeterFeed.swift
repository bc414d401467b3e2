// Meter subscriptions: sends each subscriber peak/RMS/gain-reduction messages at its chosen rate, on its own thread. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackAnalysis
public import FoldbackEngine
import Foundation
import FoldbackDSP
import Synchronization

/// Sends meter readings to OSC subscribers, each at its own rate (1…60 Hz).
///
/// Per tick a subscriber receives, for each strip and bus, `/foldback/meters/strip/<name> ff` and
/// `/foldback/meters/bus/<name> ff` (peak and RMS in dBFS, floored at ``floorDB``), and for each unit that
/// publishes readings `/foldback/meters/unit/<strip>/<id>/<key> f` (e.g. `gain_reduction_db`, `expansion_db`).
/// With a loudness source, each bus also gets `/foldback/meters/loudness/<bus> ffff` (momentary, short-term
/// and integrated LUFS, true peak dBTP since the last reading) and each in-ear bus
/// `/foldback/meters/dose/<bus> ff` (ear dose so far and projected to the show's end, percent).
/// Feedback notches are also sent when they change, to every subscriber, as ``FeedbackNotchReport`` describes.
public final class MeterFeed: @unchecked Sendable {
    /// Rates a subscriber may ask for, Hz.
    public static let rateRange: ClosedRange<Float> = 1...60
    /// The rate when a subscription gives none, Hz.
    public static let defaultRate: Float = 10
    /// The most subscribers at once (the oldest is dropped beyond).
    public static let maximumSubscribers = 16
    /// Silence is reported as this level, dBFS.
    public static let floorDB: Float = -120

    public typealias Sender = @Sendable (_ message: OSCMessage, _ peer: OSCPeer) -> Void

    private struct Subscriber {
        var peer: OSCPeer
        var interval: Duration
        var due: ContinuousClock.Instant
    }

    private let engine: Engine
    private let loudness: (@Sendable () -> [BusLoudness])?
    private let send: Sender
    private let subscribers = Mutex<[Subscriber]>([])
    private let isStarted = Atomic<Bool>(false)
    private var worker: PeriodicWorker?                  // made by the first subscription
    private var notchReport = FeedbackNotchReport()      // the sending thread's only
    /// The analyser's subscriptions (`/foldback/analyser/subscribe`), when the feed was given an analyser.
    public let spectrum: SpectrumFeed?

    /// A feed of `engine`'s meters (and the bus loudness `loudness` returns, if given, and `analyser`'s
    /// frames to its own subscribers), sending through `send`.
    public init(engine: Engine, loudness: (@Sendable () -> [BusLoudness])? = nil, analyser: SpectrumMonitor? = nil, send: @escaping Sender) {
        self.engine = engine
        self.loudness = loudness
        self.send = send
        spectrum = analyser.map { SpectrumFeed(monitor: $0, send: send) }
    }

    deinit { stop() }

    /// Subscribes `peer` (or changes its rate) to `rate` Hz. Its first readings are due one interval later, so
    /// the router's `/foldback/meters/subscribed` reply reaches it before them.
    /// - Throws: ``ControlError/outOfRange(parameter:value:range:)`` for a rate outside ``rateRange``.
    public func subscribe(_ peer: OSCPeer, rate: Float) throws(ControlError) {
        guard Self.rateRange.contains(rate) else { throw .outOfRange(parameter: "meter rate (Hz)", value: rate, range: Self.rateRange) }
        let interval = Duration.nanoseconds(Int64((1e9 / Double(rate)).rounded()))
        subscribers.withLock { list in
            list.removeAll { $0.peer == peer }
            if list.count >= Self.maximumSubscribers { list.removeFirst() }
            list.append(Subscriber(peer: peer, interval: interval, due: .now + interval))
        }
        start()
        subscribers.withLock { _ in worker }?.wake()   // its schedule may be sooner than what the thread waits for
    }

    /// Ends `peer`'s subscription; returns whether it had one.
    @discardableResult
    public func unsubscribe(_ peer: OSCPeer) -> Bool {
        subscribers.withLock { list in
            let before = list.count
            list.removeAll { $0.peer == peer }
            return list.count != before
        }
    }

    /// How many peers are subscribed.
    public var subscriberCount: Int { subscribers.withLock { $0.count } }

    /// The messages of one meter tick.
    public static func messages(for snapshot: MeterSnapshot) -> [OSCMessage] {
        func level(_ linear: Float) -> OSCArgument {
            let decibels = Decibels.decibels(fromLinearGain: linear)
            return .float(decibels.isFinite ? max(decibels, floorDB) : floorDB)
        }
        var messages = snapshot.strips.map { OSCMessage("/foldback/meters/strip/\($0.name)", [level($0.reading.peak), level($0.reading.rms)]) }
        messages += snapshot.buses.map { OSCMessage("/foldback/meters/bus/\($0.name)", [level($0.reading.peak), level($0.reading.rms)]) }
        for unit in snapshot.units {
            for reading in unit.readings {
                messages.append(OSCMessage("/foldback/meters/unit/\(unit.strip)/\(unit.unit)/\(reading.key)", [.float(reading.value)]))
            }
        }
        return messages
    }

    /// The loudness messages of one tick.
    public static func messages(for loudness: [BusLoudness]) -> [OSCMessage] {
        func value(_ number: Double) -> OSCArgument { .float(number.isFinite ? max(Float(number), floorDB) : floorDB) }
        var messages: [OSCMessage] = []
        for bus in loudness {
            let reading = bus.reading
            messages.append(OSCMessage("/foldback/meters/loudness/\(bus.name)", [
                value(reading.momentaryLUFS), value(reading.shortTermLUFS), value(reading.integratedLUFS), value(reading.truePeakDBTP),
            ]))
            if let dose = bus.dosePercent, let projected = bus.projectedDosePercent {
                messages.append(OSCMessage("/foldback/meters/dose/\(bus.name)", [.float(Float(dose)), .float(Float(projected))]))
            }
        }
        return messages
    }

    /// Stops the sending thread. Safe to call twice.
    public func stop() {
        subscribers.withLock { _ in worker }?.stop()
    }

    private func start() {
        guard !isStarted.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let worker = PeriodicWorker(name: "fb-meters") { [self] in tick() }
        subscribers.withLock { _ in self.worker = worker }
        worker.start()
    }

    /// Sends what is due; returns when the next subscriber is (sleeping until a subscription wakes it when there is none).
    private func tick() -> PeriodicWorker.Next {
        let now = ContinuousClock.now
        let due: [OSCPeer] = subscribers.withLock { list in
            var peers: [OSCPeer] = []
            for index in list.indices where list[index].due <= now {
                peers.append(list[index].peer)
                // Keep the schedule (no drift), but never try to catch up on missed ticks.
                let next = list[index].due + list[index].interval
                list[index].due = next > now ? next : now + list[index].interval
            }
            return peers
        }
        if !due.isEmpty {
            let snapshot = engine.meters()
            let messages = Self.messages(for: snapshot) + Self.messages(for: loudness?() ?? [])
            for peer in due { for message in messages { send(message, peer) } }
            let notchChanges = notchReport.changes(in: snapshot)      // to every subscriber, once
            if !notchChanges.isEmpty {
                for peer in subscribers.withLock({ $0.map(\.peer) }) { for message in notchChanges { send(message, peer) } }
            }
        }
        guard let next = subscribers.withLock({ $0.map(\.due).min() }) else { return .whenWoken }
        return .after(max(.zero, next - ContinuousClock.now))
    }
}
