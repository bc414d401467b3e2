// A fixed-capacity lock-free single-producer/single-consumer ring of variable-size byte messages. Realtime-safe on either side.
import Atomics

/// Carries worker requests and responses (size-prefixed byte messages) between one producer and one
/// consumer thread. Storage is allocated once by ``init(capacity:)`` and freed by ``destroy()``;
/// ``push(_:size:)`` and ``pop(into:capacity:)`` never allocate, lock or block.
struct LV2MessageRing: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<UInt8>
    private let mask: Int
    private let head: UnsafeAtomic<Int>   // bytes written; producer only
    private let tail: UnsafeAtomic<Int>   // bytes read; consumer only
    private static let prefix = MemoryLayout<UInt32>.size

    /// A ring of at least `capacity` bytes (rounded up to a power of two).
    init(capacity: Int) {
        var size = 64
        while size < capacity { size <<= 1 }
        storage = .allocate(capacity: size)
        mask = size - 1
        head = .create(0)
        tail = .create(0)
    }

    /// Frees the storage; no thread may use the ring afterwards.
    func destroy() {
        storage.deallocate()
        head.destroy()
        tail.destroy()
    }

    /// Producer: appends a message of `size` bytes from `data`; false when it does not fit.
    func push(_ data: UnsafeRawPointer?, size: Int) -> Bool {
        push(tag: nil, data, size: size)
    }

    /// Producer: appends a message of `tag` (4 bytes, when given) followed by `size` bytes from `data`;
    /// false when it does not fit.
    func push(tag: UInt32?, _ data: UnsafeRawPointer?, size: Int) -> Bool {
        let write = head.load(ordering: .relaxed)
        let used = write - tail.load(ordering: .acquiring)
        let tagSize = tag == nil ? 0 : Self.prefix
        guard size >= 0, used + Self.prefix + tagSize + size <= mask + 1 else { return false }
        var length = UInt32(tagSize + size)
        withUnsafeBytes(of: &length) { copyIn($0.baseAddress!, count: Self.prefix, at: write) }
        if var tag { withUnsafeBytes(of: &tag) { copyIn($0.baseAddress!, count: Self.prefix, at: write + Self.prefix) } }
        if let data, size > 0 { copyIn(data, count: size, at: write + Self.prefix + tagSize) }
        head.store(write + Self.prefix + tagSize + size, ordering: .releasing)
        return true
    }

    /// Consumer: copies the oldest message into `buffer` and returns its size, or nil when empty.
    /// A message larger than `capacity` is dropped (returns 0).
    func pop(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int? {
        let read = tail.load(ordering: .relaxed)
        guard read != head.load(ordering: .acquiring) else { return nil }
        var length: UInt32 = 0
        withUnsafeMutableBytes(of: &length) { copyOut($0.baseAddress!, count: Self.prefix, at: read) }
        let size = Int(length)
        if size <= capacity { copyOut(buffer, count: size, at: read + Self.prefix) }
        tail.store(read + Self.prefix + size, ordering: .releasing)
        return size <= capacity ? size : 0
    }

    private func copyIn(_ source: UnsafeRawPointer, count: Int, at position: Int) {
        let bytes = source.assumingMemoryBound(to: UInt8.self)
        for offset in 0..<count { storage[(position + offset) & mask] = bytes[offset] }
    }

    private func copyOut(_ destination: UnsafeMutableRawPointer, count: Int, at position: Int) {
        let bytes = destination.assumingMemoryBound(to: UInt8.self)
        for offset in 0..<count { bytes[offset] = storage[(position + offset) & mask] }
    }
}
