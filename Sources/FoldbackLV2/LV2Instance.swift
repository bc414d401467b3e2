// One instantiated LV2 plugin: lilv instance, features, port buffers and its realtime record. Non-realtime (setup and teardown).
// SPDX-License-Identifier: GPL-3.0-or-later
internal import CLilv
import Atomics
import Glibc

/// A live plugin instance and the memory its ports use. Instantiated and freed off the audio thread;
/// the audio thread only touches ``render``.
final class LV2Instance: @unchecked Sendable {
    let info: LV2PluginInfo
    let world: LV2World
    let instance: UnsafeMutablePointer<LilvInstance>
    let features: LV2HostFeatures
    let worker: LV2Worker
    let log: LV2Log
    /// The realtime record; its pointers stay valid until this object is released.
    private(set) var render: LV2InstanceRender
    private var rawAllocations: [UnsafeMutableRawPointer] = []
    /// Size of each atom port's buffer, bytes (or the plugin's `rsz:minimumSize` when larger).
    static let atomBufferSize = 8192

    /// Instantiates the plugin at `sampleRate` for blocks of up to `maxFrames`. Audio input port `k`
    /// of `inputs` reads engine input channel `inputs[k].channel`; unlisted audio and CV inputs read
    /// silence and unlisted outputs write a scratch buffer.
    init(
        world: LV2World, info: LV2PluginInfo, sampleRate: Double, maxFrames: Int, hosting: PluginHosting,
        inputs: [(port: Int, channel: Int)], outputs: [(port: Int, channel: Int)]
    ) throws(LV2Error) {
        if let missing = LV2HostFeatures.firstUnsupported(info.requiredFeatures) {
            throw .unsupportedFeature(plugin: info.uri, feature: missing)
        }
        self.info = info
        self.world = world
        worker = LV2Worker(hosting: hosting)
        log = LV2Log(plugin: info.uri, urids: world.urids)
        let atomSize = info.ports.filter { $0.kind == .atom }.compactMap(\.minimumSize).reduce(Self.atomBufferSize, max)
        features = LV2HostFeatures(
            urids: world.urids, worker: worker, log: log, sampleRate: sampleRate, maxFrames: maxFrames,
            nominalFrames: min(hosting.nominalBlockLength ?? maxFrames, maxFrames), sequenceSize: atomSize)
        let features = features
        let instantiated: Result<UnsafeMutablePointer<LilvInstance>, LV2Error> = world.withWorld { lilvWorld in
            guard let plugin = LV2World.find(info.uri, in: lilvWorld) else {
                return .failure(.unknownPlugin(uri: info.uri, closest: []))
            }
            if let library = LV2PluginReader.string(lilv_plugin_get_library_uri(plugin)).map(LV2PluginReader.path(fromFileURI:)) {
                guard access(library, R_OK) == 0 else {
                    return .failure(.instantiationFailed(plugin: info.uri, reason: "its binary \(library) is missing or unreadable"))
                }
                world.keepLoaded(library: library)   // never unloaded between switches
            }
            guard let instance = lilv_plugin_instantiate(plugin, sampleRate, features.array) else {
                return .failure(.instantiationFailed(plugin: info.uri, reason: "the plugin's instantiate failed (see lilv's message above)"))
            }
            return .success(instance)
        }
        instance = try instantiated.get()
        let descriptor = instance.pointee.lv2_descriptor!
        let handle = instance.pointee.lv2_handle
        guard let connect = descriptor.pointee.connect_port, let run = descriptor.pointee.run else {
            lilv_instance_free(instance)
            throw .invalidPlugin(plugin: info.uri, reason: "its descriptor has no connect_port or run")
        }
        let urids = world.urids
        render = LV2InstanceRender(
            handle: handle, connect: connect, run: run, endRun: nil,
            activate: descriptor.pointee.activate, deactivate: descriptor.pointee.deactivate,
            inputPorts: .allocate(capacity: 1), inputChannels: .allocate(capacity: 1), inputCount: 0,
            outputPorts: .allocate(capacity: 1), outputChannels: .allocate(capacity: 1), outputCount: 0,
            atomInputs: .allocate(capacity: 1), atomInputCount: 0,
            atomOutputs: .allocate(capacity: 1), atomOutputCapacities: .allocate(capacity: 1), atomOutputCount: 0,
            sequenceType: urids.map(LV2URI.atomSequence), chunkType: urids.map(LV2URI.atomChunk),
            controls: .allocate(capacity: max(1, info.ports.count)),
            publishedPorts: .allocate(capacity: 1), published: .allocate(capacity: 1), publishedCount: 0,
            worker: worker.state)
        layOutPorts(inputs: inputs, outputs: outputs, atomSize: atomSize)
        let workerInterface = descriptor.pointee.extension_data?(LV2URI.workerInterface)
        worker.attach(interface: workerInterface?.assumingMemoryBound(to: LV2_Worker_Interface.self), pluginHandle: handle)
        if workerInterface != nil {
            render.endRun = workerInterface!.assumingMemoryBound(to: LV2_Worker_Interface.self).pointee.end_run
        }
        // Plugins read options at instantiation; those with the options interface are also told through `set`.
        if let options = extensionData(LV2URI.optionsInterface)?.assumingMemoryBound(to: LV2_Options_Interface.self),
           let set = options.pointee.set {
            _ = set(handle, features.optionList)
        }
        log.start()   // only now: a failed init above must not leave the log registered
        descriptor.pointee.activate?(handle)
    }

    deinit {
        worker.detach()
        instance.pointee.lv2_descriptor.pointee.deactivate?(instance.pointee.lv2_handle)
        lilv_instance_free(instance)
        log.stop()
        render.inputPorts.deallocate(); render.inputChannels.deallocate()
        render.outputPorts.deallocate(); render.outputChannels.deallocate()
        render.atomInputs.deallocate(); render.atomOutputs.deallocate(); render.atomOutputCapacities.deallocate()
        render.controls.deallocate(); render.publishedPorts.deallocate()
        for index in 0..<render.publishedCount { render.published[index].destroy() }
        render.published.deallocate()
        rawAllocations.forEach { $0.deallocate() }
    }

    /// Sets up every port's buffer: control values at their defaults, control and atom ports connected once.
    private func layOutPorts(inputs: [(port: Int, channel: Int)], outputs: [(port: Int, channel: Int)], atomSize: Int) {
        let streams = info.ports.filter { $0.kind == .audio || $0.kind == .cv }
        let ins = streams.filter(\.isInput), outs = streams.filter { !$0.isInput }
        replace(&render.inputPorts, with: ins.map { UInt32($0.index) })
        replace(&render.inputChannels, with: ins.map { port in Int32(inputs.first { $0.port == port.index }?.channel ?? -1) })
        render.inputCount = ins.count
        replace(&render.outputPorts, with: outs.map { UInt32($0.index) })
        replace(&render.outputChannels, with: outs.map { port in Int32(outputs.first { $0.port == port.index }?.channel ?? -1) })
        render.outputCount = outs.count
        for port in info.ports {
            let value = port.defaultValue ?? port.range?.lowerBound ?? 0
            (render.controls + port.index).initialize(to: value.isFinite ? value : 0)
            if port.kind == .control { render.connect(render.handle, UInt32(port.index), render.controls + port.index) }
        }
        let atoms = info.ports.filter { $0.kind == .atom }
        var atomIns: [UnsafeMutableRawPointer] = [], atomOuts: [UnsafeMutableRawPointer] = []
        for port in atoms {
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: atomSize, alignment: 16)
            buffer.initializeMemory(as: UInt8.self, repeating: 0, count: atomSize)
            rawAllocations.append(buffer)
            render.connect(render.handle, UInt32(port.index), buffer)
            if port.isInput { atomIns.append(buffer) } else { atomOuts.append(buffer) }
        }
        replace(&render.atomInputs, with: atomIns)
        render.atomInputCount = atomIns.count
        replace(&render.atomOutputs, with: atomOuts)
        replace(&render.atomOutputCapacities, with: atomOuts.map { _ in UInt32(atomSize) })
        render.atomOutputCount = atomOuts.count
        let meters = info.controlOutputs
        replace(&render.publishedPorts, with: meters.map { UInt32($0.index) })
        render.published.deallocate()
        render.published = .allocate(capacity: max(1, meters.count))
        for (offset, _) in meters.enumerated() { (render.published + offset).initialize(to: .create(0)) }
        render.publishedCount = meters.count
    }

    private func replace<Element>(_ pointer: inout UnsafeMutablePointer<Element>, with values: [Element]) {
        pointer.deallocate()
        pointer = .allocate(capacity: max(1, values.count))
        pointer.initialize(from: values, count: values.count)
    }

    /// The last published value of control output `portIndex`.
    func publishedValue(ofPort portIndex: Int) -> Float? {
        for index in 0..<render.publishedCount where Int(render.publishedPorts[index]) == portIndex {
            return Float(bitPattern: render.published[index].load(ordering: .relaxed))
        }
        return nil
    }

    /// The plugin's extension data for `uri` (an interface struct), if it offers one.
    func extensionData(_ uri: String) -> UnsafeRawPointer? {
        instance.pointee.lv2_descriptor.pointee.extension_data?(uri)
    }
}

extension LV2Instance {
    /// Sets control input `symbol` (ignored if the plugin has no such port). Before the instance runs only.
    func setControl(_ symbol: String, to value: Float) {
        guard let port = info.port(symbol: symbol), port.kind == .control else { return }
        render.controls[port.index] = value
    }

    /// Deactivates and reactivates the plugin, clearing its internal state. Off the audio thread only.
    func restart() {
        render.restart()
    }
}
