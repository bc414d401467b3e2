// Builds moved binaural sources' filter pairs off the audio thread: the hand-over cells and the thread serving them. Non-realtime (the thread); the cells' audio-thread side (hand over, ask) is realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
import CFoldbackTeam
import FoldbackDSP

/// One binaural source's hand-over between the audio thread and the ``BinauralBuildWorker``.
///
/// `state` says who owns the other fields: ``idle`` the audio thread (nothing asked), ``asked`` the worker (build
/// `position` into `slot`), ``built`` the audio thread again (`pair` is written). Each side publishes with a release
/// store and reads the other's with an acquire load.
struct BinauralBuildCell {
    static let idle = 0, asked = 1, built = 2
    let state: UnsafeAtomic<Int>
    let builder: BinauralFilterBuilder
    var slot = 0
    var position = BinauralPosition()
    var pair = BinauralFilterPair()

    /// Audio thread: hands a built pair to `source` (its crossfade starts), then asks for the source's next build
    /// if it waits for one. Returns whether it asked (ring the worker's doorbell then). Realtime-safe.
    @inline(__always)
    mutating func serve(_ source: UnsafeMutablePointer<BinauralSource>) -> Bool {
        var current = state.load(ordering: .acquiring)
        if current == Self.built {
            source.pointee.finishBuild(pair)
            state.store(Self.idle, ordering: .relaxed)
            current = Self.idle
        }
        guard current == Self.idle, let request = source.pointee.takeBuildRequest() else { return false }
        slot = request.slot
        position = request.position
        state.store(Self.asked, ordering: .releasing)
        return true
    }
}

/// The thread that builds the filter pairs the audio thread asks for through a graph's ``BinauralBuildCell``s
/// (`fb-binaural`, one per graph with binaural sends in a live engine). It sleeps on a doorbell the audio thread
/// rings after asking (one FUTEX_WAKE, only while it sleeps), serves every asked cell, and sleeps again; with nothing
/// asked it wakes once a second. ``stop()`` (the graph's deinit) ends and joins it before the sources are freed.
final class BinauralBuildWorker: @unchecked Sendable {
    let cells: UnsafeMutablePointer<BinauralBuildCell>
    let count: Int
    /// The doorbell (fb_doorbell.h) the audio thread rings.
    let bell: OpaquePointer
    /// Pairs built so far (tests, diagnostics).
    let builds = ManagedAtomic<Int>(0)
    private let isStopping = ManagedAtomic<Bool>(false)
    private var thread: PeriodicWorker?

    /// A worker for `count` cells at `cells` (owned by the caller, alive until ``stop()`` returns); not started.
    init(cells: UnsafeMutablePointer<BinauralBuildCell>, count: Int) {
        self.cells = cells
        self.count = count
        guard let bell = fb_doorbell_create() else { fatalError("out of memory for a doorbell") }
        self.bell = bell
    }

    deinit {
        stop()
        fb_doorbell_destroy(bell)
    }

    /// Starts the thread.
    func start() {
        guard thread == nil else { return }
        let serve = Serve(cells: cells, count: count, bell: bell, builds: builds, isStopping: isStopping)
        let worker = PeriodicWorker(name: "fb-binaural") { serve.run() }
        thread = worker
        worker.start()
    }

    /// Ends and joins the thread (a build under way finishes first). Safe to call twice.
    func stop() {
        isStopping.store(true, ordering: .sequentiallyConsistent)
        fb_doorbell_ring(bell)
        thread?.stop()
        thread = nil
    }

    /// One run of the thread: every asked cell built, then a sleep until the next ring (at most a second).
    private struct Serve: @unchecked Sendable {
        let cells: UnsafeMutablePointer<BinauralBuildCell>
        let count: Int
        let bell: OpaquePointer
        let builds: ManagedAtomic<Int>
        let isStopping: ManagedAtomic<Bool>

        func run() -> PeriodicWorker.Next {
            let seen = fb_doorbell_rings(bell)
            for index in 0..<count where cells[index].state.load(ordering: .acquiring) == BinauralBuildCell.asked {
                cells[index].pair = cells[index].builder.build(slot: cells[index].slot, position: cells[index].position)
                cells[index].state.store(BinauralBuildCell.built, ordering: .releasing)
                builds.wrappingIncrement(ordering: .relaxed)
            }
            guard !isStopping.load(ordering: .sequentiallyConsistent) else { return .whenWoken }
            fb_doorbell_wait(bell, seen, 1_000_000_000)
            return .after(.zero)
        }
    }
}
