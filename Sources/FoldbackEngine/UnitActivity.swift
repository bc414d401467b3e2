// Which unit each render lane is inside, for a watchdog to name a stuck cycle's unit: one relaxed store per unit on the realtime thread, read off it.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics

/// One atomic per render lane (lane 0: the cycle's own thread; 1…: the render workers) holding the unit it
/// runs: its index in the running graph's unit list plus one, or 0 between unit chains.
///
/// The audio thread writes it with a relaxed store before each unit's `process` and once after each chain
/// (``GraphRender/runUnits(first:count:work:channels:frames:)``): no allocation, no fence. A reader off the
/// audio thread (the JACK host's process watchdog) sees which unit a cycle that does not end is stuck in;
/// ``EngineGraph/unitName(atRenderIndex:)`` names it.
public final class UnitActivity: @unchecked Sendable {
    let slots: UnsafeMutablePointer<UnsafeAtomic<Int>.Storage>
    /// The lanes tracked: the engine's render threads.
    public let laneCount: Int

    init(lanes: Int) {
        laneCount = max(1, lanes)
        slots = .allocate(capacity: laneCount)
        for lane in 0..<laneCount { (slots + lane).initialize(to: .init(0)) }
    }

    deinit {
        slots.deinitialize(count: laneCount)
        slots.deallocate()
    }

    /// The render index of the unit each busy lane is inside now (lanes between units are left out).
    public func runningUnits() -> [Int] {
        (0..<laneCount).compactMap { lane in
            let value = UnsafeAtomic<Int>(at: slots + lane).load(ordering: .relaxed)
            return value > 0 ? value - 1 : nil
        }
    }
}

extension GraphRender {
    /// Notes on this lane's activity slot that unit `index` runs now (−1: none); nothing without a slot.
    @inline(__always)
    func noteActiveUnit(_ index: Int) {
        guard let activeUnit else { return }
        UnsafeAtomic<Int>(at: activeUnit).store(index + 1, ordering: .relaxed)
    }
}

extension EngineGraph {
    /// The unit at `index` of this graph's flat unit list, as a log line names it: `strip 'vox' unit 'verb'
    /// (urn:…)`, or nil for an index the graph does not have. Off the audio thread: it builds strings, and only the
    /// stuck-cycle report (StuckCycleExit, on the watchdog's thread) calls it.
    public func unitName(atRenderIndex index: Int) -> String? {
        for (strip, chain) in description.strips.enumerated() {
            let first = Int(render.pointee.strips[strip].firstUnit)
            if (first..<first + chain.units.count).contains(index) {
                return Self.name(kind: "strip", owner: chain.name, units: chain.units, ids: chain.unitIDs, offset: index - first)
            }
        }
        for (bus, chain) in description.buses.enumerated() {
            let first = Int(render.pointee.buses[bus].firstUnit)
            if (first..<first + chain.units.count).contains(index) {
                return Self.name(kind: "bus", owner: chain.name, units: chain.units, ids: chain.unitIDs, offset: index - first)
            }
        }
        return nil
    }

    private static func name(kind: String, owner: String, units: [any EngineUnit], ids: [String], offset: Int) -> String {
        let id = offset < ids.count ? ids[offset] : String(offset + 1)
        return "\(kind) '\(owner)' unit '\(id)' (\(units[offset].typeName))"
    }
}
