// Notices a process cycle that does not end (a plugin hung on the audio thread), mutes the outputs JACK would replay and reports it. Non-realtime (its own thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
import CJack
import FoldbackEngine
import Glibc

/// A process cycle that has run far past its period: what the watchdog saw.
public struct StuckCycle: Sendable, Equatable {
    /// Cycles completed before the stuck one.
    public let completedCycles: Int
    /// How long the cycle had been running when noticed (at least ``JACKProcessWatchdog/threshold(period:)``), milliseconds.
    public let milliseconds: Double
    /// The render indices of the units the render lanes were inside (``UnitActivity``): the stuck one among them.
    public let units: [Int]
    /// Output ports whose buffers were zeroed.
    public let mutedPorts: Int
}

/// Watches the host's cycle counters from a ``PeriodicWorker`` (`fb-watchdog`): every 5 ms while a cycle is in
/// progress, every 30 ms while none is (most of the time: a cycle takes a small part of its period), so an idle show
/// wakes it 33 times a second instead of 200. A hung cycle is seen at most 30 ms after it starts, and declared stuck
/// 50 ms (or two periods) after it was first seen, or after the 8 polls of 5 ms its own running time needs, whichever
/// is later: at most about 85 ms after it started at 48 kHz / 256.
///
/// The process callback stores the number of the cycle it starts (one relaxed store) and counts it when it ends.
/// A cycle started and not ended for ``threshold(period:)`` (50 ms, or two periods when longer) is stuck:
/// JACK (jack2, async mode) then replays this client's last output period on every cycle, a full-level buzz,
/// and every client downstream of it stops running. The watchdog writes zeros into the output port buffers
/// the stuck cycle was given (nobody else writes them any more; the driver reads them each period), then calls
/// `onStuck` once, on its own thread, for the owner to log and end the process (the server then drops the
/// client and its downstream clients run again). A server that runs no cycle at all (stopped, a netjack2 slave
/// without its master) is not a stuck cycle: no cycle is in progress.
///
/// The thread asks for SCHED_FIFO one step above the JACK client's priority, so a plugin spinning on a
/// realtime process thread cannot starve it on a one-core machine; without the right to, it runs as it is.
final class JACKProcessWatchdog {
    private let worker: PeriodicWorker
    /// The poll period while a cycle is in progress.
    static let poll = Duration.milliseconds(5)
    /// The poll period while no cycle is in progress.
    static let idlePoll = Duration.milliseconds(30)

    /// How long a cycle may run before it counts as stuck, seconds: 50 ms, or two periods of `period` seconds.
    static func threshold(period: Double) -> Double { max(0.050, 2 * period) }
    /// Polls that must each have seen the same cycle in progress before it counts as stuck: the watchdog's own
    /// running time, so a pause of the whole machine (a virtual machine descheduled for 60 ms stops both
    /// threads) never looks like a hung cycle, only a cycle that stayed put while the watchdog kept running.
    static let minimumObservations = 8

    /// Starts watching `process` (the host keeps it alive until ``stop()``) of `client` (its sample rate and priority).
    init(
        process: UnsafeMutablePointer<JACKHostProcess>, activity: UnitActivity, client: OpaquePointer,
        onStuck: @escaping @Sendable (StuckCycle) -> Void
    ) {
        let sampleRate = max(1, Double(jack_get_sample_rate(client)))
        let priority = jack_is_realtime(client) != 0 ? jack_client_real_time_priority(client) : -1
        let watch = Watch(process: process, activity: activity, sampleRate: sampleRate, priority: priority, onStuck: onStuck)
        worker = PeriodicWorker(name: "fb-watchdog") { watch.check() }
        worker.start()
    }

    /// Ends the thread (joined).
    func stop() { worker.stop() }

    /// The watchdog thread's state; touched by that thread alone.
    private final class Watch: @unchecked Sendable {
        let process: UnsafeMutablePointer<JACKHostProcess>
        let activity: UnitActivity
        let sampleRate: Double
        let onStuck: @Sendable (StuckCycle) -> Void
        var priority: Int32
        var watched = -1
        var since = 0.0
        var observations = 0
        var hasFired = false

        init(process: UnsafeMutablePointer<JACKHostProcess>, activity: UnitActivity, sampleRate: Double, priority: Int32,
             onStuck: @escaping @Sendable (StuckCycle) -> Void) {
            (self.process, self.activity, self.sampleRate, self.priority, self.onStuck) = (process, activity, sampleRate, priority, onStuck)
        }

        func check() -> PeriodicWorker.Next {
            if priority >= 0 {
                var parameters = sched_param(sched_priority: min(priority + 1, sched_get_priority_max(SCHED_FIFO)))
                _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
                priority = -1
            }
            guard !hasFired else { return .whenWoken }
            let started = process.pointee.started.load(ordering: .relaxed)
            let completed = process.pointee.cycles.load(ordering: .acquiring)
            guard started != completed else {
                (watched, observations) = (-1, 0)
                return .after(JACKProcessWatchdog.idlePoll)
            }
            let now = Self.seconds()
            let frames = process.pointee.frames.load(ordering: .relaxed)
            if started != watched {
                (watched, since, observations) = (started, now, 1)
                return .after(JACKProcessWatchdog.poll)
            }
            observations += 1
            if observations >= JACKProcessWatchdog.minimumObservations,
               now - since >= JACKProcessWatchdog.threshold(period: Double(frames) / sampleRate) {
                hasFired = true
                let muted = muteOutputs(frames: frames)
                onStuck(StuckCycle(completedCycles: completed, milliseconds: (now - since) * 1000, units: activity.runningUnits(), mutedPorts: muted))
                return .whenWoken
            }
            return .after(JACKProcessWatchdog.poll)
        }

        /// Zeroes the output buffers the stuck cycle was handed, which JACK keeps playing; returns how many.
        private func muteOutputs(frames: Int) -> Int {
            let io = process.pointee.io
            var muted = 0
            for channel in 0..<io.pointee.outputCount {
                guard let buffer = io.pointee.outputs[channel] else { continue }
                buffer.update(repeating: 0, count: frames)
                muted += 1
            }
            return muted
        }

        private static func seconds() -> Double {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
        }
    }
}

extension JACKHost {
    /// Starts the stuck-cycle watchdog (``JACKProcessWatchdog``): a process cycle that runs 50 ms (or two periods)
    /// without ending gets its output buffers zeroed and `onStuck` called once, on the watchdog's thread, which
    /// should log it and end the process. Call after ``activate()``; ``close()`` stops it. Does nothing when running.
    public func startWatchdog(onStuck: @escaping @Sendable (StuckCycle) -> Void) {
        let handle = client.handle
        lock.withLock {
            guard watchdog == nil else { return }
            watchdog = JACKProcessWatchdog(process: process, activity: engine.unitActivity, client: handle, onStuck: onStuck)
        }
    }

    /// Stops the watchdog's thread (joined), if it runs.
    func stopWatchdog() {
        let running = lock.withLock {
            defer { watchdog = nil }
            return watchdog
        }
        running?.stop()
    }
}
