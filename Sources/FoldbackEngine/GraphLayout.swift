// The port layout and latency of a built graph, for backends and reports. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// One port of a graph: its name, pretty name and the IO channel it maps to.
public struct PortLayout: Sendable, Hashable {
    /// Short port name (`vox_in`, `main_L`).
    public var name: String
    /// Human-readable name for JACK metadata.
    public var prettyName: String
    /// Index into ``RealtimeIO/inputs`` or ``RealtimeIO/outputs``.
    public var channel: Int
}

/// The ports a graph needs and the latency it adds.
public struct GraphLayout: Sendable, Hashable {
    /// Input ports, strip by strip.
    public var inputPorts: [PortLayout]
    /// Output ports, bus by bus, then the cue pair if the graph has one.
    public var outputPorts: [PortLayout]
    /// The slowest path from an input port to an output port, in frames.
    public var latencyFrames: Int
    /// Each input-to-output path and its own latency, for per-port latency reporting; empty when unknown
    /// (a layout built without prepared units).
    public var latencyPaths: [LatencyPath] = []
    /// What each bus adds, bus by bus; empty when unknown, like ``latencyPaths``.
    public var busLatencies: [BusLatency] = []

    /// The ports `description` needs; `latencyFrames` is known only once units are prepared (see ``EngineGraph/layout``).
    public init(description: GraphDescription, latencyFrames: Int = 0) {
        inputPorts = Self.ports(description.strips.filter(\.hasInputPorts).map {
            (PortNaming.inputPortNames(strip: $0.name, channels: $0.channels), PortNaming.inputPrettyNames(strip: $0.name, channels: $0.channels))
        })
        outputPorts = Self.ports(description.buses.filter(\.hasOutput).map {
            (PortNaming.outputPortNames(bus: $0.name, channels: $0.channels), PortNaming.outputPrettyNames(bus: $0.name, channels: $0.channels))
        } + (description.cue == nil ? [] : [(PortNaming.cuePortNames, PortNaming.cuePrettyNames)]))
        self.latencyFrames = latencyFrames
    }

    /// Numbers the ports of consecutive strips (or buses) by IO channel.
    private static func ports(_ groups: [(names: [String], prettyNames: [String])]) -> [PortLayout] {
        var ports: [PortLayout] = []
        for group in groups {
            for (name, prettyName) in zip(group.names, group.prettyNames) {
                ports.append(PortLayout(name: name, prettyName: prettyName, channel: ports.count))
            }
        }
        return ports
    }
}
