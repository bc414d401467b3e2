// The head/tail core every lock-free single-producer/single-consumer ring specialises: power-of-two slots, positions, memory ordering. Realtime-safe on either side.
// SPDX-License-Identifier: GPL-3.0-or-later
public import Atomics

/// The positions of a single-producer/single-consumer ring of ``capacity`` slots (a power of two), shared by
/// ``SPSCRing`` (elements), ``TapRing`` (frames of samples), the feedback unit's sample ring and the LV2
/// message ring (variable-size byte messages); each owns its storage and says what a slot holds.
///
/// Positions count slots written (head, the producer's) and read (tail, the consumer's) since the start and
/// never wrap in practice; a slot's storage index is `position & mask`. The producer writes its slots, then
/// publishes them with a releasing store of the head; the consumer reads them after an acquiring load of the
/// head, then frees them with a releasing store of the tail, which the producer loads acquiring before it
/// writes over them. ``init(capacity:minimum:)`` allocates and ``destroy()`` frees; every other member is
/// inlinable, lock-free and allocation-free, so realtime callers use it fully specialised.
@frozen
public struct SPSCRingCore: @unchecked Sendable {
    @usableFromInline let head: UnsafeAtomic<Int>   // slots written; stored by the producer only
    @usableFromInline let tail: UnsafeAtomic<Int>   // slots read; stored by the consumer only
    /// Capacity minus one: `position & mask` is a slot's index in the storage.
    public let mask: Int

    /// The power of two a ring asked for `capacity` slots (and at least `minimum`) gets.
    public static func slotCount(atLeast capacity: Int, minimum: Int = 2) -> Int {
        var size = 1
        while size < max(capacity, minimum) { size <<= 1 }
        return size
    }

    /// Positions for a ring of at least `capacity` slots (rounded up to a power of two, at least `minimum`).
    public init(capacity: Int, minimum: Int = 2) {
        mask = Self.slotCount(atLeast: capacity, minimum: minimum) - 1
        head = .create(0)
        tail = .create(0)
    }

    /// Frees the positions; no thread may use the ring afterwards.
    public func destroy() {
        head.destroy()
        tail.destroy()
    }

    /// Slots the ring holds when full.
    @inlinable public var capacity: Int { @_noLocks get { mask &+ 1 } }

    /// Producer: the position the next written slot will have.
    @inlinable public var writePosition: Int { @_noLocks get { head.load(ordering: .relaxed) } }

    /// Producer: slots that can be written now.
    @inlinable public var freeCount: Int {
        @_noLocks get { capacity &- (head.load(ordering: .relaxed) &- tail.load(ordering: .acquiring)) }
    }

    /// Producer: the position to write `count` slots from, or nil when they do not all fit.
    @inlinable @inline(__always) @_noLocks
    public func reserve(_ count: Int) -> Int? {
        let start = head.load(ordering: .relaxed)
        return start &+ count &- tail.load(ordering: .acquiring) > mask &+ 1 ? nil : start
    }

    /// Producer: hands every slot before `position` (written already) to the consumer.
    @inlinable @inline(__always) @_noLocks
    public func publish(upTo position: Int) { head.store(position, ordering: .releasing) }

    /// Consumer: the position of the oldest unread slot.
    @inlinable public var readPosition: Int { @_noLocks get { tail.load(ordering: .relaxed) } }

    /// Consumer: slots published from `position` on (the read position or past it).
    @inlinable @inline(__always) @_noLocks
    public func readableCount(from position: Int) -> Int { head.load(ordering: .acquiring) &- position }

    /// Slots waiting to be read (the consumer's view; from other threads, a snapshot).
    @inlinable public var readableCount: Int { @_noLocks get { readableCount(from: tail.load(ordering: .relaxed)) } }

    /// Consumer: hands every slot before `position` (read already) back to the producer.
    @inlinable @inline(__always) @_noLocks
    public func release(upTo position: Int) { tail.store(position, ordering: .releasing) }
}
