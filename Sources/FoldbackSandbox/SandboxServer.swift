// The sandbox process's side: maps the channel, hosts the plugin with FoldbackLV2, serves each cycle. Its serve loop is realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackSandbox
import CFoldbackTeam
import FoldbackEngine
import FoldbackLV2
import Foundation
import Glibc

/// What `foldback-sandbox` runs: one LV2 unit (or a strip's chain of them), made with the same code as in Foldback's own process, served from the
/// shared channel on a SCHED_FIFO thread with locked memory, until Foldback goes away.
public enum SandboxServer {
    /// How often the serve loop looks up from waiting to see whether Foldback is still there.
    static let idleCheckNanoseconds: Int64 = 100_000_000
    /// How often the sandbox's LV2 worker thread looks for plugin log lines when no plugin has a worker (Foldback's own
    /// process: 10 ms). Its 100 wakes a second cost a sandbox about 18 µs of CPU per 256-frame cycle on a loaded 2-core VM;
    /// the restart a reset asks for does not wait for it (``ServedChain`` wakes the thread after that cycle).
    static let quietWorkerPoll: Duration = .milliseconds(100)

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
        LV2WorkerThreadPolicy.pollWhenQuiet(every: quietWorkerPoll)
        LV2Unit.assumeWarned(about: configuration.plugins.map(\.uri))   // Foldback's log said it once already
        do {
            let served = try ServedChain(configuration: configuration, channel: channel)
            // Before this thread turns SCHED_FIFO: the command thread (state saves) runs at normal priority.
            SandboxCommandThread.start(serving: served, parentProcess: configuration.parentProcess)
            prepareRealtime(configuration, channelLocked: channel.isLocked)
            fb_sandbox_set_ready(channel.shared, UInt32(served.latencyFrames))
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
