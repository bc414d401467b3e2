// The feedback unit's two lock-free SPSC rings: input samples to the worker, notch commands back. Realtime on the audio-thread side.
import Atomics

/// Mono samples from the audio thread (producer) to the analysis worker (consumer); a full ring drops the block.
struct SampleRing: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Float>
    private let mask: Int
    private let head: UnsafeAtomic<Int>
    private let tail: UnsafeAtomic<Int>
    /// Blocks dropped because the worker fell behind.
    let overruns: UnsafeAtomic<Int>

    /// A ring of at least `capacity` samples (a power of two).
    init(capacity: Int) {
        var size = 1
        while size < max(capacity, 2) { size <<= 1 }
        storage = .allocate(capacity: size)
        storage.initialize(repeating: 0, count: size)
        mask = size - 1
        head = .create(0)
        tail = .create(0)
        overruns = .create(0)
    }

    /// Frees the storage; no thread may use the ring afterwards.
    func destroy() {
        storage.deallocate()
        head.destroy()
        tail.destroy()
        overruns.destroy()
    }

    /// Producer (audio thread): appends the mean of `left` and `right` (the same pointer for mono).
    @inline(__always)
    func write(_ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, frames: Int) {
        let start = head.load(ordering: .relaxed)
        if start + frames - tail.load(ordering: .acquiring) > mask + 1 {
            overruns.wrappingIncrement(ordering: .relaxed)
            return
        }
        for frame in 0..<frames { storage[(start + frame) & mask] = 0.5 * (left[frame] + right[frame]) }
        head.store(start + frames, ordering: .releasing)
    }

    /// Consumer: samples waiting.
    var available: Int { head.load(ordering: .acquiring) - tail.load(ordering: .relaxed) }

    /// Consumer: moves `count` samples (at most ``available``) into `destination`.
    func read(into destination: UnsafeMutablePointer<Float>, count: Int) {
        let start = tail.load(ordering: .relaxed)
        for index in 0..<count { destination[index] = storage[(start + index) & mask] }
        tail.store(start + count, ordering: .releasing)
    }
}

/// A notch change from the worker to the audio thread.
struct NotchCommand {
    var slot: Int32
    var frequency: Float
    var depthDB: Float
    var q: Float
    var depthRate: Float
}

/// Notch commands from the worker (producer) to the audio thread (consumer).
struct CommandRing: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<NotchCommand>
    private let mask: Int
    private let head: UnsafeAtomic<Int>
    private let tail: UnsafeAtomic<Int>

    /// A ring of `capacity` commands (a power of two).
    init(capacity: Int) {
        storage = .allocate(capacity: capacity)
        mask = capacity - 1
        head = .create(0)
        tail = .create(0)
    }

    /// Frees the storage; no thread may use the ring afterwards.
    func destroy() {
        storage.deallocate()
        head.destroy()
        tail.destroy()
    }

    /// Producer: appends `command`; false when full.
    func push(_ command: NotchCommand) -> Bool {
        let index = head.load(ordering: .relaxed)
        if index - tail.load(ordering: .acquiring) > mask { return false }
        (storage + (index & mask)).initialize(to: command)
        head.store(index + 1, ordering: .releasing)
        return true
    }

    /// Consumer (audio thread): the oldest command, or nil.
    @inline(__always)
    func pop() -> NotchCommand? {
        let index = tail.load(ordering: .relaxed)
        if index == head.load(ordering: .acquiring) { return nil }
        let command = storage[index & mask]
        tail.store(index + 1, ordering: .releasing)
        return command
    }
}
