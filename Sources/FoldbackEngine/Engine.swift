// The engine's non-realtime face: installs graphs, queues parameter changes, frees retired graphs, reads meters. Non-realtime (its cycle function runs on the audio thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
import CFoldbackTeam
import Synchronization

/// Fixed capacities an ``Engine`` is built with.
public struct EngineConfiguration: Sendable {
    /// The longest chunk rendered at once (longer cycles are split), frames.
    public var maxFrames: Int
    /// Input channels the IO table holds.
    public var inputCapacity: Int
    /// Output channels the IO table holds.
    public var outputCapacity: Int
    /// Parameter changes that can wait for the audio thread at once.
    public var parameterQueueCapacity: Int
    /// Threads that render a cycle together: the cycle's own thread and `renderThreads − 1` workers the
    /// backend runs (``Engine/workerCount``). 1 renders on the cycle's thread alone.
    public var renderThreads: Int
    /// Whether a moved binaural source's new filters are built on a worker thread of its graph (a live engine: the
    /// crossfade starts when they are ready) instead of in the cycle of the move (offline renders and tests: the
    /// output does not depend on timing).
    public var buildsBinauralMovesOnWorker = false

    /// A configuration; `sampleRate` is accepted for symmetry with graphs and checked for sanity.
    public init(
        sampleRate: Double = 48000, maxFrames: Int, inputCapacity: Int = 64, outputCapacity: Int = 64, parameterQueueCapacity: Int = 1024,
        renderThreads: Int = 1
    ) {
        self.maxFrames = max(1, min(maxFrames, EngineGraph.maxFramesLimit))
        self.inputCapacity = max(1, inputCapacity)
        self.outputCapacity = max(1, outputCapacity)
        self.parameterQueueCapacity = parameterQueueCapacity
        self.renderThreads = max(1, min(renderThreads, Engine.maxRenderThreads))
    }
}

/// The realtime mixing engine: runs the installed graph once per cycle on the audio thread.
///
/// A backend fills ``io`` with its channel buffers and calls ``cycleFunction`` with ``cycleContext`` (through
/// `fb_realtime_cycle`) once per cycle. Any other thread may ``install(_:crossfade:)`` graphs and
/// ``set(_:to:)`` parameters; both travel to the audio thread through fixed-size lock-free rings.
/// Retired graphs come back through another ring and are freed by ``collectGarbage()`` — never on the
/// audio thread. Deinitialize only after the backend has stopped calling the cycle.
public final class Engine: @unchecked Sendable {
    /// The capacities this engine was built with.
    public let configuration: EngineConfiguration
    private let state: UnsafeMutablePointer<EngineRealtimeState>
    private let control = Mutex(ControlState())
    /// One context per worker lane for ``workerEntry`` (see `RenderWorkers.swift`).
    let workerSlots: UnsafeMutablePointer<RenderWorkers.Slot>?
    /// Which unit each render lane runs now (a watchdog's view of a cycle that does not end).
    public let unitActivity: UnitActivity

    private struct ControlState {
        /// Graphs the audio thread may still touch, by their realtime pointer.
        var alive: [UnsafeMutableRawPointer: EngineGraph] = [:]
        var latest: EngineGraph?
        /// Values set through ``Engine/set(_:to:)`` since `latest` was installed.
        var values: [ParameterAddress: Float] = [:]
        var changeCount = 0
        /// Who applies host-side parameters (held weakly: the host owns the engine).
        weak var hostApplier: (any HostParameterApplier)?
    }

    /// An engine with no graph: until one is installed, cycles output silence.
    public init(configuration: EngineConfiguration) {
        self.configuration = configuration
        unitActivity = UnitActivity(lanes: configuration.renderThreads)
        let inputs = UnsafeMutablePointer<UnsafePointer<Float>?>.allocate(capacity: configuration.inputCapacity)
        inputs.initialize(repeating: nil, count: configuration.inputCapacity)
        let outputs = UnsafeMutablePointer<UnsafeMutablePointer<Float>?>.allocate(capacity: configuration.outputCapacity)
        outputs.initialize(repeating: nil, count: configuration.outputCapacity)
        let io = UnsafeMutablePointer<RealtimeIO>.allocate(capacity: 1)
        io.initialize(to: RealtimeIO(inputs: inputs, outputs: outputs, inputCount: 0, outputCount: 0))
        let chunk = configuration.maxFrames
        let fadeOutputs = UnsafeMutablePointer<UnsafeMutablePointer<Float>?>.allocate(capacity: configuration.outputCapacity)
        for channel in 0..<configuration.outputCapacity {
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: chunk)
            buffer.initialize(repeating: 0, count: chunk)
            (fadeOutputs + channel).initialize(to: buffer)
        }
        let fadeIn = UnsafeMutablePointer<Float>.allocate(capacity: chunk)
        fadeIn.initialize(repeating: 0, count: chunk)
        let fadeOut = UnsafeMutablePointer<Float>.allocate(capacity: chunk)
        fadeOut.initialize(repeating: 0, count: chunk)
        state = .allocate(capacity: 1)
        state.initialize(to: EngineRealtimeState(
            io: io, current: nil, fadingOut: nil, fadePosition: 0, fadeFrames: 0, fadeLaw: .equalGain,
            swaps: SPSCRing(capacity: 16), retired: SPSCRing(capacity: 64),
            parameters: SPSCRing(capacity: configuration.parameterQueueCapacity),
            fadeOutputs: fadeOutputs, chunkFrames: chunk, fadeInGains: fadeIn, fadeOutGains: fadeOut,
            cycles: .create(0), droppedChanges: .create(0), currentGraph: .create(0),
            team: configuration.renderThreads > 1 ? fb_team_create(UInt32(configuration.renderThreads)) : nil))
        workerSlots = RenderWorkers.slots(team: state.pointee.team, count: configuration.renderThreads - 1)
    }

    deinit {
        RenderWorkers.destroy(team: state.pointee.team, slots: workerSlots)
        let realtime = state.pointee
        realtime.swaps.destroy()
        realtime.retired.destroy()
        realtime.parameters.destroy()
        for channel in 0..<configuration.outputCapacity { realtime.fadeOutputs[channel]?.deallocate() }
        realtime.fadeOutputs.deallocate()
        realtime.fadeInGains.deallocate()
        realtime.fadeOutGains.deallocate()
        realtime.io.pointee.inputs.deallocate()
        realtime.io.pointee.outputs.deallocate()
        realtime.io.deallocate()
        realtime.cycles.destroy()
        realtime.droppedChanges.destroy()
        realtime.currentGraph.destroy()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    // MARK: Realtime entry

    /// The render team, or nil with one render thread.
    var realtimeTeam: OpaquePointer? { state.pointee.team }

    /// The IO pointer tables the backend fills before every cycle.
    public var io: UnsafeMutablePointer<RealtimeIO> { state.pointee.io }

    /// The context to pass to ``cycleFunction``.
    public var cycleContext: UnsafeMutableRawPointer { UnsafeMutableRawPointer(state) }

    /// The realtime cycle, C-callable (`fb_cycle_fn`): `cycleFunction(cycleContext, frames)`.
    public static let cycleFunction: @convention(c) (UnsafeMutableRawPointer?, UInt32) -> Void = EngineCycle.function

    /// Runs one cycle on the calling thread (offline rendering and tests). Never concurrently with a backend.
    public func renderCycle(frames: Int) {
        EngineCycle.run(state, frames: frames)
    }

    // MARK: Control

    /// Queues `graph` to replace the current one at the next cycle boundary, fading between them
    /// (the fade length is clamped to 0…``Crossfade/maxDuration``; a non-finite one means no fade).
    /// A swap queued while a fade runs waits for it to end. A graph that continues units of its predecessor
    /// must be installed while that predecessor is the running graph (``runningGraph``), else it throws
    /// ``EngineError/predecessorNotRunning`` (build it afresh then).
    ///
    /// The first graph installed starts at once, without a fade. The replaced graph is freed by a later
    /// ``collectGarbage()`` once the audio thread has let go of it.
    public func install(_ graph: EngineGraph, crossfade: Crossfade = .quick) throws(EngineError) {
        let needed = graph.render.pointee.inputChannelCount
        guard needed <= configuration.inputCapacity else { throw .tooManyChannels(needed: needed, capacity: configuration.inputCapacity) }
        let outputs = graph.render.pointee.outputChannelCount
        guard outputs <= configuration.outputCapacity else { throw .tooManyChannels(needed: outputs, capacity: configuration.outputCapacity) }
        graph.prepareLanes(configuration.renderThreads - 1)
        if configuration.buildsBinauralMovesOnWorker { graph.buildBinauralMovesOnWorker() }
        graph.render.pointee.activeUnit = unitActivity.slots   // lane 0; published by the swap ring
        let seconds = crossfade.duration.isFinite ? min(max(crossfade.duration, 0), Crossfade.maxDuration) : 0
        let fadeFrames = Int32(clamping: Int((seconds * graph.sampleRate).rounded()))
        let swap = GraphSwap(graph: graph.render, fadeFrames: max(0, fadeFrames), law: crossfade.law)
        try control.withLock { (control: inout ControlState) throws(EngineError) in
            Self.collect(from: state, into: &control)
            let key = UnsafeMutableRawPointer(graph.render)
            guard control.alive[key] == nil, !graph.hasHandedOver else { throw .graphAlreadyInstalled }
            if !graph.continuedUnits.isEmpty {
                guard let latest = control.latest, latest === graph.predecessor, isRunning(latest) else { throw .predecessorNotRunning }
            }
            guard state.pointee.swaps.push(swap) else { throw .swapQueueFull }
            control.alive[key] = graph
            if !graph.continuedUnits.isEmpty { control.latest?.hasHandedOver = true }
            control.latest = graph
            control.values = [:]
        }
    }

    /// The graph most recently installed (current, or about to be).
    public var graph: EngineGraph? { control.withLock { $0.latest } }

    /// The graph most recently installed if the audio thread has taken it (no swap is pending): the one a
    /// new graph may continue units from (``EngineGraph/init(_:sampleRate:maxFrames:continuing:)``).
    public var runningGraph: EngineGraph? {
        control.withLock { control in control.latest.flatMap { isRunning($0) ? $0 : nil } }
    }

    private func isRunning(_ graph: EngineGraph) -> Bool {
        state.pointee.currentGraph.load(ordering: .acquiring) == Int(bitPattern: graph.render)
    }

    /// Queues a parameter change for the most recently installed graph; it is smoothed on the audio thread.
    /// A host-side address (``ParameterAddress/host(_:)``) goes to the ``HostParameterApplier`` instead.
    public func set(_ address: ParameterAddress, to value: Float) throws(EngineError) {
        if case let .host(parameter) = address { return try setHost(parameter, to: value) }
        try control.withLock { (control: inout ControlState) throws(EngineError) in
            guard let latest = control.latest else { throw .noGraph }
            let change = try latest.change(for: address, value: value)
            guard state.pointee.parameters.push(change) else { throw .parameterQueueFull }
            if case let .stripTrimCompensated(strip) = address {
                // Kept as the trim plus the compensation it added, as the audio thread holds them.
                let trim = control.values[.stripTrim(strip: strip)] ?? latest.description.strips[strip].trimDB
                let compensation = control.values[.stripTrimCompensation(strip: strip)] ?? 0
                control.values[.stripTrimCompensation(strip: strip)] = compensation - (value - trim)
                control.values[.stripTrim(strip: strip)] = value
            } else if address == .cueClear {
                control.values = control.values.filter { !$0.key.isCueSelection }
            } else {
                control.values[address] = value
            }
            control.changeCount += 1
        }
    }

    /// The value last set at `address` since the latest graph was installed, or nil if none was
    /// (the graph still has the value its description gave it). A compensated trim reads as the trim.
    /// A host-side address reads the applier's value in force when it has one.
    public func value(at address: ParameterAddress) -> Float? {
        if case let .stripTrimCompensated(strip) = address { return value(at: .stripTrim(strip: strip)) }
        if case let .host(parameter) = address, let live = control.withLock({ $0.hostApplier })?.value(of: parameter) { return live }
        return control.withLock { $0.values[address] }
    }

    /// Makes `applier` apply host-side parameters (a live show's file players and take); held weakly.
    public func setHostApplier(_ applier: (any HostParameterApplier)?) {
        control.withLock { $0.hostApplier = applier }
    }

    /// Hands a host-side change to the applier (outside the lock: it may take its own) and keeps it for ``changedValues``.
    private func setHost(_ parameter: HostParameter, to value: Float) throws(EngineError) {
        guard !value.isNaN else { throw .valueOutOfRange(parameter: "\(parameter)", value: value, range: 0...0) }
        guard let applier = control.withLock({ $0.hostApplier }) else {
            throw .hostParameterRefused(parameter.refusedWithoutShow)
        }
        try applier.apply(parameter, value: value)
        control.withLock {
            $0.values[.host(parameter)] = value
            $0.changeCount += 1
        }
    }

    /// Every value set since the latest graph was installed, by address.
    public var changedValues: [ParameterAddress: Float] { control.withLock { $0.values } }

    /// Parameter changes accepted so far (grows by one per successful ``set(_:to:)``; never resets).
    public var parameterChangeCount: Int { control.withLock { $0.changeCount } }

    /// Frees graphs the audio thread has retired. Call from a non-realtime thread, e.g. ten times a second.
    public func collectGarbage() {
        control.withLock { Self.collect(from: state, into: &$0) }
    }

    private static func collect(from state: UnsafeMutablePointer<EngineRealtimeState>, into control: inout ControlState) {
        while let retired = state.pointee.retired.pop() {
            control.alive[UnsafeMutableRawPointer(retired)] = nil
        }
    }

    /// Graphs still held for the audio thread (current, fading, queued or retired but not yet collected).
    public var liveGraphCount: Int { control.withLock { $0.alive.count } }

    /// Meter readings of the most recently installed graph (empty before the first install).
    public func meters() -> MeterSnapshot {
        graph?.meters() ?? MeterSnapshot(strips: [], buses: [], units: [])
    }

    /// Cycles run so far.
    public var cycleCount: Int { state.pointee.cycles.load(ordering: .relaxed) }

    /// Parameter changes dropped because their graph had been replaced before the audio thread saw them.
    public var droppedChangeCount: Int { state.pointee.droppedChanges.load(ordering: .relaxed) }
}
