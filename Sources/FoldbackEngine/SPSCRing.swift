// Fixed-capacity lock-free single-producer/single-consumer ring of elements, on the shared ring core. Realtime-safe on either side.
// SPDX-License-Identifier: GPL-3.0-or-later
/// A wait-free ring of trivially copyable elements between exactly one producer and one consumer thread.
///
/// Storage is allocated once by ``init(capacity:)`` and freed by ``destroy()``; push and pop never allocate.
/// Public and inlinable so other realtime modules (the feedback unit) use it specialised, with no generic dispatch.
/// (Not `@_noLocks` itself: the checker refuses any unspecialised generic; the ring core it calls is.)
@frozen
public struct SPSCRing<Element: BitwiseCopyable>: @unchecked Sendable {
    @usableFromInline let storage: UnsafeMutablePointer<Element>
    @usableFromInline let core: SPSCRingCore

    /// A ring holding at least `capacity` elements (rounded up to a power of two).
    public init(capacity: Int) {
        core = SPSCRingCore(capacity: capacity)
        storage = .allocate(capacity: core.capacity)
    }

    /// Frees the storage; no thread may use the ring afterwards.
    public func destroy() {
        storage.deallocate()
        core.destroy()
    }

    /// The number of elements the ring holds when full.
    @inlinable public var capacity: Int { core.capacity }

    /// Producer: appends `element`; false when full.
    @inlinable @inline(__always)
    public func push(_ element: Element) -> Bool {
        guard let position = core.reserve(1) else { return false }
        storage[position & core.mask] = element
        core.publish(upTo: position &+ 1)
        return true
    }

    /// Producer: free slots right now.
    @inlinable public var freeCount: Int { core.freeCount }

    /// Consumer: removes the oldest element, or nil when empty.
    @inlinable @inline(__always)
    public func pop() -> Element? {
        let position = core.readPosition
        if core.readableCount(from: position) <= 0 { return nil }
        let element = storage[position & core.mask]
        core.release(upTo: position &+ 1)
        return element
    }

    /// Consumer: the oldest element without removing it, or nil when empty.
    @inlinable @inline(__always)
    public func peek() -> Element? {
        let position = core.readPosition
        if core.readableCount(from: position) <= 0 { return nil }
        return storage[position & core.mask]
    }
}
