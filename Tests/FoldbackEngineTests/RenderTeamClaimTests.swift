// The render team's claims: a lane stalled inside its run holds back at most one short run. Non-realtime test of the C team.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
import CFoldbackTeam
import Foundation
import XCTest

final class RenderTeamClaimTests: XCTestCase {
    /// What the stage's items share: whether the worker has run an item yet, and how long its first one stalls.
    private final class Stall {
        let workerStarted = ManagedAtomic<Bool>(false)
        let stallNs: UInt64

        init(stallNs: UInt64) { self.stallNs = stallNs }
    }

    /// A worker preempted right after its first claim (here: its first item spins 30 ms, longer than the
    /// whole stage takes the callback thread) holds back only that claim's run: the callback thread runs
    /// every other item of a 400-item stage, so the worker runs at most 8. (Guided claims alone gave the
    /// worker's first claim a quarter of what was left, 75 items here, which the callback thread then waited for.)
    func testAStalledLaneHoldsBackAtMostOneShortRun() throws {
        let team = try XCTUnwrap(fb_team_create(2))
        defer { fb_team_destroy(team) }
        XCTAssertEqual(fb_team_start_local_threads(team), 0)
        defer { fb_team_join_local_threads(team) }
        for round in 0..<20 {   // a worker on a loaded machine may not wake within a round's wait
            let stall = Stall(stallNs: 30_000_000)
            let before = (fb_team_items_run(team, 0), fb_team_items_run(team, 1))
            fb_team_begin_cycle(team)
            fb_team_run(team, { job, lane, _ in
                let stall = Unmanaged<Stall>.fromOpaque(job!).takeUnretainedValue()
                if lane == 1 {
                    if !stall.workerStarted.exchange(true, ordering: .acquiringAndReleasing) { RenderTeamClaimTests.spin(nanoseconds: stall.stallNs) }
                } else {
                    // The callback lane waits (at most 200 ms) for the worker's first item before each of its own.
                    let limit = RenderTeamClaimTests.now() + 200_000_000
                    while !stall.workerStarted.load(ordering: .acquiring) && RenderTeamClaimTests.now() < limit {}
                }
            }, Unmanaged.passUnretained(stall).toOpaque(), 400)
            fb_team_end_cycle(team)
            let worker = fb_team_items_run(team, 1) - before.1, callback = fb_team_items_run(team, 0) - before.0
            XCTAssertEqual(worker + callback, 400)
            if stall.workerStarted.load(ordering: .acquiring) && worker > 0 {
                XCTAssertLessThanOrEqual(worker, 8, "round \(round): the stalled worker ran \(worker) items, the callback thread \(callback)")
                return
            }
        }
        throw XCTSkip("the worker never woke within 200 ms in 20 rounds")
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    private static func spin(nanoseconds: UInt64) {
        let end = now() + nanoseconds
        while now() < end {}
    }
}
