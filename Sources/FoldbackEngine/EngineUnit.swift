// The unit interface shared by built-in DSP units and plugins. Setup is non-realtime; the render functions run on the realtime thread.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Realtime entry points of a prepared unit, as C-convention function pointers over an opaque state
/// pointer: the audio thread dispatches through them with no existential, generic or reference counting
/// (the shape of an LV2 descriptor or a PipeWire filter-graph descriptor).
public struct UnitRenderFunctions: Sendable {
    /// Processes `frames` frames from `inputs` into `outputs` (one pointer per channel). Inputs and
    /// outputs never alias. Must not allocate, lock or block.
    public var process: @convention(c) (
        _ state: UnsafeMutableRawPointer,
        _ inputs: UnsafePointer<UnsafePointer<Float>>,
        _ outputs: UnsafePointer<UnsafeMutablePointer<Float>>,
        _ frames: Int32
    ) -> Void
    /// Sets parameter `index` to `value` (in the parameter's own unit); the unit smooths it.
    public var setParameter: @convention(c) (_ state: UnsafeMutableRawPointer, _ index: Int32, _ value: Float) -> Void
    /// Clears internal state (delay lines, envelopes) and jumps smoothers to their targets.
    public var reset: @convention(c) (_ state: UnsafeMutableRawPointer) -> Void
    /// Silence gating (see ``UnitRest``): nil for a unit never gated (LV2 and sandboxed plugins, which may
    /// make sound from silence).
    public var rest: UnitRest?
    /// Starts the chunk's work elsewhere (a plugin sandbox) from `inputs`, called at the start of the chunk before the
    /// engine renders anything, when the unit's input is known then (the first unit of a strip reading its input
    /// ports): the work runs while the engine renders the rest, and ``process`` then collects it, with the same
    /// `inputs` (the unit must still give the right output if they differ, or if no post came). Must not allocate, lock
    /// or block. Nil: the unit has no such work (built-in units, plugins in Foldback's process).
    public var post: (@convention(c) (_ state: UnsafeMutableRawPointer, _ inputs: UnsafePointer<UnsafePointer<Float>>, _ frames: Int32) -> Void)?

    /// Bundles the entry points.
    public init(
        process: @escaping @convention(c) (UnsafeMutableRawPointer, UnsafePointer<UnsafePointer<Float>>, UnsafePointer<UnsafeMutablePointer<Float>>, Int32) -> Void,
        setParameter: @escaping @convention(c) (UnsafeMutableRawPointer, Int32, Float) -> Void,
        reset: @escaping @convention(c) (UnsafeMutableRawPointer) -> Void,
        rest: UnitRest? = nil,
        post: (@convention(c) (UnsafeMutableRawPointer, UnsafePointer<UnsafePointer<Float>>, Int32) -> Void)? = nil
    ) {
        self.process = process
        self.setParameter = setParameter
        self.reset = reset
        self.rest = rest
        self.post = post
    }
}

/// What a prepared unit hands to the realtime graph.
public struct UnitRenderSlot: @unchecked Sendable {
    /// The realtime entry points.
    public var functions: UnitRenderFunctions
    /// The unit's realtime state, owned (allocated and freed) by the unit object.
    public var state: UnsafeMutableRawPointer
    /// Channels the unit reads.
    public var inputChannels: Int
    /// Channels the unit writes (may differ: a stereo plugin on a mono strip makes it stereo).
    public var outputChannels: Int
    /// Latency the unit adds, in frames at the prepared sample rate.
    public var latencyFrames: Int
    /// The index of a parameter through which the unit bypasses itself (LV2's `lv2:enabled` port:
    /// 1 = processing, 0 = bypassed, with the plugin's own click-free transition), or nil. When set, the
    /// engine's bypass writes this parameter instead of crossfading around the unit, and the unit always runs.
    public var selfBypassParameter: Int?
    /// For a unit whose latency is known only once something it started is ready (a plugin sandbox's process): waits
    /// for that, off the audio thread, and returns the latency. The graph calls it after every unit is prepared, so
    /// such units start side by side instead of one after another. Nil: ``latencyFrames`` is known already.
    public var awaitLatency: (@Sendable () -> Int)?

    /// A render slot over `state`.
    public init(
        functions: UnitRenderFunctions, state: UnsafeMutableRawPointer, inputChannels: Int, outputChannels: Int,
        latencyFrames: Int = 0, selfBypassParameter: Int? = nil
    ) {
        self.functions = functions
        self.state = state
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
        self.latencyFrames = latencyFrames
        self.selfBypassParameter = selfBypassParameter
    }
}

/// A processing unit in a strip: a built-in DSP unit or a plugin.
///
/// Lifecycle: the unit object is created and ``prepare(channels:sampleRate:maxFrames:)`` is called off the
/// audio thread while a graph is built; the graph's realtime side only ever touches the returned
/// ``UnitRenderSlot``. The object stays alive as long as its graph and is released on a non-realtime thread
/// after the graph is retired, which is when it must free its state.
public protocol EngineUnit: AnyObject, Sendable {
    /// The unit type as written in presets (`gain`, `eq`, an LV2 URI…).
    var typeName: String { get }
    /// The live-controllable parameters, indexed as in ``UnitRenderFunctions/setParameter``.
    var parameters: [ParameterDescriptor] { get }
    /// Allocates realtime state for a strip of `channels` channels and returns the render slot.
    /// Called once per unit object.
    func prepare(channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitRenderSlot
    /// Prepares this unit to carry on `predecessor`'s running state (a plugin instance with its tail)
    /// instead of starting afresh, when `predecessor` is the same kind of unit set up the same way (only
    /// parameter values may differ) for the same format; returns nil to be prepared afresh with
    /// ``prepare(channels:sampleRate:maxFrames:)``. Called instead of that method, once per unit object.
    /// `predecessor` is still running on the audio thread: its realtime state must not be touched here.
    func prepare(continuing predecessor: any EngineUnit, channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitContinuation?
    /// Values the unit publishes for meters and status (e.g. `gain_reduction_db`), read from any
    /// non-realtime thread; the audio thread publishes them through atomics in the unit's state.
    func meterReadings() -> [UnitMeterReading]
    /// What ``meterReadings()`` publishes, one read-only descriptor per reading key with its range, unit and
    /// name (a plugin's control outputs, as lilv reads them): pages draw them as meters. Empty: none described.
    var meterDescriptors: [ParameterDescriptor] { get }
}

extension EngineUnit {
    /// Most units publish nothing.
    public func meterReadings() -> [UnitMeterReading] { [] }

    /// Most units describe no meters.
    public var meterDescriptors: [ParameterDescriptor] { [] }

    /// Built-in units start afresh in every graph.
    public func prepare(continuing predecessor: any EngineUnit, channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitContinuation? {
        nil
    }
}

/// A unit prepared to carry on its predecessor's running state (see ``EngineUnit/prepare(continuing:channels:sampleRate:maxFrames:)``).
public struct UnitContinuation: @unchecked Sendable {
    /// The render slot; its state runs the predecessor's live processing (same channel counts).
    public var slot: UnitRenderSlot
    /// Every parameter's value in the new graph, by index: written through ``UnitRenderFunctions/setParameter``
    /// on the audio thread when the new graph takes over, as ordinary parameter changes.
    public var parameterValues: [Float]

    /// A continuation with its slot and the values to apply at takeover.
    public init(slot: UnitRenderSlot, parameterValues: [Float]) {
        self.slot = slot
        self.parameterValues = parameterValues
    }
}

/// One value a unit publishes, such as a compressor's gain reduction.
public struct UnitMeterReading: Sendable, Hashable {
    /// What it is, with its unit in the key (`gain_reduction_db`).
    public var key: String
    /// The value.
    public var value: Float

    /// A reading.
    public init(key: String, value: Float) {
        self.key = key
        self.value = value
    }
}
