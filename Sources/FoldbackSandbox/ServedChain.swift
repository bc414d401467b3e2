// The plugins a sandbox process hosts (one, or a strip's chain) and its serve loop over the shared channel. The cycle is realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackSandbox
import FoldbackEngine
import FoldbackLV2

/// The units a sandbox hosts, in chain order, their render slots and the pointers into the channel, set up before
/// serving. The first plugin reads the channel's inputs; each later one the outputs of the one before (channel `c` from
/// `min(c, count - 1)`, as Foldback's engine flows channels through a strip). Each writes its own outputs in the channel.
/// Sendable: its audio thread runs the cycles, its command thread only asks a plugin for its state (which LV2 allows
/// beside `run`).
final class ServedChain: @unchecked Sendable {
    /// One plugin's realtime record.
    struct Stage {
        var slot: UnitRenderSlot
        var inputs: UnsafeMutablePointer<UnsafePointer<Float>>
        var outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
        /// What the plugin's outputs are when it is bypassed: the signal before it, channel for channel.
        var dry: UnsafeMutablePointer<UnsafePointer<Float>>
        var parameterOffset: Int
        var parameterCount: Int
        /// The channel's word the engine's bypass writes for this plugin (1 processing, 0 bypassed), or −1 (a plugin
        /// alone in its sandbox, or one with its own `lv2:enabled` port).
        var bypassWord: Int
        /// The crossfade around a bypassed plugin: 1 its output, 0 the dry signal; NaN before the first cycle, which
        /// starts where the engine's bypass is (a unit the preset bypasses starts bypassed, as in Foldback's process).
        var wet: Float = .nan
        /// The plugin, for its meters (held by ``units``), and where its meters start in the channel.
        var unit: Unmanaged<LV2Unit>
        var meterOffset: Int
    }

    let units: [LV2Unit]
    let channel: SandboxChannel
    private let stages: UnsafeMutablePointer<Stage>
    private let stageCount: Int
    private let applied: UnsafeMutablePointer<Float>
    private let wordCount: Int
    /// The bypass crossfade's step per frame (5 ms, as the engine's).
    private let bypassStep: Float
    /// The chain's latency in frames.
    let latencyFrames: Int
    /// The request word when this sandbox started, read before it reports ready: it serves the requests after it.
    private var firstRequest: UInt32 = 0
    /// The resets Foldback requested so far, as this sandbox has acted on them.
    private var resets: UInt32 = 0
    /// Set by a cycle that passed a reset to the plugins: their restart is the LV2 worker thread's, woken after the cycle.
    private var restartRequested = false

    init(configuration: SandboxConfiguration, channel: SandboxChannel) throws {
        let grouped = configuration.plugins.count > 1
        var units: [LV2Unit] = [], built: [Stage] = []
        var flowing = configuration.channels, outputOffset = 0, parameterOffset = 0, meterOffset = 0
        var previous: [UnsafePointer<Float>] = (0..<channel.inputChannels).map { UnsafePointer(fb_sandbox_input(channel.shared, UInt32($0))!) }
        for recipe in configuration.plugins {
            let unit = try LV2Unit(recipe: recipe, hosting: configuration.hosting)
            let slot = try unit.prepare(channels: flowing, sampleRate: configuration.sampleRate, maxFrames: configuration.maxFrames)
            guard outputOffset + slot.outputChannels <= channel.outputChannels, units.count > 0 || slot.inputChannels == channel.inputChannels else {
                throw SandboxError.channel(reason: "the plugins take \(slot.inputChannels) in, \(slot.outputChannels) out; the channel was made "
                    + "for \(channel.inputChannels) in, \(channel.outputChannels) out")
            }
            let outputs = (0..<slot.outputChannels).map { fb_sandbox_output(channel.shared, UInt32(outputOffset + $0))! }
            let enabled = unit.info.controlInputs.firstIndex(where: \.isEnabledDesignation)
            built.append(Stage(
                slot: slot, inputs: Self.pointers((0..<slot.inputChannels).map { previous[min($0, previous.count - 1)] }),
                outputs: Self.pointers(outputs), dry: Self.pointers((0..<slot.outputChannels).map { previous[min($0, previous.count - 1)] }),
                parameterOffset: parameterOffset, parameterCount: unit.parameters.count,
                bypassWord: grouped && enabled == nil ? parameterOffset + unit.parameters.count : -1,
                unit: .passUnretained(unit), meterOffset: meterOffset))
            units.append(unit)
            previous = outputs.map { UnsafePointer($0) }
            flowing = slot.outputChannels
            outputOffset += slot.outputChannels
            parameterOffset += unit.parameters.count + (grouped ? 1 : 0)
            meterOffset += unit.meterDescriptors.count
        }
        guard outputOffset == channel.outputChannels, parameterOffset == channel.parameterCount, configuration.maxFrames <= channel.maxFrames else {
            throw SandboxError.channel(reason: "the plugins have \(outputOffset) outputs and \(parameterOffset) controls; the channel was made "
                + "for \(channel.outputChannels) and \(channel.parameterCount)")
        }
        self.units = units
        self.channel = channel
        stageCount = built.count
        stages = .allocate(capacity: built.count)
        stages.initialize(from: built, count: built.count)
        wordCount = parameterOffset
        applied = .allocate(capacity: max(1, wordCount))
        applied.initialize(repeating: .nan, count: max(1, wordCount))
        bypassStep = Float(1 / max(1, (0.005 * configuration.sampleRate).rounded()))
        latencyFrames = built.reduce(0) { $0 + $1.slot.latencyFrames }
        // What each plugin's default state, LV2 preset and state file gave its controls, for a unit continuing this sandbox.
        for (stage, unit) in zip(built, units) {
            for (index, value) in (unit.restoredControlValues ?? []).enumerated() {
                fb_sandbox_set_restored_value(channel.shared, UInt32(stage.parameterOffset + index), value)
            }
        }
        applyParameters()   // a restarted sandbox takes the last values Foldback set
        firstRequest = currentRequest()
        resets = fb_sandbox_resets(channel.shared)
    }

    deinit {
        for index in 0..<stageCount {
            stages[index].inputs.deallocate()
            stages[index].outputs.deallocate()
            stages[index].dry.deallocate()
        }
        stages.deinitialize(count: stageCount)
        stages.deallocate()
        applied.deallocate()
    }

    private static func pointers<Pointer>(_ values: [Pointer]) -> UnsafeMutablePointer<Pointer> {
        let pointer = UnsafeMutablePointer<Pointer>.allocate(capacity: max(1, values.count))
        pointer.initialize(from: values, count: values.count)
        return pointer
    }

    /// Writes every control Foldback changed since the last cycle to its plugin. Realtime.
    private func applyParameters() {
        for stage in 0..<stageCount {
            let offset = stages[stage].parameterOffset
            for index in 0..<stages[stage].parameterCount {
                let value = fb_sandbox_parameter(channel.shared, UInt32(offset + index))
                if value.isNaN || value == applied[offset + index] { continue }
                applied[offset + index] = value
                stages[stage].slot.functions.setParameter(stages[stage].slot.state, Int32(index), value)
            }
        }
    }

    /// The serve loop: waits for Foldback's request, runs ``cycle(frames:)`` in the realtime scope (CFoldbackSandbox), hands
    /// the outputs back; returns once `parentIsGone` after an idle wait.
    func serve(until parentIsGone: () -> Bool) {
        var seen = firstRequest
        let context = Unmanaged.passUnretained(self).toOpaque()
        while true {
            guard fb_sandbox_serve_cycle(channel.shared, &seen, SandboxServer.idleCheckNanoseconds, Self.cycleFunction, context) != 0 else {
                if parentIsGone() { return }
                continue
            }
            // After the cycle's output is handed back, outside its realtime scope (as the wait for the next request): the
            // worker thread polls slowly in a sandbox (SandboxServer), so a restart the cycle asked for wakes it.
            if restartRequested {
                restartRequested = false
                LV2WorkerThreadPolicy.wake()
            }
        }
    }

    /// One cycle (realtime): the controls Foldback changed, a reset it asked for (of any unit: all the chain's plugins
    /// reset), then the plugins in order, each publishing its meters to the channel.
    private func cycle(frames: UInt32) {
        applyParameters()
        let requested = fb_sandbox_resets(channel.shared)
        let reset = requested != resets
        resets = requested
        if reset { restartRequested = true }
        for index in 0..<stageCount {
            let stage = stages + index
            if reset { stage.pointee.slot.functions.reset(stage.pointee.slot.state) }
            run(stage, frames: Int(frames))
            let shared = channel.shared, offset = stage.pointee.meterOffset
            stage.pointee.unit.takeUnretainedValue().publishMeters { index, bits in fb_sandbox_set_meter_bits(shared, UInt32(offset + index), bits) }
        }
    }

    /// One plugin's cycle, with the engine's bypass when the sandbox does it: a 5 ms crossfade to the dry signal, then
    /// the dry signal alone without running the plugin (as the engine skips a bypassed unit). Realtime.
    private func run(_ stage: UnsafeMutablePointer<Stage>, frames: Int) {
        let channels = stage.pointee.slot.outputChannels
        let target: Float = stage.pointee.bypassWord >= 0 && fb_sandbox_parameter(channel.shared, UInt32(stage.pointee.bypassWord)) == 0 ? 0 : 1
        let start = stage.pointee.wet.isNaN ? target : stage.pointee.wet
        stage.pointee.wet = start
        if target == 0, start == 0 {
            for channel in 0..<channels { stage.pointee.outputs[channel].update(from: stage.pointee.dry[channel], count: frames) }
            return
        }
        stage.pointee.slot.functions.process(stage.pointee.slot.state, UnsafePointer(stage.pointee.inputs), UnsafePointer(stage.pointee.outputs), Int32(frames))
        guard start != 1 || target != 1 else { return }
        var wet = start
        for channel in 0..<channels {
            wet = start
            let output = stage.pointee.outputs[channel], dry = stage.pointee.dry[channel]
            for frame in 0..<frames {
                wet = target > wet ? min(target, wet + bypassStep) : max(target, wet - bypassStep)
                output[frame] = dry[frame] + (output[frame] - dry[frame]) * wet
            }
        }
        stage.pointee.wet = wet
    }

    private static let cycleFunction: fb_sandbox_cycle_fn = { context, frames in
        guard let context else { return }
        Unmanaged<ServedChain>.fromOpaque(context).takeUnretainedValue().cycle(frames: frames)
    }

    /// The request word as Foldback last wrote it.
    private func currentRequest() -> UInt32 {
        var seen: UInt32 = 0
        var frames: UInt32 = 0
        // A zero-length wait returns the word at once when it differs from `seen`.
        _ = fb_sandbox_serve_wait(channel.shared, &seen, &frames, 0)
        return seen
    }
}
