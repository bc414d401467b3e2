// The port layout and latency of a built graph, for backends and reports. Non-realtime.

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
    /// Output ports, bus by bus.
    public var outputPorts: [PortLayout]
    /// The largest strip latency, in frames: what every output lags its inputs by.
    public var latencyFrames: Int

    /// The ports `description` needs; `latencyFrames` is known only once units are prepared (see ``EngineGraph/layout``).
    public init(description: GraphDescription, latencyFrames: Int = 0) {
        var inputs: [PortLayout] = []
        for strip in description.strips {
            let names = PortNaming.inputPortNames(strip: strip.name, channels: strip.channels)
            let pretty = PortNaming.inputPrettyNames(strip: strip.name, channels: strip.channels)
            for index in names.indices {
                inputs.append(PortLayout(name: names[index], prettyName: pretty[index], channel: inputs.count))
            }
        }
        var outputs: [PortLayout] = []
        for bus in description.buses {
            let names = PortNaming.outputPortNames(bus: bus.name, channels: bus.channels)
            let pretty = PortNaming.outputPrettyNames(bus: bus.name, channels: bus.channels)
            for index in names.indices {
                outputs.append(PortLayout(name: names[index], prettyName: pretty[index], channel: outputs.count))
            }
        }
        inputPorts = inputs
        outputPorts = outputs
        self.latencyFrames = latencyFrames
    }
}
