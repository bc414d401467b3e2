// Who listens to an X32 port: /xremote clients, /subscribe'd addresses and /meters requests, each for 10 s unless renewed. Non-realtime.
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

    /// A periodic request: an address's value (`/subscribe`) or a meter frame (`/meters`), every `interval` s.
    public struct Periodic: Sendable, Equatable {
        /// The address answered.
        public var address: String
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

    /// `/xremote` from `peer` at `now`; false when the table is full.
    @discardableResult
    public mutating func remote(_ peer: OSCPeer, now: Double) -> Bool {
        guard remotes[peer] != nil || clientCount < Self.clientLimit else { return false }
        remotes[peer] = now + Self.lifetime
        return true
    }

    /// A periodic request for `address` every `interval` s (replacing one for the same address); false when full.
    @discardableResult
    public mutating func request(_ peer: OSCPeer, address: String, interval: Double, now: Double) -> Bool {
        var list = periodic[peer] ?? []
        guard periodic[peer] != nil || clientCount < Self.clientLimit else { return false }
        list.removeAll { $0.address == address }
        guard list.count < Self.requestLimit else { return false }
        list.append(Periodic(address: address, interval: interval, expiry: now + Self.lifetime, due: now))
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

    /// `/unsubscribe` from `peer`: everything it had.
    public mutating func remove(_ peer: OSCPeer) {
        remotes[peer] = nil
        periodic[peer] = nil
    }

    /// Forgets what lapsed by `now`.
    public mutating func expire(now: Double) {
        remotes = remotes.filter { $0.value > now }
        periodic = periodic.compactMapValues { list in
            let alive = list.filter { $0.expiry > now }
            return alive.isEmpty ? nil : alive
        }
    }

    /// The periodic requests due at `now` (and marks them done until their next interval).
    public mutating func due(now: Double) -> [(peer: OSCPeer, address: String)] {
        var result: [(OSCPeer, String)] = []
        for (peer, list) in periodic {
            var list = list
            for index in list.indices where list[index].due <= now {
                result.append((peer, list[index].address))
                list[index].due = max(list[index].due + list[index].interval, now)
            }
            periodic[peer] = list
        }
        return result
    }

    /// Clients with any subscription.
    public var clientCount: Int { Set(remotes.keys).union(periodic.keys).count }
}
