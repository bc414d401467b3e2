// Who listens to an X32 port: /xremote clients, /subscribe'd addresses, /meters, /batchsubscribe and /formatsubscribe requests, each for 10 s unless renewed. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackControl

/// The clients an X32 port pushes to, and what each asked for. Every entry lapses 10 s after its last
/// request or renewal (`/xremote` again, `/renew`), as on the console; `/unsubscribe` ends a client's at once.
/// Owned by one thread (the port's).
public struct X32Subscriptions: Sendable {
    /// How long a subscription lasts without renewal, seconds.
    public static let lifetime = 10.0
    /// At most this many clients are served at once (a console serves a handful); more are refused.
    public static let clientLimit = 32
    /// At most this many `/subscribe` and `/meters` requests per client.
    public static let requestLimit = 64

    /// What a periodic request answers with.
    public enum Source: Sendable, Equatable {
        /// One address's value (`/subscribe`, or `/batchsubscribe` of an address).
        case value(String)
        /// A meter page's blob (`/meters`, `/batchsubscribe` of a page).
        case meter(String)
        /// These addresses' values packed into one blob (`/formatsubscribe`).
        case format([String])
    }

    /// A periodic request: an address's value, a meter frame or a packed set of values, every `interval` s.
    public struct Periodic: Sendable, Equatable {
        /// The address answered under (the subscribed address, the meter page, or the client's alias); `/renew` and
        /// `/unsubscribe` name it.
        public var address: String
        /// What is answered.
        public var source: Source
        /// Seconds between answers.
        public var interval: Double
        /// When it lapses, and when it is next due (seconds on the port's clock).
        var expiry: Double, due: Double
    }

    /// `/xremote` clients and when each lapses.
    public private(set) var remotes: [OSCPeer: Double] = [:]
    /// Periodic requests by client.
    public private(set) var periodic: [OSCPeer: [Periodic]] = [:]

    /// No one yet.
    public init() {}

    /// `/xremote` clients that also hear their own sets echoed back (an X-Air's `/xremote`; `/xremotenfb` and an
    /// X32's `/xremote` push to the others only).
    public private(set) var echoed: Set<OSCPeer> = []

    /// `/xremote` (or `/xremotenfb`) from `peer` at `now`, its own sets echoed back when `echo`; false when the table is full.
    @discardableResult
    public mutating func remote(_ peer: OSCPeer, now: Double, echo: Bool = false) -> Bool {
        guard remotes[peer] != nil || clientCount < Self.clientLimit else { return false }
        remotes[peer] = now + Self.lifetime
        if echo { echoed.insert(peer) } else { echoed.remove(peer) }
        return true
    }

    /// Who hears a set made by `sender`: every `/xremote` client but the sender, unless it asked for its echo.
    public func recipients(of sender: OSCPeer) -> [OSCPeer] {
        remotes.keys.filter { $0 != sender || echoed.contains($0) }
    }

    /// A periodic request answered under `address` with `source` (its value by default) every `interval` s,
    /// replacing one under the same address; false when full.
    @discardableResult
    public mutating func request(_ peer: OSCPeer, address: String, source: Source? = nil, interval: Double, now: Double) -> Bool {
        var list = periodic[peer] ?? []
        guard periodic[peer] != nil || clientCount < Self.clientLimit else { return false }
        list.removeAll { $0.address == address }
        guard list.count < Self.requestLimit else { return false }
        list.append(Periodic(address: address, source: source ?? .value(address), interval: interval, expiry: now + Self.lifetime, due: now))
        periodic[peer] = list
        return true
    }

    /// `/renew` from `peer`: its request for `address`, or all it has (and its `/xremote`) when nil.
    public mutating func renew(_ peer: OSCPeer, address: String?, now: Double) {
        if address == nil, remotes[peer] != nil { remotes[peer] = now + Self.lifetime }
        guard var list = periodic[peer] else { return }
        for index in list.indices where address == nil || list[index].address == address { list[index].expiry = now + Self.lifetime }
        periodic[peer] = list
    }

    /// `/unsubscribe` from `peer`: the periodic request answered under `address`, or everything it had when nil.
    public mutating func remove(_ peer: OSCPeer, address: String? = nil) {
        guard let address else {
            remotes[peer] = nil
            echoed.remove(peer)
            periodic[peer] = nil
            return
        }
        let rest = periodic[peer]?.filter { $0.address != address } ?? []
        periodic[peer] = rest.isEmpty ? nil : rest
    }

    /// Forgets what lapsed by `now`.
    public mutating func expire(now: Double) {
        remotes = remotes.filter { $0.value > now }
        echoed = echoed.filter { remotes[$0] != nil }
        periodic = periodic.compactMapValues { list in
            let alive = list.filter { $0.expiry > now }
            return alive.isEmpty ? nil : alive
        }
    }

    /// The periodic requests due at `now` (and marks them done until their next interval).
    public mutating func due(now: Double) -> [(peer: OSCPeer, request: Periodic)] {
        var result: [(OSCPeer, Periodic)] = []
        for (peer, list) in periodic {
            var list = list
            for index in list.indices where list[index].due <= now {
                result.append((peer, list[index]))
                list[index].due = max(list[index].due + list[index].interval, now)
            }
            periodic[peer] = list
        }
        return result
    }

    /// Clients with any subscription.
    public var clientCount: Int { Set(remotes.keys).union(periodic.keys).count }
}
