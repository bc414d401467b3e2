// Builds a graph's realtime memory off the audio thread and owns it until the graph is retired. Non-realtime.
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
    private let limiters: [UnsafeMutablePointer<LimiterKernel>?]
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
        var preparedStrips: [PreparedStrip] = []
        for (index, strip) in description.strips.enumerated() {
            guard (1...2).contains(strip.channels) else {
                throw .unsupportedChannelCount(name: strip.name, channels: strip.channels)
            }
            for send in strip.sends where !description.buses.indices.contains(send.bus) {
                throw .unknownBus(strip: strip.name, bus: send.bus)
            }
            preparedStrips.append(try Self.prepareUnits(
                of: strip, predecessor: predecessor?.continuableStrip(index, named: strip.name), sampleRate: sampleRate, maxFrames: maxFrames))
        }
        limiters = description.buses.map { bus in
            bus.limiter.map { settings in
                let kernel = UnsafeMutablePointer<LimiterKernel>.allocate(capacity: 1)
                kernel.initialize(to: LimiterKernel(
                    sampleRate: sampleRate, channels: bus.channels, ceilingDB: settings.ceilingDB,
                    lookaheadMs: settings.lookaheadMs, releaseMs: settings.releaseMs))
                return kernel
            }
        }
        self.predecessor = predecessor
        continuedUnits = zip(description.strips, preparedStrips).flatMap { strip, prepared in
            prepared.continued.map { (strip.name, strip.unitIDs[$0.unitOffset]) }
        }
        layout = GraphLayout(
            description: description, stripLatencies: preparedStrips.map(\.latency),
            busLatencies: limiters.map { $0?.pointee.latencyFrames ?? 0 })
        render = .allocate(capacity: 1)
        render.initialize(to: buildRender(preparedStrips: preparedStrips))
    }

    deinit {
        for limiter in limiters.compactMap({ $0 }) {
            limiter.pointee.deallocate()
            limiter.deinitialize(count: 1)
            limiter.deallocate()
        }
        render.pointee.meters.destroy()
        render.deinitialize(count: 1)
        render.deallocate()
        for allocation in allocations { allocation.deallocate() }
    }

    /// Prepares a strip's units in order, flowing the channel count through them; units continue those
    /// of `predecessor` (the same strip in the predecessor graph) where they can.
    private static func prepareUnits(of strip: StripDescription, predecessor: ContinuableStrip?, sampleRate: Double, maxFrames: Int) throws(EngineError)
        -> PreparedStrip
    {
        var channels = strip.channels
        var latency = 0
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
                throw .unitSetupFailed(unit: "\(strip.name)/\(id)", reason: "\(slot.inputChannels) in / \(slot.outputChannels) out channels is not supported in a strip")
            }
            channels = slot.outputChannels
            latency += slot.latencyFrames
            slots.append(slot)
        }
        return PreparedStrip(slots: slots, outputChannels: channels, latency: latency, continued: continued)
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

    private func buildRender(preparedStrips: [PreparedStrip]) -> GraphRender {
        let stripDescriptions = description.strips
        let busDescriptions = description.buses
        let unitTotal = preparedStrips.reduce(0) { $0 + $1.slots.count }
        let sendTotal = stripDescriptions.reduce(0) { $0 + $1.sends.count }
        let tapTotal = sendTotal * 2
        let smoothingRamp = Int((LinearSmoother.defaultTime * sampleRate).rounded())
        let bypassRamp = Int((0.005 * sampleRate).rounded())

        let buses = allocate(BusRender.self, count: busDescriptions.count)
        var outputChannel = 0
        for (index, bus) in busDescriptions.enumerated() {
            let buffers = allocate(UnsafeMutablePointer<Float>.self, count: 2)
            for channel in 0..<2 { (buffers + channel).initialize(to: zeroedFrames()) }
            let linear = Decibels.linearGain(fromDecibels: bus.gainDB)
            (buses + index).initialize(to: BusRender(
                outputChannel: Int32(outputChannel), channels: Int32(bus.channels), buffers: buffers,
                gain: LinearSmoother(value: bus.isMuted ? 0 : linear, rampFrames: smoothingRamp),
                gainLinear: linear, isMuted: bus.isMuted, meter: Int32(stripDescriptions.count + index),
                limiter: limiters[index]))
            outputChannel += bus.channels
        }

        let strips = allocate(StripRender.self, count: stripDescriptions.count)
        let units = allocate(UnitSlot.self, count: unitTotal)
        let sends = allocate(SendRender.self, count: sendTotal)
        let taps = allocate(SendTap.self, count: tapTotal)
        let soloCount = stripDescriptions.filter { $0.isSoloed && $0.isEnabled }.count
        var inputChannel = 0, unitIndex = 0, sendIndex = 0, tapIndex = 0
        var handovers: [UnitHandover] = []
        for (index, strip) in stripDescriptions.enumerated() {
            let prepared = preparedStrips[index]
            let firstUnit = unitIndex
            for (offset, slot) in prepared.slots.enumerated() {
                var bypassed: Float = offset < strip.bypassedUnits.count && strip.bypassedUnits[offset] ? 1 : 0
                let plan = prepared.continued.first { $0.unitOffset == offset }
                if let plan {
                    // Still running in the predecessor: its values are written when this graph takes over.
                    handovers.append(makeHandover(plan, slot: unitIndex, bypassed: bypassed >= 1))
                    if slot.selfBypassParameter != nil { bypassed = 0 }
                } else if let parameter = slot.selfBypassParameter {
                    // Not live yet, so the build thread may set it: the unit starts in its own bypass state.
                    slot.functions.setParameter(slot.state, Int32(parameter), bypassed >= 1 ? 0 : 1)
                    bypassed = 0
                }
                (units + unitIndex).initialize(to: UnitSlot(
                    functions: slot.functions, state: slot.state,
                    inputChannels: Int32(slot.inputChannels), outputChannels: Int32(slot.outputChannels),
                    bypass: LinearSmoother(value: bypassed, rampFrames: bypassRamp),
                    selfBypassParameter: Int32(slot.selfBypassParameter ?? -1)))
                unitIndex += 1
            }
            let firstSend = sendIndex
            for send in strip.sends {
                let busChannels = busDescriptions[send.bus].channels
                let level = Decibels.linearGain(fromDecibels: send.gainDB)
                let routes = SendTapLaw.routes(stripChannels: prepared.outputChannels, busChannels: busChannels)
                (sends + sendIndex).initialize(to: SendRender(
                    bus: Int32(send.bus), isPreFader: send.isPreFader, level: level,
                    firstTap: Int32(tapIndex), tapCount: Int32(routes.count)))
                for (tap, route) in routes.enumerated() {
                    let gain = SendTapLaw.gain(tap: tap, stripChannels: prepared.outputChannels, busChannels: busChannels, pan: strip.pan)
                    (taps + tapIndex).initialize(to: SendTap(
                        sourceChannel: Int32(route.source), busChannel: Int32(route.bus),
                        coefficient: LinearSmoother(value: level * gain, rampFrames: smoothingRamp)))
                    tapIndex += 1
                }
                sendIndex += 1
            }
            let work = allocate(UnsafeMutablePointer<Float>.self, count: 4)
            for buffer in 0..<4 { (work + buffer).initialize(to: zeroedFrames()) }
            var render = StripRender(
                inputChannel: strip.isFileSource ? Int32.max / 2 : Int32(inputChannel), channels: Int32(strip.channels),
                outputChannels: Int32(prepared.outputChannels),
                firstUnit: Int32(firstUnit), unitCount: Int32(prepared.slots.count),
                firstSend: Int32(firstSend), sendCount: Int32(strip.sends.count), work: work,
                fader: LinearSmoother(value: Decibels.linearGain(fromDecibels: strip.gainDB), rampFrames: smoothingRamp),
                gate: LinearSmoother(value: 0, rampFrames: smoothingRamp),
                pan: strip.pan, isMuted: strip.isMuted, isSoloed: strip.isSoloed, isEnabled: strip.isEnabled,
                meter: Int32(index))
            render.gate.reset(to: GraphRender.gateTarget(of: render, soloCount: soloCount))
            (strips + index).initialize(to: render)
            if !strip.isFileSource { inputChannel += strip.channels }
        }

        let channelTables = GraphRender.maxUnitChannels
        let stripChannels = allocate(UnsafePointer<Float>.self, count: channelTables)
        let unitInputs = allocate(UnsafePointer<Float>.self, count: channelTables)
        let unitOutputs = allocate(UnsafeMutablePointer<Float>.self, count: channelTables)
        let silence = zeroedFrames()
        for channel in 0..<channelTables {
            (stripChannels + channel).initialize(to: UnsafePointer(silence))
            (unitInputs + channel).initialize(to: UnsafePointer(silence))
            (unitOutputs + channel).initialize(to: silence)
        }
        return GraphRender(
            strips: strips, stripCount: stripDescriptions.count, units: units, sends: sends, taps: taps,
            buses: buses, busCount: busDescriptions.count, inputChannelCount: inputChannel,
            outputChannelCount: outputChannel, maxFrames: maxFrames, soloCount: soloCount, silence: silence,
            gateFrames: zeroedFrames(), postFaderFrames: zeroedFrames(),
            stripChannels: stripChannels, unitInputs: unitInputs, unitOutputs: unitOutputs,
            meters: MeterBank(count: stripDescriptions.count + busDescriptions.count, sampleRate: sampleRate),
            stripTaps: nilTable(count: stripDescriptions.count), busTaps: nilTable(count: busDescriptions.count), tapSwitch: nil,
            busAnalysisTaps: nilTable(count: busDescriptions.count),
            stripSources: nilTable(count: stripDescriptions.count), sourceBuffers: sourceTable(count: stripDescriptions.count * 2, silence: silence),
            handovers: handoverTable(handovers), handoverCount: handovers.count,
            predecessor: handovers.isEmpty ? nil : predecessor.map { UnsafeMutableRawPointer($0.render) })
    }
}
