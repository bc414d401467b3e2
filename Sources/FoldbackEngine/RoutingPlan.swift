// Orders a graph's strips and buses (effect returns after the buses they return) and aligns the latency of the paths into each bus. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The render order of a graph and the delays that align every path arriving at a bus.
///
/// Strips with input ports render first, then each bus as soon as everything feeding it has rendered, and
/// each return strip right after the bus it returns: one topological order over strips and buses, so an
/// effect bus and its return cost no extra cycle. Latencies are in frames, as ranges: a bus that does not
/// compensate passes on the spread of the paths into it.
struct RoutingPlan {
    /// A step of the render order.
    enum Step: Hashable {
        case strip(Int)
        case bus(Int)
    }

    /// Every strip and bus once, each after everything feeding it.
    var order: [Step]
    /// Per strip, the latency at its units' output (a return's includes its bus's).
    var stripLatencies: [ClosedRange<Int>]
    /// Per strip and send, the delay that aligns the send with the slowest path into its bus.
    var sendDelays: [[Int]]
    /// Per bus, the latency of the (delayed) paths arriving at its mix.
    var busArrivals: [ClosedRange<Int>]
    /// Per bus, the latency at its output: arrival plus its units' plus its limiter's.
    var busOutputs: [ClosedRange<Int>]
    /// Per bus, by input-port strip: the latency of that strip's paths at the bus output.
    var busOutputsByInput: [[Int: ClosedRange<Int>]]

    /// Plans `description` given each strip's and bus's own latency (units; for buses units plus limiter).
    /// - Throws: ``EngineError/sendLoop(_:)`` when a return feeds, directly or through other returns, the bus it returns.
    init(_ description: GraphDescription, stripUnitLatencies: [Int], busUnitLatencies: [Int], limiterLatencies: [Int]) throws(EngineError) {
        order = try Self.order(description)
        let strips = description.strips, buses = description.buses
        stripLatencies = Array(repeating: 0...0, count: strips.count)
        sendDelays = strips.map { Array(repeating: 0, count: $0.sends.count) }
        busArrivals = Array(repeating: 0...0, count: buses.count)
        busOutputs = Array(repeating: 0...0, count: buses.count)
        busOutputsByInput = Array(repeating: [:], count: buses.count)
        var stripByInput: [[Int: ClosedRange<Int>]] = Array(repeating: [:], count: strips.count)
        let feeders = buses.indices.map { bus in
            strips.indices.flatMap { strip in strips[strip].sends.indices.filter { strips[strip].sends[$0].bus == bus }.map { (strip, $0) } }
        }
        func own(_ list: [Int], _ index: Int) -> Int { index < list.count ? list[index] : 0 }
        for step in order {
            switch step {
            case let .strip(index):
                let units = own(stripUnitLatencies, index)
                if let bus = strips[index].returnBus {
                    stripLatencies[index] = Self.shift(busOutputs[bus], by: units)
                    stripByInput[index] = busOutputsByInput[bus].mapValues { Self.shift($0, by: units) }
                } else {
                    stripLatencies[index] = units...units
                    if strips[index].hasInputPorts { stripByInput[index] = [index: units...units] }
                }
            case let .bus(index):
                let sources = feeders[index]
                let slowest = sources.map { stripLatencies[$0.0].upperBound }.max() ?? 0
                var arrival: ClosedRange<Int>?
                var byInput: [Int: ClosedRange<Int>] = [:]
                let own = own(busUnitLatencies, index) + own(limiterLatencies, index)
                for (strip, send) in sources {
                    let delay = buses[index].isCompensated ? slowest - stripLatencies[strip].upperBound : 0
                    sendDelays[strip][send] = delay
                    arrival = Self.union(arrival, Self.shift(stripLatencies[strip], by: delay))
                    for (input, range) in stripByInput[strip] {
                        byInput[input] = Self.union(byInput[input], Self.shift(range, by: delay + own))
                    }
                }
                busArrivals[index] = arrival ?? 0...0
                busOutputs[index] = Self.shift(busArrivals[index], by: own)
                busOutputsByInput[index] = byInput
            }
        }
    }

    private static func shift(_ range: ClosedRange<Int>, by frames: Int) -> ClosedRange<Int> {
        (range.lowerBound + frames)...(range.upperBound + frames)
    }

    private static func union(_ range: ClosedRange<Int>?, _ other: ClosedRange<Int>) -> ClosedRange<Int> {
        guard let range else { return other }
        return min(range.lowerBound, other.lowerBound)...max(range.upperBound, other.upperBound)
    }

    /// A topological order of strips and buses: a strip before the buses it sends to, a bus before the
    /// strips returning it; ties go to strips first, then buses, each in description order.
    static func order(_ description: GraphDescription) throws(EngineError) -> [Step] {
        let strips = description.strips, buses = description.buses
        var pendingInputs = buses.indices.map { bus in strips.filter { $0.sends.contains { $0.bus == bus } }.count }
        var order: [Step] = []
        var ready = strips.indices.filter { strips[$0].returnBus == nil }.map(Step.strip)
        var done = Set<Step>()
        while !ready.isEmpty {
            let step = ready.removeFirst()
            guard done.insert(step).inserted else { continue }
            order.append(step)
            switch step {
            case let .strip(index):
                for bus in Set(strips[index].sends.map(\.bus)).sorted() where buses.indices.contains(bus) {
                    pendingInputs[bus] -= strips[index].sends.filter { $0.bus == bus }.count
                }
            case let .bus(index):
                ready.append(contentsOf: strips.indices.filter { strips[$0].returnBus == index }.map(Step.strip))
            }
            let freed = buses.indices.filter { pendingInputs[$0] == 0 && !done.contains(.bus($0)) && !ready.contains(.bus($0)) }
            ready.append(contentsOf: freed.map(Step.bus))
            ready.sort { Self.rank($0) < Self.rank($1) }
        }
        guard order.count == strips.count + buses.count else { throw .sendLoop(sendLoop(in: description) ?? []) }
        return order
    }

    private static func rank(_ step: Step) -> Int {
        switch step {
        case let .strip(index): return index
        case let .bus(index): return 1 << 40 + index
        }
    }

    /// The names along one send loop, a return strip, the bus it sends to, … back to that strip
    /// (`vox_verb → verb → vox_verb`), or nil if there is none.
    static func sendLoop(in description: GraphDescription) -> [String]? {
        let strips = description.strips, buses = description.buses
        for start in strips.indices where strips[start].returnBus != nil {
            var visited: Set<Int> = [start]
            if let loop = search(from: start, to: start, strips: strips, visited: &visited) {
                return [strips[start].name] + loop.flatMap { [buses[$0.bus].name, strips[$0.strip].name] }
            }
        }
        return nil
    }

    /// Depth-first: the (bus, return strip) hops from `strip` back to `target`, or nil.
    private static func search(from strip: Int, to target: Int, strips: [StripDescription], visited: inout Set<Int>) -> [(bus: Int, strip: Int)]? {
        for bus in Set(strips[strip].sends.map(\.bus)).sorted() {
            for next in strips.indices where strips[next].returnBus == bus {
                if next == target { return [(bus, next)] }
                guard visited.insert(next).inserted else { continue }
                if let rest = search(from: next, to: target, strips: strips, visited: &visited) { return [(bus, next)] + rest }
            }
        }
        return nil
    }
}
