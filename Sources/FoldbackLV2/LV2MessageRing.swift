// A fixed-capacity lock-free single-producer/single-consumer ring of variable-size byte messages, on the shared ring core. Realtime-safe on either side.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine

/// Carries worker requests and responses (size-prefixed byte messages) between one producer and one
/// consumer thread; a slot of the ring core is one byte. Storage is allocated once by ``init(capacity:)`` and freed by ``destroy()``;
/// ``push(_:size:)`` and ``pop(into:capacity:)`` never allocate, lock or block.
struct LV2MessageRing: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<UInt8>
    private let core: SPSCRingCore
    private static let prefix = MemoryLayout<UInt32>.size

    /// A ring of at least `capacity` bytes (rounded up to a power of two).
    init(capacity: Int) {
        core = SPSCRingCore(capacity: capacity, minimum: 64)
        storage = .allocate(capacity: core.capacity)
    }

    /// Frees the storage; no thread may use the ring afterwards.
    func destroy() {
        storage.deallocate()
        core.destroy()
    }

    /// Producer: appends a message of `size` bytes from `data`; false when it does not fit.
    func push(_ data: UnsafeRawPointer?, size: Int) -> Bool {
        push(tag: nil, data, size: size)
    }

    /// Producer: appends a message of `tag` (4 bytes, when given) followed by `size` bytes from `data`;
    /// false when it does not fit.
    func push(tag: UInt32?, _ data: UnsafeRawPointer?, size: Int) -> Bool {
        let tagSize = tag == nil ? 0 : Self.prefix
        guard size >= 0, let write = core.reserve(Self.prefix + tagSize + size) else { return false }
        var length = UInt32(tagSize + size)
        withUnsafeBytes(of: &length) { copyIn($0.baseAddress!, count: Self.prefix, at: write) }
        if var tag { withUnsafeBytes(of: &tag) { copyIn($0.baseAddress!, count: Self.prefix, at: write + Self.prefix) } }
        if let data, size > 0 { copyIn(data, count: size, at: write + Self.prefix + tagSize) }
        core.publish(upTo: write + Self.prefix + tagSize + size)
        return true
    }

    /// Consumer: copies the oldest message into `buffer` and returns its size, or nil when empty.
    /// A message larger than `capacity` is dropped (returns 0).
    func pop(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int? {
        let read = core.readPosition
        guard core.readableCount(from: read) > 0 else { return nil }
        var length: UInt32 = 0
        withUnsafeMutableBytes(of: &length) { copyOut($0.baseAddress!, count: Self.prefix, at: read) }
        let size = Int(length)
        if size <= capacity { copyOut(buffer, count: size, at: read + Self.prefix) }
        core.release(upTo: read + Self.prefix + size)
        return size <= capacity ? size : 0
    }

    private func copyIn(_ source: UnsafeRawPointer, count: Int, at position: Int) {
        let bytes = source.assumingMemoryBound(to: UInt8.self)
        for offset in 0..<count { storage[(position + offset) & core.mask] = bytes[offset] }
    }

    private func copyOut(_ destination: UnsafeMutableRawPointer, count: Int, at position: Int) {
        let bytes = destination.assumingMemoryBound(to: UInt8.self)
        for offset in 0..<count { bytes[offset] = storage[(position + offset) & core.mask] }
    }
}
