// An LV2 unit whose plugin runs in a sandbox process: the engine unit Foldback's graph holds. Setup non-realtime; render realtime (C).
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackSandbox
public import FoldbackEngine
public import FoldbackLV2
import Glibc

/// What a sandboxed cycle's unit does when the sandbox is late, gone or produced garbage (the preset's `on_fault`).
public enum SandboxFaultAction: String, Sendable, Equatable, CaseIterable {
    /// The unit passes its input through.
    case bypass
    /// The unit is silent.
    case mute
}

/// How a sandboxed unit waits and falls back.
public struct SandboxOptions: Sendable, Equatable {
    /// The fallback for a cycle without the sandbox's output.
    public var onFault: SandboxFaultAction = .bypass
    /// The wait ends this fraction of the cycle's period after it starts (live).
    public var deadlineFraction: Double = 0.5
    /// Offline rendering waits this long instead (there is no period to keep); nil: live.
    public var offlineTimeout: Duration?
    /// The fade back in after a fallback.
    public var fadeSeconds = 0.02

    /// Options with the fallback `onFault`; `offlineTimeout` for offline rendering.
    public init(onFault: SandboxFaultAction = .bypass, offlineTimeout: Duration? = nil) {
        self.onFault = onFault
        self.offlineTimeout = offlineTimeout
    }
}

/// One ``LV2Unit`` hosted by a `foldback-sandbox` process: the engine unit writes its input to shared memory, wakes the
/// sandbox and collects the same cycle's output before a deadline inside the period (CFoldbackSandbox), so its output
/// is bit-identical to the plugin in Foldback's own process, and a crash, hang or garbage costs this unit alone.
public final class SandboxedUnit: EngineUnit, @unchecked Sendable {
    public var typeName: String { plugin.typeName }
    public var parameters: [ParameterDescriptor] { plugin.parameters }
    /// The plugin as Foldback's own process knows it (its description and recipe; never instantiated here).
    public let plugin: LV2Unit
    /// Who the plugin is in log lines.
    public let label: String
    private let options: SandboxOptions
    private let hosting: PluginHosting
    /// The running sandbox, once prepared (shared with a unit that continues this one across a preset switch, or with
    /// the other units of its ``SandboxGroup``).
    public var process: SandboxProcess? { lease?.process ?? group?.process }
    private var lease: SandboxLease?
    /// The group whose sandbox hosts this unit's plugin with the strip's others (`isolation = "strip"`), and its place in it.
    private let group: SandboxGroup?
    private let member: Int
    /// The format the sandbox was prepared for: what a successor must match to continue it.
    private var format: (channels: Int, sampleRate: Double, maxFrames: Int, inputs: Int, outputs: Int)?
    private var render: UnsafeMutablePointer<fb_sandbox_unit>?
    /// Where the plugin's meters (control outputs) sit in the channel, once prepared.
    private var meters: SandboxMeters?

    /// A sandboxed unit for `plugin` (validated, not prepared), hosted for `hosting`; `owner` (`strip 'vox'`) for log lines.
    public init(plugin: LV2Unit, hosting: PluginHosting, options: SandboxOptions, owner: String? = nil) {
        self.plugin = plugin
        self.hosting = hosting
        self.options = options
        label = "LV2 plugin \(plugin.info.name) <\(plugin.typeName)>" + (owner.map { " on \($0)" } ?? "")
        group = nil
        member = 0
    }

    /// Member `member` of `group` (see ``SandboxGroup/units()``).
    init(group: SandboxGroup, member: Int) {
        plugin = group.plugins[member]
        hosting = group.hosting
        var options = group.options
        options.onFault = group.faultActions[member]
        self.options = options
        label = group.label
        self.group = group
        self.member = member
    }

    deinit {
        render?.deallocate()
    }

    public func prepare(channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitRenderSlot {
        guard render == nil else { throw .unitSetupFailed(unit: typeName, reason: "already prepared; build a new unit for each graph") }
        if let group {
            let (process, layout, launched) = try group.prepare(member: member, channels: channels, sampleRate: sampleRate, maxFrames: maxFrames)
            // The engine's bypass of a plugin without an `lv2:enabled` port goes to the sandbox (the word after its controls),
            // which crossfades around the plugin inside the chain.
            let bypass = plugin.info.controlInputs.firstIndex(where: \.isEnabledDesignation) ?? plugin.parameters.count
            meters = layout.meters
            return makeSlot(
                process, inputs: layout.inputs, outputs: layout.outputs, sampleRate: sampleRate,
                grouping: (group.record, layout.outputOffset, layout.parameterOffset), latency: member == 0 ? process.channel.latency : 0,
                bypassParameter: bypass, awaitsStart: launched)
        }
        let counts: (inputs: Int, outputs: Int)
        let process: SandboxProcess
        do {
            counts = try plugin.slotChannels(channels: channels)
            meters = SandboxMeters(offset: 0, descriptors: try plugin.meterDescriptors(channels: channels))
            let channel = try SandboxChannel(inputs: counts.inputs, outputs: counts.outputs, maxFrames: maxFrames, parameters: parameters.count)
            let configuration = SandboxConfiguration(
                plugins: [plugin.recipe], label: label, channels: channels, sampleRate: sampleRate, maxFrames: maxFrames, hosting: hosting,
                channelPath: channel.path, parentProcess: getpid())
            process = SandboxProcess(configuration: configuration, channel: channel, executable: try SandboxProcess.locateExecutable())
            if hosting.startsSandboxes { try process.launch() }
        } catch let error as LV2Error {
            throw .unitSetupFailed(unit: typeName, reason: error.description)
        } catch let error as SandboxError {
            throw .unitSetupFailed(unit: typeName, reason: error.description)
        } catch {
            throw .unitSetupFailed(unit: typeName, reason: "\(error)")
        }
        lease = SandboxLease(process, startedFor: hosting)
        format = (channels, sampleRate, maxFrames, counts.inputs, counts.outputs)
        return makeSlot(process, inputs: counts.inputs, outputs: counts.outputs, sampleRate: sampleRate, awaitsStart: hosting.startsSandboxes)
    }

    /// The realtime record over `process`'s channel and the render slot around it.
    private func makeSlot(
        _ process: SandboxProcess, inputs: Int, outputs: Int, sampleRate: Double,
        grouping: (record: UnsafeMutablePointer<fb_sandbox_group>, outputOffset: Int, parameterOffset: Int)? = nil,
        latency: Int? = nil, bypassParameter: Int? = nil, awaitsStart: Bool
    ) -> UnitRenderSlot {
        let fadeFrames = UInt32(max(1, (options.fadeSeconds * sampleRate).rounded()))
        let state = UnsafeMutablePointer<fb_sandbox_unit>.allocate(capacity: 1)
        state.initialize(to: fb_sandbox_unit(
            shared: process.channel.shared, group: grouping?.record, member: UInt32(member),
            outputOffset: UInt32(grouping?.outputOffset ?? 0), parameterOffset: UInt32(grouping?.parameterOffset ?? 0), seenStamp: 0,
            inputChannels: UInt32(inputs), outputChannels: UInt32(outputs),
            onFault: options.onFault == .mute ? UInt32(FB_SANDBOX_MUTE) : UInt32(FB_SANDBOX_BYPASS),
            deadlineFraction: options.deadlineFraction, sampleRate: sampleRate,
            fixedTimeoutNs: options.offlineTimeout.map { Int64($0.components.seconds) * 1_000_000_000 + $0.components.attoseconds / 1_000_000_000 } ?? 0,
            fadeFrames: fadeFrames, fadePosition: fadeFrames, posted: 0, postedFrames: 0, postedAtNs: 0, postedDeadlineNs: 0))
        render = state
        var slot = UnitRenderSlot(
            functions: Self.functions, state: UnsafeMutableRawPointer(state), inputChannels: inputs, outputChannels: outputs,
            latencyFrames: latency ?? process.channel.latency,
            selfBypassParameter: bypassParameter ?? plugin.info.controlInputs.firstIndex(where: \.isEnabledDesignation))
        if awaitsStart {
            // The sandbox reports its plugins' latency once it is ready. A plugin that fails to start is a fault like any
            // other: the unit falls back and the supervisor restarts it.
            slot.awaitLatency = { _ = process.waitUntilStarted(); return process.channel.latency }
        }
        return slot
    }

    /// Continues `predecessor`'s sandbox (its plugin instance, with its tail and its whole state) across a preset switch
    /// when it hosts the same plugin with the same LV2 preset, state file, audio ports and hosting for the same format;
    /// only control values may differ. The new graph's values reach the sandbox at the engine's takeover: the unit's
    /// `controls`, else what the plugin's default state, preset and state file gave it, as an ``LV2Unit`` continues.
    public func prepare(continuing predecessor: any EngineUnit, channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitContinuation? {
        if let group {
            return try continueGroup(group, predecessor: predecessor, channels: channels, sampleRate: sampleRate, maxFrames: maxFrames)
        }
        guard render == nil, group == nil, let old = predecessor as? SandboxedUnit, old !== self, plugin.recipe.setup == old.plugin.recipe.setup,
              old.hosting == hosting,
              let lease = old.lease, let format = old.format, format.channels == channels, format.sampleRate == sampleRate,
              format.maxFrames == maxFrames, lease.process.phase != .stopped
        else { return nil }
        self.lease = lease
        self.format = format
        meters = old.meters
        let channel = lease.process.channel
        let values = plugin.parameters.enumerated().map { index, parameter in
            plugin.recipe.controls[parameter.key] ?? channel.restoredValue(at: index) ?? parameter.defaultValue
        }
        return UnitContinuation(
            slot: makeSlot(lease.process, inputs: format.inputs, outputs: format.outputs, sampleRate: sampleRate, awaitsStart: false), parameterValues: values)
    }

    /// A member of a `"strip"` group continuing the same member of `predecessor`'s group, when the whole group takes that
    /// group's sandbox over (``SandboxGroup/adopt(_:channels:sampleRate:maxFrames:)``: same plugins, presets, state
    /// files, ports and format): the sandbox process plays on through the switch, with the new graph's values as
    /// ``prepare(continuing:channels:sampleRate:maxFrames:)`` describes.
    private func continueGroup(
        _ group: SandboxGroup, predecessor: any EngineUnit, channels: Int, sampleRate: Double, maxFrames: Int
    ) throws(EngineError) -> UnitContinuation? {
        guard render == nil, let old = predecessor as? SandboxedUnit, let oldGroup = old.group, old.member == member,
              member == 0 ? group.adopt(oldGroup, channels: channels, sampleRate: sampleRate, maxFrames: maxFrames) : group.adopted === oldGroup
        else { return nil }
        let slot = try prepare(channels: channels, sampleRate: sampleRate, maxFrames: maxFrames)
        let channel = process?.channel, offset = Int(render?.pointee.parameterOffset ?? 0)
        let values = plugin.parameters.enumerated().map { index, parameter in
            plugin.recipe.controls[parameter.key] ?? channel?.restoredValue(at: offset + index) ?? parameter.defaultValue
        }
        return UnitContinuation(slot: slot, parameterValues: values)
    }

    /// Saves the sandboxed plugin's state as a lilv state bundle in `directory` (see ``SandboxProcess/saveState(to:member:)``),
    /// off the audio thread; a later restart of its sandbox restores it.
    public func saveState(to directory: String) throws(SandboxError) -> LV2SavedState {
        guard let process else { throw .request(reason: "\(label): not prepared yet: state not saved") }
        return try process.saveState(to: directory, member: member)
    }

    /// The plugin's control outputs as its sandbox last published them (one cycle old at most), keyed as an ``LV2Unit``
    /// in Foldback's process keys them.
    public func meterReadings() -> [UnitMeterReading] {
        guard let meters, let process else { return [] }
        return meters.readings(from: process.channel)
    }

    public var meterDescriptors: [ParameterDescriptor] { meters?.shown ?? plugin.meterDescriptors }

    /// Whether the unit plays its fallback after a fault: its sandbox restarting after one, or left bypassed after too many.
    public var isFaulted: Bool {
        guard let process else { return false }
        switch process.phase {
        case .faulted: return true
        case .starting: return process.restarts > 0
        case .running, .stopped: return false
        }
    }

    /// Starts the plugin again when it was left bypassed after too many faults (the engineer's re-enable); false when
    /// it was not left bypassed (playing, or already restarting).
    @discardableResult
    public func reenable() -> Bool {
        guard let process, process.phase == .faulted else { return false }
        process.reenable()
        return true
    }

    /// The render functions every sandboxed unit shares: the cycle itself is C (fb_sandbox_process); a unit whose input
    /// the engine knows at the start of the chunk is posted then (fb_sandbox_post) and collects at its place.
    static let functions = UnitRenderFunctions(
        process: { state, inputs, outputs, frames in
            let unit = state.assumingMemoryBound(to: fb_sandbox_unit.self)
            let ins = UnsafeRawPointer(inputs).assumingMemoryBound(to: UnsafePointer<Float>?.self)
            let outs = UnsafeRawPointer(outputs).assumingMemoryBound(to: UnsafeMutablePointer<Float>?.self)
            _ = fb_sandbox_process(unit, ins, outs, UInt32(frames))
        },
        setParameter: { state, index, value in
            let unit = state.assumingMemoryBound(to: fb_sandbox_unit.self)
            fb_sandbox_unit_set_parameter(unit, UInt32(bitPattern: index), value)
        },
        reset: { state in
            fb_sandbox_request_reset(state.assumingMemoryBound(to: fb_sandbox_unit.self).pointee.shared)
        },
        post: { state, inputs, frames in
            let ins = UnsafeRawPointer(inputs).assumingMemoryBound(to: UnsafePointer<Float>?.self)
            fb_sandbox_post(state.assumingMemoryBound(to: fb_sandbox_unit.self), ins, UInt32(frames))
        }
    )
}

/// Owns a running sandbox for the units that use it (one, or a chain continuing it across preset switches): the
/// supervisor watches it while any of them lives, and the process ends with the last.
final class SandboxLease: Sendable {
    let process: SandboxProcess

    /// Holds `process` just launched for `hosting` and has it watched (the supervisor sees it come up, or fail to and
    /// restarts it). A process `hosting` does not start (``PluginHosting/startsSandboxes``) is held unwatched.
    init(_ process: SandboxProcess, startedFor hosting: PluginHosting) {
        self.process = process
        guard hosting.startsSandboxes else { return }
        SandboxSupervisor.shared.watch(process)
    }

    deinit {
        SandboxSupervisor.shared.unwatch(process)
        process.stop()
    }
}
