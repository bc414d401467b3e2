// The engine's render workers: the threads a backend runs beside its cycle thread, and their statistics. Non-realtime (the worker body runs realtime items).
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackTeam

/// Worker contexts of an engine's render team (see `render_team.c` for the hand-out and wake-up).
enum RenderWorkers {
    /// What one worker thread is given: its team and lane (1…).
    struct Slot {
        var team: OpaquePointer
        var lane: UInt32
    }

    static func slots(team: OpaquePointer?, count: Int) -> UnsafeMutablePointer<Slot>? {
        guard let team, count > 0 else { return nil }
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: count)
        for worker in 0..<count { (slots + worker).initialize(to: Slot(team: team, lane: UInt32(worker + 1))) }
        return slots
    }

    static func destroy(team: OpaquePointer?, slots: UnsafeMutablePointer<Slot>?) {
        guard let team else { return }
        fb_team_join_local_threads(team)
        fb_team_destroy(team)
        slots?.deallocate()
    }
}

/// How the render work of an engine's cycles was shared out.
public struct RenderTeamStatistics: Sendable, Hashable {
    /// Cycles the team ran, and the futex wakes the cycle thread made to wake sleeping workers.
    public var cycles: Int
    public var wakes: Int
    /// Work items (a strip, one bus's sends, a bus) each lane ran; lane 0 is the cycle thread.
    public var itemsByLane: [Int]
}

extension Engine {
    /// The most threads a render team may have.
    public static let maxRenderThreads = 64

    /// The workers a backend must run for this engine (``EngineConfiguration/renderThreads`` − 1), each
    /// on its own realtime thread calling ``workerEntry`` with ``workerContext(_:)``. Without them the
    /// cycle thread renders everything itself: correct, only slower.
    public var workerCount: Int { configuration.renderThreads - 1 }

    /// A worker thread's body, C-callable as a thread start routine (`void *(*)(void *)`): renders its share
    /// of every cycle until ``stopWorkers()``, sleeping between cycles. Sets FTZ/DAZ on its thread.
    public static let workerEntry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
        guard let slot = context?.assumingMemoryBound(to: RenderWorkers.Slot.self) else { return nil }
        fb_team_work(slot.pointee.team, slot.pointee.lane)
        return nil
    }

    /// The context for worker `index` (0..<``workerCount``) to pass to ``workerEntry``.
    public func workerContext(_ index: Int) -> UnsafeMutableRawPointer? {
        guard let workerSlots, index >= 0, index < workerCount else { return nil }
        return UnsafeMutableRawPointer(workerSlots + index)
    }

    /// Re-arms the team after ``stopWorkers()``; call before starting worker threads again.
    public func prepareWorkers() {
        if let team = realtimeTeam { fb_team_restart(team) }
    }

    /// Makes every worker return from ``workerEntry`` (join its thread afterwards). Cycles go on, rendered by the cycle thread alone.
    public func stopWorkers() {
        if let team = realtimeTeam { fb_team_stop(team) }
    }

    /// Runs the workers on plain threads of this process (offline rendering, tests); they stop when the
    /// engine is freed or ``stopLocalWorkers()`` is called. Returns false if a thread could not start.
    @discardableResult
    public func startLocalWorkers() -> Bool {
        guard let team = realtimeTeam else { return true }
        return fb_team_start_local_threads(team) == 0
    }

    /// Stops and joins the threads ``startLocalWorkers()`` started.
    public func stopLocalWorkers() {
        if let team = realtimeTeam { fb_team_join_local_threads(team) }
    }

    /// How the work has been shared so far (nil with one render thread).
    public var renderTeamStatistics: RenderTeamStatistics? {
        guard let team = realtimeTeam else { return nil }
        return RenderTeamStatistics(
            cycles: Int(fb_team_cycle_count(team)), wakes: Int(fb_team_wake_count(team)),
            itemsByLane: (0..<configuration.renderThreads).map { Int(fb_team_items_run(team, UInt32($0))) })
    }
}
