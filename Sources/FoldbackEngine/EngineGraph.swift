// Builds a graph's realtime memory off the audio thread and owns it until the graph is retired. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

/// A built, prepared graph: strips, units, sends and buses, ready to be installed in an ``Engine``.
///
/// All realtime memory is allocated here and freed in `deinit`, which the engine only lets happen on a
/// non-realtime thread after the audio thread has let go of the graph. Unit objects are prepared here and
/// must not be shared with another graph; a unit may continue the running state of its predecessor's
/// unit in the same place instead (see ``init(_:sampleRate:maxFrames:continuing:)``).
public final class EngineGraph: @unchecked Sendable {
    /// What the graph was built from.
    public let description: GraphDescription
    /// Ports and latency.
    public let layout: GraphLayout
    /// The sample rate the units were prepared for.
    public let sampleRate: Double
    /// The largest chunk the graph renders at once; longer cycles are split by the engine.
    public let maxFrames: Int
    let render: UnsafeMutablePointer<GraphRender>
    private var allocations: [UnsafeMutableRawPointer] = []
    /// One per bus (nil where the bus has no limiter); freed in deinit.
    let limiters: [UnsafeMutablePointer<LimiterKernel>?]
    /// The cue output's limiter (nil without a cue); freed in deinit.
    let cueLimiter: UnsafeMutablePointer<LimiterKernel>?
    /// One per bus (nil where the bus has no room); freed in deinit.
    let rooms: [UnsafeMutablePointer<BinauralRoom>?]
    /// The send delay lines that align paths into buses; freed in deinit.
    var sendDelays: [UnsafeMutablePointer<LookaheadDelay>] = []
    /// The binaural sources of sends into binaural buses (pointer, count); freed in deinit. The description keeps
    /// their HRTF sets alive.
    var binauralSources: [(UnsafeMutablePointer<BinauralSource>, Int)] = []
    /// In a live engine, the thread that builds moved sources' filters and its hand-over cells (see
    /// `EngineGraph+BinauralBuilds.swift`); stopped, then freed, before the sources in deinit.
    var binauralWorker: BinauralBuildWorker?
    var binauralCells: (UnsafeMutablePointer<BinauralBuildCell>, Int)?
    /// The render order and the latency of every path (see ``RoutingPlan``).
    let routing: RoutingPlan
    /// The graph this one continues units of (weak: it is freed once retired), and which units.
    public private(set) weak var predecessor: EngineGraph?
    /// The units that carry on their predecessor's running state, by strip name and unit id.
    public let continuedUnits: [(strip: String, unit: String)]
    /// Set when a graph continuing this one's units is installed: this graph must not be installed again.
    var hasHandedOver = false
    /// Record rings, switches and sources the audio thread may reach through this graph (see `EngineGraph+Taps.swift`).
    var retainedTapObjects: [AnyObject] = []

    /// The most frames a graph may be prepared for.
    public static let maxFramesLimit = 16384

    /// Prepares every unit and allocates the realtime memory of `description`.
    ///
    /// With a `predecessor` (the running graph, when switching presets), each unit whose strip has the same
    /// index and name there and whose id names a unit in it is offered that unit to continue
    /// (``EngineUnit/prepare(continuing:channels:sampleRate:maxFrames:)``): an LV2 plugin with the same URI,
    /// setup and channel layout keeps its instance, its tail and state, with this graph's control values
    /// applied when the swap takes place. Such a graph must be installed while `predecessor` still runs.
    public init(_ description: GraphDescription, sampleRate: Double, maxFrames: Int, continuing predecessor: EngineGraph? = nil) throws(EngineError) {
        guard sampleRate >= 8000, sampleRate <= 768_000, maxFrames >= 1, maxFrames <= Self.maxFramesLimit else {
            throw .invalidFormat(sampleRate: sampleRate, maxFrames: maxFrames)
        }
        self.description = description
        self.sampleRate = sampleRate
        self.maxFrames = maxFrames
        for bus in description.buses where !(1...2).contains(bus.channels) {
            throw .unsupportedChannelCount(name: bus.name, channels: bus.channels)
        }
        for bus in description.buses {
            if bus.roomDB != nil && bus.hrtf == nil { throw .binauralBus(name: bus.name, reason: "a room needs a binaural bus") }
            guard let hrtf = bus.hrtf else { continue }
            if bus.channels != 2 { throw .binauralBus(name: bus.name, reason: "a binaural bus is stereo, this one has \(bus.channels) channel(s)") }
            if hrtf.sampleRate != sampleRate {
                throw .binauralBus(name: bus.name, reason: "its HRTF set is at \(hrtf.sampleRate) Hz, the engine runs at \(sampleRate) Hz")
            }
        }
        var preparedStrips: [PreparedStrip] = []
        for (index, strip) in description.strips.enumerated() {
            guard (1...2).contains(strip.channels) else {
                throw .unsupportedChannelCount(name: strip.name, channels: strip.channels)
            }
            for send in strip.sends where !description.buses.indices.contains(send.bus) {
                throw .unknownBus(strip: strip.name, bus: send.bus)
            }
            if let bus = strip.returnBus, !description.buses.indices.contains(bus) { throw .unknownBus(strip: strip.name, bus: bus) }
            preparedStrips.append(try Self.prepareUnits(
                of: UnitChainDescription(strip), predecessor: predecessor?.continuableStrip(index, named: strip.name), sampleRate: sampleRate, maxFrames: maxFrames))
        }
        var preparedBuses: [PreparedStrip] = []
        for (index, bus) in description.buses.enumerated() {
            preparedBuses.append(try Self.prepareUnits(
                of: UnitChainDescription(bus), predecessor: predecessor?.continuableBus(index, named: bus.name), sampleRate: sampleRate, maxFrames: maxFrames))
        }
        Self.settleLatencies(&preparedStrips)
        Self.settleLatencies(&preparedBuses)
        let limiterLatencies = description.buses.map { $0.limiter?.latencyFrames(sampleRate: sampleRate) ?? 0 }
        routing = try RoutingPlan(
            description, stripUnitLatencies: preparedStrips.map(\.latency), busUnitLatencies: preparedBuses.map(\.latency),
            limiterLatencies: limiterLatencies)
        limiters = description.buses.map { bus in bus.limiter.map { Self.makeLimiter($0, channels: bus.channels, sampleRate: sampleRate) } }
        cueLimiter = description.cue.map { Self.makeLimiter($0.limiter, channels: 2, sampleRate: sampleRate) }
        rooms = description.buses.map { bus in
            bus.roomDB.map { levelDB in
                let room = UnsafeMutablePointer<BinauralRoom>.allocate(capacity: 1)
                room.initialize(to: BinauralRoom(sampleRate: sampleRate, levelDB: levelDB))
                return room
            }
        }
        self.predecessor = predecessor
        continuedUnits = zip(description.strips.map(\.name), description.strips.map(\.unitIDs)).enumerated().flatMap { index, strip in
            preparedStrips[index].continued.map { (strip.0, strip.1[$0.unitOffset]) }
        } + zip(description.buses.map(\.name), description.buses.map(\.unitIDs)).enumerated().flatMap { index, bus in
            preparedBuses[index].continued.map { (bus.0, bus.1[$0.unitOffset]) }
        }
        layout = GraphLayout(description: description, routing: routing, limiterLatencies: limiterLatencies)
        render = .allocate(capacity: 1)
        render.initialize(to: buildRender(preparedStrips: preparedStrips, preparedBuses: preparedBuses))
    }

    /// A limiter kernel with `settings`, freed in deinit.
    private static func makeLimiter(_ settings: LimiterSettings, channels: Int, sampleRate: Double) -> UnsafeMutablePointer<LimiterKernel> {
        let kernel = UnsafeMutablePointer<LimiterKernel>.allocate(capacity: 1)
        kernel.initialize(to: LimiterKernel(
            sampleRate: sampleRate, channels: channels, ceilingDB: settings.ceilingDB, lookaheadMs: settings.lookaheadMs, releaseMs: settings.releaseMs))
        return kernel
    }

    private static func free<Value>(_ pointer: UnsafeMutablePointer<Value>) {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    deinit {
        for limiter in limiters.compactMap({ $0 }) + [cueLimiter].compactMap({ $0 }) {
            limiter.pointee.deallocate()
            Self.free(limiter)
        }
        for room in rooms.compactMap({ $0 }) {
            room.pointee.deallocate()
            room.deinitialize(count: 1)
            room.deallocate()
        }
        for delay in sendDelays {
            delay.pointee.deallocate()
            Self.free(delay)
        }
        freeBinauralBuilds()
        for (sources, count) in binauralSources {
            for index in 0..<count { sources[index].deallocate() }
            sources.deinitialize(count: count)
            sources.deallocate()
        }
        render.pointee.meters.destroy()
        render.deinitialize(count: 1)
        render.deallocate()
        for allocation in allocations { allocation.deallocate() }
    }

    /// How many chunks silence gating skipped, per unit in run-list order (every bus's units, then every strip's):
    /// what tests and benchmarks read to see gating happen. Read it while the graph is not rendering.
    public var gatedUnitChunks: [Int] {
        let strips = render.pointee.strips, buses = render.pointee.buses
        let count = (0..<render.pointee.stripCount).reduce(0) { $0 + Int(strips[$1].unitCount) }
            + (0..<render.pointee.busCount).reduce(0) { $0 + Int(buses[$1].unitCount) }
        return (0..<count).map { render.pointee.units[$0].gatedChunks }
    }

    /// Per bus, the chunks its limiter was skipped at rest, and per strip, the chunks its signal after the units was
    /// exact +0.0 (its sends skipped): silence gating around the units, as tests read it. Read while not rendering.
    public var gatedAroundUnits: (limiters: [Int], silentStrips: [Int]) {
        let strips = render.pointee.strips, buses = render.pointee.buses
        return ((0..<render.pointee.busCount).map { buses[$0].limiterGatedChunks }, (0..<render.pointee.stripCount).map { strips[$0].silentChunks })
    }

    /// The chunks in which the whole graph rested and was skipped but for its clocks, meters and output ports
    /// (`GraphRest.swift`), as tests and benchmarks read it. Read while not rendering.
    public var restChunks: Int { render.pointee.restChunks }

    /// Prepares a strip's or bus's units in order, flowing the channel count through them; units continue
    /// those of `predecessor` (the same strip or bus in the predecessor graph) where they can.
    private static func prepareUnits(of strip: UnitChainDescription, predecessor: ContinuableStrip?, sampleRate: Double, maxFrames: Int) throws(EngineError)
        -> PreparedStrip
    {
        var channels = strip.channels
        var slots: [UnitRenderSlot] = []
        var continued: [ContinuationPlan] = []
        for (offset, unit) in strip.units.enumerated() {
            let id = offset < strip.unitIDs.count ? strip.unitIDs[offset] : unit.typeName
            let slot: UnitRenderSlot
            if let plan = try predecessor?.continue(unit, id: id, at: offset, channels: channels, sampleRate: sampleRate, maxFrames: maxFrames) {
                slot = plan.slot
                continued.append(plan)
            } else {
                slot = try unit.prepare(channels: channels, sampleRate: sampleRate, maxFrames: maxFrames)
            }
            guard (1...2).contains(slot.outputChannels), (1...GraphRender.maxUnitChannels).contains(slot.inputChannels) else {
                throw .unitSetupFailed(unit: "\(strip.name)/\(id)", reason: "\(slot.inputChannels) in / \(slot.outputChannels) out channels is not supported in a strip or bus")
            }
            channels = slot.outputChannels
            slots.append(slot)
        }
        return PreparedStrip(slots: slots, outputChannels: channels, latency: 0, continued: continued)   // summed by settleLatencies
    }

    /// Waits for the units that know their latency only once what they started is ready
    /// (``UnitRenderSlot/awaitLatency``: every one of them started by now), then sums each chain's latency.
    private static func settleLatencies(_ chains: inout [PreparedStrip]) {
        for chain in chains.indices {
            for index in chains[chain].slots.indices {
                guard let wait = chains[chain].slots[index].awaitLatency else { continue }
                chains[chain].slots[index].latencyFrames = wait()
                chains[chain].slots[index].awaitLatency = nil
            }
            chains[chain].latency = chains[chain].slots.reduce(0) { $0 + $1.latencyFrames }
        }
    }

    func allocate<Element>(_ type: Element.Type, count: Int) -> UnsafeMutablePointer<Element> {
        let pointer = UnsafeMutablePointer<Element>.allocate(capacity: max(count, 1))
        allocations.append(UnsafeMutableRawPointer(pointer))
        return pointer
    }

    func zeroedFrames() -> UnsafeMutablePointer<Float> {
        let buffer = allocate(Float.self, count: maxFrames)
        buffer.initialize(repeating: 0, count: maxFrames)
        return buffer
    }
}
