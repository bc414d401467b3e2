// `--start-server net`'s settings (master, port, latency, name) and the netjack2 slave a preset needs. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackJACK
package import FoldbackPresets

/// The JACK server `--start-server` starts: the dummy driver, or a netjack2 slave of a stage box.
package enum PrivateServerDriver: String, Sendable, CaseIterable {
    /// `jackd -d dummy`: no sound card, the clock from a timer.
    case dummy
    /// `jackd -d net`: a netjack2 slave; the master (`--master`) owns the clock, rate and period.
    case net
}

/// How to reach the netjack2 master with a private slave (`--master`, `--net-port`, `--net-latency`, `--net-name`).
package struct NetSlaveSettings: Sendable {
    /// The master's address (`--master`): its multicast group, or an address such as 127.0.0.1.
    package var masterAddress: String?
    /// The master's UDP port (`--net-port`).
    package var port = JACKNetSlave.defaultPort
    /// Network latency, cycles (`--net-latency`).
    package var latencyCycles = JACKNetSlave.defaultLatencyCycles
    /// The slave's client name on the master (`--net-name`; nil: the JACK client name).
    package var name: String?

    package init() {}

    /// Why these settings cannot start a slave with `driver`, or nil.
    package func problem(driver: PrivateServerDriver?) -> ShowError? {
        guard driver == .net else {
            return masterAddress == nil ? nil : .usage("--master needs --start-server net (it names the netjack2 master a private slave joins)")
        }
        guard let masterAddress, !masterAddress.isEmpty else {
            return .usage("--start-server net needs --master ADDR: the stage box's address, or its multicast group \(JACKNetSlave.defaultMulticastAddress)")
        }
        guard JACKNetSlave.latencyCycleRange.contains(latencyCycles) else {
            return .usage("--net-latency must be between \(JACKNetSlave.latencyCycleRange.lowerBound) and \(JACKNetSlave.latencyCycleRange.upperBound) cycles (got \(latencyCycles))")
        }
        guard (1...65535).contains(port) else { return .usage("--net-port must be between 1 and 65535 (got \(port))") }
        if let name, name.isEmpty { return .usage("--net-name must not be empty") }
        return nil
    }

    /// The slave for `preset`: one capture channel per strip input channel and one playback channel per bus
    /// output channel, more if its `connect` lists name a higher `system:capture_N` / `system:playback_N`.
    package func slave(for preset: Preset?, clientName: String) -> JACKNetSlave {
        let strips = preset?.strips.filter(\.hasInputPorts) ?? []
        let buses = preset?.buses.filter(\.hasOutput) ?? []
        let peers = strips.flatMap { $0.connections.joined() } + buses.flatMap { $0.connections.joined() }
        let capture = max(strips.reduce(0) { $0 + $1.channels }, Self.highest("system:capture_", in: peers), 1)
        let playback = max(buses.reduce(0) { $0 + $1.channels }, Self.highest("system:playback_", in: peers), 1)
        return JACKNetSlave(
            masterAddress: masterAddress ?? JACKNetSlave.defaultMulticastAddress, port: port, latencyCycles: latencyCycles,
            name: name ?? clientName, captureChannels: capture, playbackChannels: playback)
    }

    /// The highest N of the `prefix` N ports in `peers`, or 0.
    private static func highest(_ prefix: String, in peers: [String]) -> Int {
        peers.compactMap { $0.hasPrefix(prefix) ? Int($0.dropFirst(prefix.count)) : nil }.max() ?? 0
    }
}
