// Fixed-capacity lock-free single-producer/single-consumer ring. Realtime-safe on either side.
public import Atomics

/// A wait-free ring of trivially copyable elements between exactly one producer and one consumer thread.
///
/// Storage is allocated once by ``init(capacity:)`` and freed by ``destroy()``; push and pop never allocate.
/// Public and inlinable so other realtime modules (the feedback unit) use it specialised, with no generic dispatch.
@frozen
public struct SPSCRing<Element: BitwiseCopyable>: @unchecked Sendable {
    @usableFromInline let storage: UnsafeMutablePointer<Element>
    @usableFromInline let mask: Int
    @usableFromInline let head: UnsafeAtomic<Int>   // next slot to write; written by the producer only
    @usableFromInline let tail: UnsafeAtomic<Int>   // next slot to read; written by the consumer only

    /// A ring holding at least `capacity` elements (rounded up to a power of two).
    public init(capacity: Int) {
        var size = 1
        while size < max(capacity, 2) { size <<= 1 }
        storage = .allocate(capacity: size)
        mask = size - 1
        head = .create(0)
        tail = .create(0)
    }

    /// Frees the storage; no thread may use the ring afterwards.
    public func destroy() {
        storage.deallocate()
        head.destroy()
        tail.destroy()
    }

    /// The number of elements the ring holds when full.
    @inlinable public var capacity: Int { mask + 1 }

    /// Producer: appends `element`; false when full.
    @inlinable @inline(__always)
    public func push(_ element: Element) -> Bool {
        let writeIndex = head.load(ordering: .relaxed)
        if writeIndex - tail.load(ordering: .acquiring) > mask { return false }
        storage[writeIndex & mask] = element
        head.store(writeIndex + 1, ordering: .releasing)
        return true
    }

    /// Producer: free slots right now.
    @inlinable public var freeCount: Int { capacity - (head.load(ordering: .relaxed) - tail.load(ordering: .acquiring)) }

    /// Consumer: removes the oldest element, or nil when empty.
    @inlinable @inline(__always)
    public func pop() -> Element? {
        let readIndex = tail.load(ordering: .relaxed)
        if readIndex == head.load(ordering: .acquiring) { return nil }
        let element = storage[readIndex & mask]
        tail.store(readIndex + 1, ordering: .releasing)
        return element
    }

    /// Consumer: the oldest element without removing it, or nil when empty.
    @inlinable @inline(__always)
    public func peek() -> Element? {
        let readIndex = tail.load(ordering: .relaxed)
        if readIndex == head.load(ordering: .acquiring) { return nil }
        return storage[readIndex & mask]
    }
}
