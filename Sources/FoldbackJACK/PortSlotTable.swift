// A fixed table of atomic jack_port_t pointers, one per engine channel. Realtime: load(_:).
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics

/// Channel-indexed JACK ports shared between the owner, which rewrites entries when the layout
/// changes, and the process callback, which reads them every cycle. Each entry is one atomic word,
/// so the callback sees either the old port or the new one, never a torn value.
struct PortSlotTable {
    private typealias Slot = UnsafeAtomic<UnsafeMutableRawPointer?>
    private let storage: UnsafeMutablePointer<Slot.Storage>
    /// The number of entries (the engine's channel capacity).
    let count: Int

    /// Allocates `count` empty entries.
    init(count: Int) {
        self.count = count
        storage = .allocate(capacity: max(count, 1))
        for index in 0..<count { (storage + index).initialize(to: Slot.Storage(nil)) }
    }

    /// Frees the entries; call once, when no callback can run.
    func deallocate() {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// The port for `channel`, or nil. Realtime-safe.
    @inline(__always)
    func load(_ channel: Int) -> OpaquePointer? {
        Slot(at: storage + channel).load(ordering: .acquiring).map(OpaquePointer.init)
    }

    /// Points `channel` at `port` (or clears it).
    func store(_ port: OpaquePointer?, at channel: Int) {
        Slot(at: storage + channel).store(port.map(UnsafeMutableRawPointer.init), ordering: .releasing)
    }

    /// One more than the highest channel with a port (0 when empty).
    func usedCount() -> Int {
        var used = 0
        for channel in 0..<count where load(channel) != nil { used = channel + 1 }
        return used
    }
}
