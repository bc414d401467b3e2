// One sandbox process shared by a strip's (or bus's) consecutive `isolation = "strip"` plugins: its layout and launch. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackSandbox
import FoldbackEngine
public import FoldbackLV2
import Glibc

/// The plugins of one strip's (or bus's) run of consecutive `isolation = "strip"` units, hosted in order by one
/// `foldback-sandbox` process: the first unit's cycle wakes it once and it runs the whole chain, so the strip costs one
/// round trip however many plugins it has. Each plugin stays an engine unit of its own (a ``SandboxedUnit`` made with
/// ``units()``: its own controls and bypass); a fault in the sandbox is a fault of all of them (they fall back together
/// and a restart brings them all back with their last state): finer fault isolation traded for cost.
public final class SandboxGroup: @unchecked Sendable {
    /// Where one member's channels and controls sit in the shared channel.
    struct Member {
        var inputs: Int
        var outputs: Int
        var outputOffset: Int
        var parameterOffset: Int
        /// The member's meters (its plugin's control outputs) and where they start among the channel's.
        var meters: SandboxMeters
    }

    let plugins: [LV2Unit]
    let hosting: PluginHosting
    let options: SandboxOptions
    /// Who the group is in log lines.
    let label: String
    private(set) var lease: SandboxLease?
    private var members: [Member] = []
    private var format: (channels: Int, sampleRate: Double, maxFrames: Int)?
    /// The realtime record the members' cycles share (which cycle the first one exchanged, and how it went).
    let record: UnsafeMutablePointer<fb_sandbox_group>

    /// Each member's fallback (its own `on_fault`).
    let faultActions: [SandboxFaultAction]

    /// A group for `plugins` (validated, not prepared; at least one), in chain order, with `options` (and each member's
    /// own fallback in `faultActions`, else `options`'); `owner` (`strip 'vox'`) for log lines.
    public init(plugins: [LV2Unit], hosting: PluginHosting, options: SandboxOptions, faultActions: [SandboxFaultAction]? = nil, owner: String? = nil) {
        self.plugins = plugins
        self.faultActions = faultActions ?? plugins.map { _ in options.onFault }
        self.hosting = hosting
        self.options = options
        label = "LV2 plugins " + plugins.map { "\($0.info.name) <\($0.typeName)>" }.joined(separator: ", ") + (owner.map { " on \($0)" } ?? "")
        record = .allocate(capacity: 1)
        record.initialize(to: fb_sandbox_group(stamp: 0, result: 0))
    }

    deinit {
        record.deallocate()
    }

    /// The engine units, one per plugin, in chain order.
    public func units() -> [SandboxedUnit] {
        plugins.indices.map { SandboxedUnit(group: self, member: $0) }
    }

    /// The running sandbox, once the first member is prepared.
    var process: SandboxProcess? { lease?.process }

    /// The controls of member `index` in the channel: the plugin's, then one word for the engine's bypass (see
    /// ``SandboxServer``), which the unit uses when the plugin has no `lv2:enabled` port of its own.
    static func parameterWords(_ plugin: LV2Unit) -> Int { plugin.parameters.count + 1 }

    /// Prepares member `index` for `channels` (the engine prepares them in order): the first launches the sandbox for the
    /// whole chain; the others take their place in it. Returns the process, the member's layout and whether this call
    /// launched the process (it may not be ready yet).
    func prepare(member index: Int, channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError)
        -> (process: SandboxProcess, member: Member, launched: Bool)
    {
        let launching = index == 0 && lease == nil   // not when it adopted one
        if launching { try launch(channels: channels, sampleRate: sampleRate, maxFrames: maxFrames) }
        guard let process, let format, format.sampleRate == sampleRate, format.maxFrames == maxFrames, index < members.count,
              index == 0 || members[index - 1].outputs == channels
        else {
            throw .unitSetupFailed(unit: plugins[index].typeName, reason: "\(label): prepared out of order or for another format")
        }
        return (process, members[index], launching && hosting.startsSandboxes)
    }

    /// The group whose running sandbox this one took over across a preset switch (``adopt(_:channels:sampleRate:maxFrames:)``).
    private(set) weak var adopted: SandboxGroup?

    /// Takes over `predecessor`'s running sandbox (its process, plugin instances, tails and state) when it hosts the same
    /// plugins in the same order (the same LV2 presets, state files and audio ports; only control values may differ) for
    /// the same hosting and format, as a lone ``SandboxedUnit`` continues its predecessor's. Called by the first member's
    /// continuation; the others then take their places in it. False when it cannot: the group then starts its own.
    func adopt(_ predecessor: SandboxGroup, channels: Int, sampleRate: Double, maxFrames: Int) -> Bool {
        if adopted === predecessor { return true }
        guard lease == nil, predecessor !== self, predecessor.hosting == hosting, let oldLease = predecessor.lease,
              let oldFormat = predecessor.format, oldFormat.channels == channels, oldFormat.sampleRate == sampleRate,
              oldFormat.maxFrames == maxFrames, oldLease.process.phase != .stopped,
              plugins.map(\.recipe.setup) == predecessor.plugins.map(\.recipe.setup)
        else { return false }
        lease = oldLease
        members = predecessor.members
        format = oldFormat
        adopted = predecessor
        return true
    }

    private func launch(channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) {
        guard lease == nil else { throw .unitSetupFailed(unit: plugins[0].typeName, reason: "already prepared; build a new unit for each graph") }
        let process: SandboxProcess
        do {
            var layout: [Member] = []
            var flowing = channels, outputs = 0, parameters = 0, meters = 0
            for plugin in plugins {
                let counts = try plugin.slotChannels(channels: flowing)
                let descriptors = try plugin.meterDescriptors(channels: flowing)
                layout.append(Member(
                    inputs: counts.inputs, outputs: counts.outputs, outputOffset: outputs, parameterOffset: parameters,
                    meters: SandboxMeters(offset: meters, descriptors: descriptors)))
                meters += descriptors.count
                flowing = counts.outputs
                outputs += counts.outputs
                parameters += Self.parameterWords(plugin)
            }
            let channel = try SandboxChannel(inputs: layout[0].inputs, outputs: outputs, maxFrames: maxFrames, parameters: parameters)
            let configuration = SandboxConfiguration(
                plugins: plugins.map(\.recipe), label: label, channels: channels, sampleRate: sampleRate, maxFrames: maxFrames, hosting: hosting,
                channelPath: channel.path, parentProcess: getpid())
            process = SandboxProcess(configuration: configuration, channel: channel, executable: try SandboxProcess.locateExecutable())
            if hosting.startsSandboxes { try process.launch() }
            members = layout
        } catch let error as LV2Error {
            throw .unitSetupFailed(unit: plugins[0].typeName, reason: error.description)
        } catch let error as SandboxError {
            throw .unitSetupFailed(unit: plugins[0].typeName, reason: error.description)
        } catch {
            throw .unitSetupFailed(unit: plugins[0].typeName, reason: "\(error)")
        }
        lease = SandboxLease(process, startedFor: hosting)   // its first member's slot waits for it to be ready
        format = (channels, sampleRate, maxFrames)
    }
}
