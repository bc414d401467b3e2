// The sandbox process's side: maps the channel, hosts the plugin with FoldbackLV2, serves each cycle. Its serve loop is realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackSandbox
import CFoldbackTeam
import FoldbackEngine
import FoldbackLV2
import Foundation
import Glibc

/// What `foldback-sandbox` runs: one LV2 unit, made with the same code as in Foldback's own process, served from the
/// shared channel on a SCHED_FIFO thread with locked memory, until Foldback goes away.
public enum SandboxServer {
    /// How often the serve loop looks up from waiting to see whether Foldback is still there.
    static let idleCheckNanoseconds: Int64 = 100_000_000

    /// Runs the sandbox for `arguments` (the process's, without its name); returns the exit status.
    public static func run(arguments: [String]) -> Int32 {
        guard arguments.count == 2, arguments[0] == "--configuration",
              let configuration = try? JSONDecoder().decode(SandboxConfiguration.self, from: Data(arguments[1].utf8))
        else {
            report("foldback-sandbox is started by Foldback, not by hand (usage: foldback-sandbox --configuration JSON)")
            return 2
        }
        let channel: SandboxChannel
        do {
            channel = try SandboxChannel(opening: configuration.channelPath)
        } catch {
            report("\(configuration.label): \(error.description)")
            return 3
        }
        do {
            let served = try ServedUnit(configuration: configuration, channel: channel)
            // Before this thread turns SCHED_FIFO: the command thread (state saves) runs at normal priority.
            SandboxCommandThread.start(serving: served, parentProcess: configuration.parentProcess)
            prepareRealtime(configuration, channelLocked: channel.isLocked)
            fb_sandbox_set_ready(channel.shared, UInt32(served.slot.latencyFrames))
            served.serve(until: { getppid() != configuration.parentProcess })
            return 0
        } catch {
            report("\(configuration.label): \(error)")
            fb_sandbox_set_failed(channel.shared)
            return 3
        }
    }

    /// Locks memory, sets FTZ/DAZ and SCHED_FIFO on this thread, and says plainly what the system did not allow.
    static func prepareRealtime(_ configuration: SandboxConfiguration, channelLocked: Bool) {
        fb_team_enable_ftz_daz()
        var memlock: UInt64 = 0
        var rttime: UInt64 = 0
        fb_sandbox_limits(&memlock, &rttime)
        if mlockall(MCL_CURRENT | MCL_FUTURE) != 0 || !channelLocked {
            let text = memlock == .max ? "unlimited" : "\(memlock / 1024) KiB"
            report("\(configuration.label): memory not locked (RLIMIT_MEMLOCK \(text)): page faults may make it miss deadlines; "
                + "raise it (@audio - memlock unlimited in /etc/security/limits.d)")
        }
        guard let priority = configuration.realtimePriority else { return }
        var parameters = sched_param(sched_priority: priority)
        let status = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
        if status != 0 {
            report("\(configuration.label): no SCHED_FIFO priority \(priority) (\(String(cString: strerror(status)))): "
                + "it runs at normal priority and may miss deadlines under load")
        }
        if rttime != .max {
            report("\(configuration.label): RLIMIT_RTTIME is \(rttime) µs: a plugin busy that long without sleeping is "
                + "killed by the kernel (SIGXCPU/SIGKILL), which Foldback treats as a crash and restarts")
        }
    }

    static func report(_ line: String) {
        FileHandle.standardError.write(Data("foldback-sandbox[\(getpid())]: \(line)\n".utf8))
    }
}

/// The unit a sandbox hosts, its render slot and the pointers into the channel, set up before serving. Sendable: its
/// audio thread runs the cycles, its command thread only asks the plugin for its state (which LV2 allows beside `run`).
final class ServedUnit: @unchecked Sendable {
    let unit: LV2Unit
    let slot: UnitRenderSlot
    let channel: SandboxChannel
    private let inputs: UnsafeMutablePointer<UnsafePointer<Float>>
    private let outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private let applied: UnsafeMutablePointer<Float>
    private let parameterCount: Int
    /// The request word when this sandbox started, read before it reports ready: it serves the requests after it.
    private var firstRequest: UInt32 = 0

    init(configuration: SandboxConfiguration, channel: SandboxChannel) throws {
        unit = try LV2Unit(recipe: configuration.plugin, hosting: configuration.hosting)
        slot = try unit.prepare(channels: configuration.channels, sampleRate: configuration.sampleRate, maxFrames: configuration.maxFrames)
        guard slot.inputChannels == channel.inputChannels, slot.outputChannels == channel.outputChannels,
              configuration.maxFrames <= channel.maxFrames, unit.parameters.count == channel.parameterCount
        else {
            throw SandboxError.channel(reason: "the plugin takes \(slot.inputChannels) in, \(slot.outputChannels) out; the channel was made "
                + "for \(channel.inputChannels) in, \(channel.outputChannels) out")
        }
        self.channel = channel
        inputs = .allocate(capacity: slot.inputChannels)
        for index in 0..<slot.inputChannels { (inputs + index).initialize(to: UnsafePointer(fb_sandbox_input(channel.shared, UInt32(index)))) }
        outputs = .allocate(capacity: slot.outputChannels)
        for index in 0..<slot.outputChannels { (outputs + index).initialize(to: fb_sandbox_output(channel.shared, UInt32(index))) }
        parameterCount = unit.parameters.count
        applied = .allocate(capacity: max(1, parameterCount))
        applied.initialize(repeating: .nan, count: max(1, parameterCount))
        // What the plugin's default state, LV2 preset and state file gave each control, for a unit continuing this sandbox.
        for (index, value) in (unit.restoredControlValues ?? []).enumerated() { fb_sandbox_set_restored_value(channel.shared, UInt32(index), value) }
        applyParameters()   // a restarted sandbox takes the last values Foldback set
        firstRequest = currentRequest()
        resets = fb_sandbox_resets(channel.shared)
    }

    deinit {
        inputs.deallocate()
        outputs.deallocate()
        applied.deallocate()
    }

    /// Writes every control Foldback changed since the last cycle to the plugin. Realtime.
    private func applyParameters() {
        for index in 0..<parameterCount {
            let value = fb_sandbox_parameter(channel.shared, UInt32(index))
            if value.isNaN || value == applied[index] { continue }
            applied[index] = value
            slot.functions.setParameter(slot.state, Int32(index), value)
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
        }
    }

    /// The resets Foldback requested so far, as this sandbox has acted on them.
    private var resets: UInt32 = 0

    /// One cycle (realtime): the controls Foldback changed, a reset it asked for, then the plugin.
    private func cycle(frames: UInt32) {
        applyParameters()
        let requested = fb_sandbox_resets(channel.shared)
        if requested != resets {
            resets = requested
            slot.functions.reset(slot.state)
        }
        slot.functions.process(slot.state, UnsafePointer(inputs), UnsafePointer(outputs), Int32(frames))
    }

    private static let cycleFunction: fb_sandbox_cycle_fn = { context, frames in
        guard let context else { return }
        Unmanaged<ServedUnit>.fromOpaque(context).takeUnretainedValue().cycle(frames: frames)
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
