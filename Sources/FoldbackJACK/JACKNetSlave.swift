// A netjack2 slave: the `jackd -d net` options Foldback starts one with, and what a running slave's ports say about the network. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CJack
import Foundation

/// A private `jackd -d net` slave of a netjack2 master (a stage box running `netmanager`).
///
/// The master owns the clock, the sample rate and the period; the slave has no sound card. Its `system:`
/// capture ports carry the master's `to_slave` ports, its playback ports the master's `from_slave` ports.
public struct JACKNetSlave: Sendable, Hashable {
    /// netjack2's default multicast address and UDP port.
    public static let defaultMulticastAddress = "225.3.19.154"
    /// netjack2's default UDP port.
    public static let defaultPort = 19000
    /// The default network latency, cycles.
    public static let defaultLatencyCycles = 2
    /// The network latencies `jackd -d net -l` takes, cycles.
    public static let latencyCycleRange = 1...30

    /// Where the master listens (`-a`): its multicast group, or an address such as `127.0.0.1`.
    public var masterAddress: String
    /// The master's UDP port (`-p`).
    public var port: Int
    /// Network latency in cycles (`-l`).
    public var latencyCycles: Int
    /// The slave's client name on the master (`-n`): its ports are `NAME:to_slave_N` and `NAME:from_slave_N`.
    public var name: String
    /// Audio channels from the master (`-C`): the slave's `system:capture_N` ports.
    public var captureChannels: Int
    /// Audio channels back to the master (`-P`): the slave's `system:playback_N` ports.
    public var playbackChannels: Int

    /// A slave of the master at `masterAddress`.
    public init(
        masterAddress: String, port: Int = JACKNetSlave.defaultPort, latencyCycles: Int = JACKNetSlave.defaultLatencyCycles,
        name: String, captureChannels: Int, playbackChannels: Int
    ) {
        self.masterAddress = masterAddress
        self.port = port
        self.latencyCycles = latencyCycles
        self.name = name
        self.captureChannels = captureChannels
        self.playbackChannels = playbackChannels
    }

    /// The arguments after `-d net`.
    public var driverArguments: [String] {
        ["-a", masterAddress, "-p", String(port), "-C", String(captureChannels), "-P", String(playbackChannels),
         "-l", String(latencyCycles), "-n", name]
    }

    /// Starts `jackd -n serverName -d net …` and waits until it accepts clients (it has no master yet:
    /// see ``JACKServerLauncher/waitForMaster(until:)``).
    /// - Throws: as ``JACKServerLauncher/init(serverName:driver:sampleRate:period:driverArguments:logURL:timeout:)``.
    public func launch(serverName: String, timeout: Double = 10) throws(JACKError) -> JACKServerLauncher {
        try JACKServerLauncher(serverName: serverName, driver: "net", driverArguments: driverArguments, timeout: timeout)
    }
}

/// What a netjack2 slave adds to a round trip, read from its `system:` ports' latencies.
public struct JACKNetLatency: Sendable, Hashable {
    /// Capture latency of the slave's `system:capture_N` ports (master → slave), frames.
    public var captureFrames: Int
    /// Playback latency of its `system:playback_N` ports (slave → master), frames.
    public var playbackFrames: Int
    /// Master → slave → master, frames: what the network adds to every round trip through the slave.
    /// Measured at the master (a client playing into `to_slave` and recording `from_slave`), equal to
    /// (latency cycles + 1) × period.
    public var roundTripFrames: Int { captureFrames + playbackFrames }
}

extension JACKServerLauncher {
    /// Waits until the net slave has found its master (its `system:` ports exist), checking `stop` between
    /// polls; returns false if `stop` said so or jackd exited first.
    public func waitForMaster(until stop: () -> Bool) -> Bool {
        var interval = 0.005
        while !stop() && isRunning {
            if let probe = try? JACKClient(name: "fb-master-probe", serverName: serverName) {
                defer { probe.close() }
                if !probe.portNames(matching: "^system:", audioOnly: true).isEmpty { return true }
            }
            Thread.sleep(forTimeInterval: interval)
            interval = min(interval * 2, 0.1)
        }
        return false
    }
}

extension JACKHost {
    /// After the server ran no cycles for a while (a netjack2 slave whose master went away drops the connections
    /// of its `system:` ports and keeps them): every connection known before becomes pending, made again by
    /// the next ``maintainConnections()`` once both its ports exist. Call it when cycles run again.
    public func restoreConnectionsAfterStall() { connectionTracker.beginRestore() }

    /// The network's part of the round trip when the server is a netjack2 slave (its capture ports are
    /// aliased `net_pcm:from_master_…`), or nil for any other server.
    public var netLatency: JACKNetLatency? {
        let client = client
        guard !client.isClosed,
              let capture = client.portNames(matching: "^system:capture_", direction: .output, audioOnly: true).first,
              Self.aliases(ofPort: capture, client: client).contains(where: { $0.hasPrefix("net_pcm:") }),
              let playback = client.portNames(matching: "^system:playback_", direction: .input, audioOnly: true).first,
              let captureRange = client.latencyRange(ofPort: capture, mode: .capture),
              let playbackRange = client.latencyRange(ofPort: playback, mode: .playback)
        else { return nil }
        return JACKNetLatency(captureFrames: captureRange.upperBound, playbackFrames: playbackRange.upperBound)
    }

    private static func aliases(ofPort fullName: String, client: JACKClient) -> [String] {
        guard let port = jack_port_by_name(client.handle, fullName) else { return [] }
        let size = Int(jack_port_name_size())
        let first = UnsafeMutablePointer<CChar>.allocate(capacity: size)
        let second = UnsafeMutablePointer<CChar>.allocate(capacity: size)
        defer {
            first.deallocate()
            second.deallocate()
        }
        let slots: [UnsafeMutablePointer<CChar>?] = [first, second]
        let count: Int32 = slots.withUnsafeBufferPointer { (buffer: UnsafeBufferPointer<UnsafeMutablePointer<CChar>?>) -> Int32 in
            buffer.baseAddress.map { jack_port_get_aliases(port, $0) } ?? 0
        }
        let names: [UnsafePointer<CChar>] = [UnsafePointer(first), UnsafePointer(second)]
        return names.prefix(Int(max(0, count))).map { (name: UnsafePointer<CChar>) -> String in String(cString: name) }
    }
}
