// An LV2 plugin occurrence in a strip, on the engine's unit interface. Setup non-realtime; render functions (LV2UnitRender) realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
internal import CLilv
public import FoldbackEngine
import Logging
import Synchronization

/// One LV2 plugin in a strip: one instance, or two (dual mono) when a mono plugin sits on a stereo strip.
///
/// Live parameters are the plugin's control inputs, keyed by port symbol, in port order; a change is
/// written to the control port at the start of the next cycle (plugins smooth their own controls).
/// Control outputs (a compressor's gain reduction, levels) are published by ``meterReadings()``, keyed
/// by symbol (`symbol_2` for the second instance). The latency port sets the render slot's latency.
/// The engine's NaN/Inf guard resets the unit by restarting its plugins off the audio thread and fading
/// them back in (see LV2UnitRestart.swift).
public final class LV2Unit: EngineUnit, @unchecked Sendable {
    /// The plugin URI.
    public let typeName: String
    /// The plugin's description.
    public let info: LV2PluginInfo
    public let parameters: [ParameterDescriptor]
    private let world: LV2World
    let hosting: PluginHosting
    let controls: [String: Float]
    let presetURI: String?
    let stateFile: String?
    let rightStateFile: String?
    let inputSymbols: [String]?
    let outputSymbols: [String]?
    /// One instance, or two (left, right) for a dual-mono pair.
    private(set) var instances: [LV2Instance] = []
    private var render: UnsafeMutablePointer<LV2UnitRender>?
    /// How the instances were set up: what a successor must match to continue them.
    private var setup: Setup?
    /// The instances' restart request: shared with (and kept alive by) a unit that continues them.
    private var restartFlag = LV2RestartFlag()
    private static let logger = Logger(label: "foldback.lv2")
    /// Plugins already warned about (not hardRTCapable): once per plugin and process, not at every song change.
    private static let warnedNotRealtime = Mutex<Set<String>>([])

    /// Counts the plugins `uris` as warned about already (lv2:hardRTCapable): a plugin sandbox hosts what Foldback's own
    /// process built, and warned about, first.
    public static func assumeWarned(about uris: [String]) {
        warnedNotRealtime.withLock { $0.formUnion(uris) }
    }

    /// The plugin `uri`. Its state is restored in this order when it is prepared: the plugin's default
    /// state, the LV2 `preset` (label or URI), the saved `stateFile` (from ``saveState(to:)``; for the
    /// right instance of a dual-mono pair `rightStateFile` when given), then the control inputs in
    /// `controls` (by symbol). `inputs`/`outputs` choose audio ports by symbol
    /// when the plugin's layout is ambiguous. Throws for an unknown URI, preset or control symbol, an
    /// out-of-range value or an unsupported required feature.
    public init(
        uri: String, controls: [String: Float] = [:], preset: String? = nil, stateFile: String? = nil, rightStateFile: String? = nil,
        inputs: [String]? = nil, outputs: [String]? = nil, hosting: PluginHosting = .live, world: LV2World = .shared
    ) throws(LV2Error) {
        let info = try world.plugin(uri: uri)
        if let preset, info.preset(named: preset) == nil {
            throw .unknownPreset(plugin: uri, preset: preset, available: info.presets.map(\.label))
        }
        presetURI = preset.flatMap { info.preset(named: $0)?.uri }
        self.stateFile = stateFile
        self.rightStateFile = rightStateFile
        if let missing = LV2HostFeatures.firstUnsupported(info.requiredFeatures) {
            throw .unsupportedFeature(plugin: uri, feature: missing)
        }
        for (symbol, value) in controls {
            guard let port = info.controlInputs.first(where: { $0.symbol == symbol }) else {
                throw .unknownControl(plugin: uri, symbol: symbol, available: info.controlInputs.map(\.symbol))
            }
            if let range = port.range, !range.contains(value) {
                throw .controlOutOfRange(plugin: uri, symbol: symbol, value: value, range: range)
            }
        }
        if !info.isHardRTCapable, Self.warnedNotRealtime.withLock({ $0.insert(uri).inserted }) {
            Self.logger.warning("LV2 plugin \(uri) does not declare lv2:hardRTCapable; it may not be safe for live use")
        }
        self.typeName = uri
        self.info = info
        self.world = world
        self.hosting = hosting
        self.controls = controls
        self.inputSymbols = inputs
        self.outputSymbols = outputs
        parameters = Self.parameters(of: info)
    }

    /// The plugin's control inputs as parameters: range, default, unit, toggles, integers, enumerations and
    /// log scales as its data declares them (the one declaration presets, OSC, MIDI and pages read).
    public static func parameters(of info: LV2PluginInfo) -> [ParameterDescriptor] {
        info.controlInputs.map { port in
            let range = port.range ?? -Float.greatestFiniteMagnitude...Float.greatestFiniteMagnitude
            let value = port.defaultValue ?? range.lowerBound
            let type: ParameterValueType = port.isToggled ? .toggle : port.isInteger ? .integer : .number
            let choices = port.isEnumeration ? port.scalePoints.map { ParameterChoice(name: $0.label, value: $0.value) } : []
            let curve: ParameterCurve? = port.isLogarithmic ? .logarithmic : port.unit == "dB" ? .decibels : nil
            return ParameterDescriptor(
                key: port.symbol, range: range, defaultValue: range.contains(value) ? value : range.lowerBound, type: type,
                choices: choices, unit: port.unit ?? "", curve: curve ?? .linear, isSmoothed: false, summary: port.name)
        }
    }

    deinit {
        guard let render else { return }
        if !hosting.isSynchronous { LV2WorkerThread.shared.unregister(restartsOf: render) }
        render.pointee.instances.deallocate()
        render.pointee.silence.deallocate()
        render.pointee.scratch.deallocate()
        render.pointee.parameterPorts.deallocate()
        render.deallocate()
    }

    public func prepare(channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitRenderSlot {
        guard render == nil else { throw .unitSetupFailed(unit: typeName, reason: "already prepared; build a new unit for each graph") }
        do {
            let layout = try LV2ChannelLayout.plan(info, channels: channels, inputSymbols: inputSymbols, outputSymbols: outputSymbols)
            for index in layout.inputs.indices {
                let instance = try LV2Instance(
                    world: world, info: info, sampleRate: sampleRate, maxFrames: maxFrames, hosting: hosting,
                    inputs: layout.inputs[index].map { ($0.port, $0.channel) }, outputs: layout.outputs[index].map { ($0.port, $0.channel) })
                try instance.restore(.pluginDefault)
                if let presetURI { try instance.restore(.preset(uri: presetURI)) }
                if let file = index == 1 ? rightStateFile ?? stateFile : stateFile { try instance.restore(.file(path: file)) }
                let restored = info.controlInputs.map { instance.render.controls[$0.index] }
                for (symbol, value) in controls { instance.setControl(symbol, to: value) }
                instances.append(instance)
                if setup == nil {
                    setup = Setup(layout: layout, sampleRate: sampleRate, maxFrames: maxFrames, latency: 0, restoredValues: restored)
                }
            }
            if let rightStateFile, instances.count < 2 {
                Self.logger.warning("\(typeName) runs as one instance here: its state_right \(rightStateFile) is ignored")
            }
            let state = makeRender(maxFrames: maxFrames, outputChannels: layout.slotOutputs, sampleRate: sampleRate, restartFlag: restartFlag)
            render = state
            setup?.latency = measureLatency(state, maxFrames: maxFrames)
            if !hosting.isSynchronous { LV2WorkerThread.shared.register(restartsOf: state) }
            return slot(state)
        } catch {
            throw .unitSetupFailed(unit: typeName, reason: error.description)
        }
    }

    /// Whether a restart the NaN guard asked for is still waiting for the worker thread (tests and diagnostics).
    var isRestartPending: Bool { render?.pointee.isRestartPending ?? false }

    private func slot(_ state: UnsafeMutablePointer<LV2UnitRender>) -> UnitRenderSlot {
        UnitRenderSlot(
            functions: LV2UnitRender.functions, state: UnsafeMutableRawPointer(state),
            inputChannels: setup?.layout.slotInputs ?? 1, outputChannels: setup?.layout.slotOutputs ?? 1, latencyFrames: setup?.latency ?? 0,
            selfBypassParameter: info.controlInputs.firstIndex(where: \.isEnabledDesignation))
    }

    /// Continues `predecessor`'s instances (their tails and state) when it is the same plugin with the same
    /// LV2 preset, state file, hosting, format and channel layout; only control values may differ. The
    /// instances are shared, not touched: they run in the predecessor until the engine's takeover, which
    /// then writes this unit's control values (the preset's, else those the state restore gave).
    public func prepare(continuing predecessor: any EngineUnit, channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitContinuation? {
        guard render == nil, let old = predecessor as? LV2Unit, old !== self, old.typeName == typeName,
              old.presetURI == presetURI, old.stateFile == stateFile, old.rightStateFile == rightStateFile, old.hosting == hosting,
              old.inputSymbols == inputSymbols, old.outputSymbols == outputSymbols,
              let setup = old.setup, !old.instances.isEmpty, setup.sampleRate == sampleRate, setup.maxFrames == maxFrames,
              let layout = try? LV2ChannelLayout.plan(info, channels: channels, inputSymbols: inputSymbols, outputSymbols: outputSymbols),
              layout == setup.layout
        else { return nil }
        instances = old.instances
        self.setup = setup
        restartFlag = old.restartFlag
        let state = makeRender(maxFrames: maxFrames, outputChannels: setup.layout.slotOutputs, sampleRate: sampleRate, restartFlag: restartFlag)
        render = state
        if !hosting.isSynchronous { LV2WorkerThread.shared.register(restartsOf: state) }
        let values = info.controlInputs.enumerated().map { offset, port in controls[port.symbol] ?? setup.restoredValues[offset] }
        return UnitContinuation(slot: slot(state), parameterValues: values)
    }

    /// Each control's value after the plugin's default state, LV2 preset and state file were restored, before the unit's
    /// own `controls` (a unit continuing this one takes these for the controls it does not set); nil until prepared.
    public var restoredControlValues: [Float]? { setup?.restoredValues }

    /// Identities of the plugin instances this unit runs: a unit that continued another's has the same ones.
    public var instanceIdentifiers: [ObjectIdentifier] { instances.map(ObjectIdentifier.init) }

    /// The nominal block length each instance was given (tests and diagnostics).
    var nominalBlockLengths: [Int] { instances.map(\.features.nominalBlockLength) }

    public func meterReadings() -> [UnitMeterReading] {
        var readings: [UnitMeterReading] = []
        for (offset, instance) in instances.enumerated() {
            for port in info.controlOutputs where port.index != info.latencyPortIndex {
                guard let value = instance.publishedValue(ofPort: port.index) else { continue }
                readings.append(UnitMeterReading(key: offset == 0 ? port.symbol : "\(port.symbol)_\(offset + 1)", value: value))
            }
        }
        return readings
    }

    /// The control outputs ``meterReadings()`` publishes, keyed as it keys them (`symbol_2` for a dual-mono
    /// pair's right instance), with each port's range, unit and name from lilv.
    public var meterDescriptors: [ParameterDescriptor] { meterDescriptors(instances: max(1, instances.count)) }

    /// Copies what ``meterReadings()`` reads, in its order (each instance's control outputs but the latency port), as
    /// float bits to `store(index, bits)`: how a sandbox hands its plugins' meters to Foldback after each cycle.
    /// Realtime: atomic loads, no allocation.
    public func publishMeters(_ store: (Int, UInt32) -> Void) {
        let latencyPort = info.latencyPortIndex ?? -1
        var index = 0
        for instance in instances {
            for offset in 0..<instance.render.publishedCount where Int(instance.render.publishedPorts[offset]) != latencyPort {
                store(index, instance.render.published[offset].load(ordering: .relaxed))
                index += 1
            }
        }
    }

    /// ``meterDescriptors`` for `count` instances.
    func meterDescriptors(instances count: Int) -> [ParameterDescriptor] {
        let ports = info.controlOutputs.filter { $0.index != info.latencyPortIndex }
        return (0..<count).flatMap { offset in
            ports.map { port in
                let range = port.range ?? -Float.greatestFiniteMagnitude...Float.greatestFiniteMagnitude
                return ParameterDescriptor(
                    key: offset == 0 ? port.symbol : "\(port.symbol)_\(offset + 1)", range: range, defaultValue: port.defaultValue ?? range.lowerBound,
                    unit: port.unit ?? "", curve: .linear, isSmoothed: false, summary: offset == 0 ? port.name : "\(port.name) (right)")
            }
        }
    }

    private func makeRender(
        maxFrames: Int, outputChannels: Int, sampleRate: Double, restartFlag: LV2RestartFlag
    ) -> UnsafeMutablePointer<LV2UnitRender> {
        let records = UnsafeMutablePointer<LV2InstanceRender>.allocate(capacity: instances.count)
        for (offset, instance) in instances.enumerated() { (records + offset).initialize(to: instance.render) }
        let silence = UnsafeMutablePointer<Float>.allocate(capacity: maxFrames)
        silence.initialize(repeating: 0, count: maxFrames)
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: maxFrames)
        scratch.initialize(repeating: 0, count: maxFrames)
        let ports = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, info.controlInputs.count))
        for (offset, port) in info.controlInputs.enumerated() { (ports + offset).initialize(to: UInt32(port.index)) }
        let fadeFrames = max(1, Int((LV2UnitRender.fadeTime * sampleRate).rounded()))
        let state = UnsafeMutablePointer<LV2UnitRender>.allocate(capacity: 1)
        state.initialize(to: LV2UnitRender(
            instances: records, instanceCount: instances.count, silence: silence, scratch: scratch,
            parameterPorts: ports, parameterCount: info.controlInputs.count, outputChannelCount: outputChannels,
            restartState: restartFlag.state, isSynchronous: hosting.isSynchronous,
            fadeFrames: fadeFrames, fadePosition: fadeFrames))
        return state
    }

    /// Runs each instance once on silence (the latency port is only valid after a run), reads the
    /// latency, then restarts the instances so the warm-up leaves no trace.
    private func measureLatency(_ state: UnsafeMutablePointer<LV2UnitRender>, maxFrames: Int) -> Int {
        guard let port = info.latencyPortIndex else { return 0 }
        let frames = min(maxFrames, 256)
        let inputs = [UnsafePointer<Float>](repeating: UnsafePointer(state.pointee.silence), count: 2)
        let outputs = [UnsafeMutablePointer<Float>](repeating: state.pointee.scratch, count: 2)
        var latency: Float = 0
        for index in 0..<state.pointee.instanceCount {
            state.pointee.instances[index].process(
                inputs: inputs, outputs: outputs, silence: state.pointee.silence, scratch: state.pointee.scratch, frames: Int32(frames))
            latency = max(latency, state.pointee.instances[index].controls[port])
            instances[index].restart()
        }
        return latency.isFinite ? max(0, Int(latency.rounded())) : 0
    }
}

extension LV2Unit {
    /// What a unit's instances were prepared with.
    private struct Setup {
        var layout: LV2ChannelLayout
        var sampleRate: Double
        var maxFrames: Int
        var latency: Int
        /// Control input values after the state restores, before the preset's `controls`, in port order.
        var restoredValues: [Float]
    }
}

extension LV2Unit {
    /// Whether Foldback can satisfy a plugin's required `feature` URI.
    public static func isSupported(feature: String) -> Bool {
        LV2HostFeatures.firstUnsupported([feature]) == nil
    }
}

extension LV2Unit {
    /// The current value of control input `symbol` in instance `instance` (0, or 1 for the right one of a
    /// dual-mono pair), for reports and tests. Read without synchronisation: a value the audio thread is
    /// writing may read as the old one.
    public func controlValue(_ symbol: String, instance: Int = 0) -> Float? {
        guard let port = info.controlInputs.first(where: { $0.symbol == symbol }), instances.indices.contains(instance) else { return nil }
        return instances[instance].render.controls[port.index]
    }
}
