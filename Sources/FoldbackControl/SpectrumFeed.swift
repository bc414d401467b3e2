// Analyser subscriptions over OSC: each subscriber gets every spectrum frame, sent from the analyser's worker. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackAnalysis
import Synchronization

/// Sends the analyser's frames to OSC subscribers (`/foldback/analyser/subscribe`), 20 a second while a
/// source is selected: `/foldback/analyser/peak s f f` (source, Hz, dBFS), `/foldback/analyser/bands s f…`
/// (the 31 ⅓-octave bands, dBFS), `/foldback/analyser/line s f…` and `/foldback/analyser/hold s f…` (240 points,
/// 20 Hz … 20 kHz on a log axis, dBFS). The analyser runs only while a page or a subscriber wants it.
public final class SpectrumFeed: Sendable {
    /// The most subscribers at once (the oldest is dropped beyond).
    public static let maximumSubscribers = 8

    private let monitor: SpectrumMonitor
    private let send: MeterFeed.Sender
    private let subscribers = Mutex<[OSCPeer]>([])

    /// A feed of `monitor`'s frames, sending through `send`.
    public init(monitor: SpectrumMonitor, send: @escaping MeterFeed.Sender) {
        self.monitor = monitor
        self.send = send
    }

    /// Subscribes `peer` (again: no change).
    public func subscribe(_ peer: OSCPeer) {
        subscribers.withLock { list in
            list.removeAll { $0 == peer }
            if list.count >= Self.maximumSubscribers { list.removeFirst() }
            list.append(peer)
        }
        update()
    }

    /// Ends `peer`'s subscription.
    public func unsubscribe(_ peer: OSCPeer) {
        subscribers.withLock { $0.removeAll { $0 == peer } }
        update()
    }

    /// How many peers are subscribed.
    public var subscriberCount: Int { subscribers.withLock { $0.count } }

    /// The messages of one frame.
    public static func messages(for frame: SpectrumFrame) -> [OSCMessage] {
        let source = OSCArgument.string(frame.source)
        return [
            OSCMessage("/foldback/analyser/peak", [source, .float(Float(frame.peakHz)), .float(frame.peakDB)]),
            OSCMessage("/foldback/analyser/bands", [source] + frame.bands.map { .float($0) }),
            OSCMessage("/foldback/analyser/line", [source] + frame.line.map { .float($0) }),
            OSCMessage("/foldback/analyser/hold", [source] + frame.hold.map { .float($0) }),
        ]
    }

    private func update() {
        let isWanted = subscribers.withLock { !$0.isEmpty }
        if isWanted {
            monitor.setListener("osc") { [weak self] frame in self?.deliver(frame) }
        } else {
            monitor.setListener("osc", nil)
        }
        monitor.setInterest("osc", isWanted)
    }

    private func deliver(_ frame: SpectrumFrame) {
        let peers = subscribers.withLock { $0 }
        let messages = Self.messages(for: frame)
        for peer in peers { for message in messages { send(message, peer) } }
    }
}
