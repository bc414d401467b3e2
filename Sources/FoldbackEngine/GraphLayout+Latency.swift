// Per-path latency of a built graph: which input port reaches which output port, how late. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// One signal path from an input port to an output port and the latency the graph adds on it.
public struct LatencyPath: Sendable, Hashable {
    /// The input port's short name (`vox_in`).
    public var input: String
    /// The output port's short name (`main_L`).
    public var output: String
    /// The path's latency in frames: strip units, send alignment, effect returns, bus units and limiter.
    public var frames: Int

    /// A path from `input` to `output`, `frames` late.
    public init(input: String, output: String, frames: Int) {
        self.input = input
        self.output = output
        self.frames = frames
    }
}

/// How one send's path arrives at a bus: its latency there and the delay that aligns it.
public struct SendAlignment: Sendable, Hashable {
    /// The sending strip.
    public var strip: String
    /// The path's latency at the strip's output, in frames (the slowest, for a return of an unaligned bus).
    public var frames: Int
    /// The delay added on the send so it arrives with the slowest path into the bus, in frames.
    public var delayFrames: Int

    /// A send's alignment.
    public init(strip: String, frames: Int, delayFrames: Int) {
        self.strip = strip
        self.frames = frames
        self.delayFrames = delayFrames
    }
}

/// The latency a graph adds on the way to one bus: its fastest and slowest strip path, and its limiter's part.
public struct BusLatency: Sendable, Hashable {
    /// The bus name.
    public var bus: String
    /// The shortest and longest path from a strip's input port to this bus's outputs, in frames (strip
    /// units, send alignment, bus units and the limiter's lookahead); the bus's own part alone when no strip feeds it.
    public var frames: ClosedRange<Int>
    /// The bus limiter's lookahead, in frames (0 without a limiter or in zero-latency mode).
    public var limiterFrames: Int
    /// What the bus's own units add, in frames.
    public var unitFrames = 0
    /// Whether faster paths into the bus are delayed to the slowest.
    public var isCompensated = true
    /// Each send into the bus, in strip order: its latency and the delay that aligns it.
    public var sends: [SendAlignment] = []

    /// A bus's latency figures.
    public init(bus: String, frames: ClosedRange<Int>, limiterFrames: Int, unitFrames: Int = 0, isCompensated: Bool = true, sends: [SendAlignment] = []) {
        self.bus = bus
        self.frames = frames
        self.limiterFrames = limiterFrames
        self.unitFrames = unitFrames
        self.isCompensated = isCompensated
        self.sends = sends
    }
}

extension GraphLayout {
    /// The ports of `description` with each path's latency as `routing` planned it: every input port
    /// reaches every output port of each bus its signal gets to (directly or through effect returns),
    /// at that path's latency (every strip channel to every bus channel, an over-estimate only for a
    /// hard-panned stereo pair, which JACK's ranges absorb). ``latencyFrames`` is the slowest path.
    init(description: GraphDescription, routing: RoutingPlan, limiterLatencies: [Int]) {
        let slowest = routing.busOutputs.enumerated().filter { description.buses[$0.offset].hasOutput }.map(\.element.upperBound).max() ?? 0
        self.init(description: description, latencyFrames: slowest)
        var paths: [LatencyPath] = []
        for (index, strip) in description.strips.enumerated() where strip.hasInputPorts {
            let inputs = PortNaming.inputPortNames(strip: strip.name, channels: strip.channels)
            for (busIndex, bus) in description.buses.enumerated() where bus.hasOutput {
                guard let range = routing.busOutputsByInput[busIndex][index] else { continue }
                for input in inputs {
                    for output in PortNaming.outputPortNames(bus: bus.name, channels: bus.channels) {
                        paths.append(LatencyPath(input: input, output: output, frames: range.upperBound))
                        if range.lowerBound != range.upperBound {
                            paths.append(LatencyPath(input: input, output: output, frames: range.lowerBound))
                        }
                    }
                }
            }
        }
        latencyPaths = paths
        busLatencies = description.buses.enumerated().map { busIndex, bus in
            let limiter = busIndex < limiterLatencies.count ? limiterLatencies[busIndex] : 0
            let own = routing.busOutputs[busIndex].lowerBound - routing.busArrivals[busIndex].lowerBound
            var sends: [SendAlignment] = []
            for (stripIndex, strip) in description.strips.enumerated() {
                for (sendIndex, send) in strip.sends.enumerated() where send.bus == busIndex {
                    sends.append(SendAlignment(
                        strip: strip.name, frames: routing.stripLatencies[stripIndex].upperBound, delayFrames: routing.sendDelays[stripIndex][sendIndex]))
                }
            }
            return BusLatency(
                bus: bus.name, frames: routing.busOutputs[busIndex], limiterFrames: limiter, unitFrames: own - limiter,
                isCompensated: bus.isCompensated, sends: sends)
        }
    }
}
