// Per-path latency of a built graph: which input port reaches which output port, how late. Non-realtime.

/// One signal path from an input port to an output port and the latency the graph adds on it.
public struct LatencyPath: Sendable, Hashable {
    /// The input port's short name (`vox_in`).
    public var input: String
    /// The output port's short name (`main_L`).
    public var output: String
    /// The strip's unit latencies plus the bus limiter's lookahead, in frames.
    public var frames: Int

    /// A path from `input` to `output`, `frames` late.
    public init(input: String, output: String, frames: Int) {
        self.input = input
        self.output = output
        self.frames = frames
    }
}

/// The latency a graph adds on the way to one bus: its fastest and slowest strip path, and its limiter's part.
public struct BusLatency: Sendable, Hashable {
    /// The bus name.
    public var bus: String
    /// The shortest and longest path from a strip's input port to this bus's outputs, in frames (strip
    /// units plus the limiter's lookahead); the limiter's part alone when no strip feeds the bus.
    public var frames: ClosedRange<Int>
    /// The bus limiter's lookahead, in frames (0 without a limiter or in zero-latency mode).
    public var limiterFrames: Int

    /// A bus's latency figures.
    public init(bus: String, frames: ClosedRange<Int>, limiterFrames: Int) {
        self.bus = bus
        self.frames = frames
        self.limiterFrames = limiterFrames
    }
}

extension GraphLayout {
    /// The ports of `description` with each path's latency: strip `i` reaches every bus it sends to,
    /// `stripLatencies[i] + busLatencies[bus]` frames late (every strip channel to every bus channel,
    /// an over-estimate only for a hard-panned stereo pair, which JACK's ranges absorb).
    /// ``latencyFrames`` stays the graph-wide worst case: the largest strip plus the largest bus latency.
    /// - Parameters:
    ///   - stripLatencies: per strip, the sum of its prepared units' `latencyFrames` (LV2 plugins included).
    ///   - busLatencies: per bus, its limiter's lookahead in frames (0 without a limiter).
    public init(description: GraphDescription, stripLatencies: [Int], busLatencies: [Int]) {
        self.init(description: description, latencyFrames: (stripLatencies.max() ?? 0) + (busLatencies.max() ?? 0))
        var paths: [LatencyPath] = []
        for (index, strip) in description.strips.enumerated() {
            let inputs = PortNaming.inputPortNames(strip: strip.name, channels: strip.channels)
            let stripLatency = index < stripLatencies.count ? stripLatencies[index] : 0
            for busIndex in Set(strip.sends.map(\.bus)).sorted() where description.buses.indices.contains(busIndex) {
                let bus = description.buses[busIndex]
                let frames = stripLatency + (busIndex < busLatencies.count ? busLatencies[busIndex] : 0)
                for input in inputs {
                    for output in PortNaming.outputPortNames(bus: bus.name, channels: bus.channels) {
                        paths.append(LatencyPath(input: input, output: output, frames: frames))
                    }
                }
            }
        }
        latencyPaths = paths
        self.busLatencies = description.buses.enumerated().map { busIndex, bus in
            let limiter = busIndex < busLatencies.count ? busLatencies[busIndex] : 0
            let feeding = description.strips.indices.filter { description.strips[$0].sends.contains { $0.bus == busIndex } }
            let frames = feeding.map { ($0 < stripLatencies.count ? stripLatencies[$0] : 0) + limiter }
            return BusLatency(bus: bus.name, frames: (frames.min() ?? limiter)...(frames.max() ?? limiter), limiterFrames: limiter)
        }
    }
}
