// The feedback unit's sample ring (input to the worker) and its notch command (sent back on an SPSCRing). Realtime on the audio-thread side.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
import FoldbackEngine

/// Mono samples from the audio thread (producer) to the analysis worker (consumer), on the shared ring
/// core (a slot is one sample); a full ring drops the block.
struct SampleRing: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Float>
    private let core: SPSCRingCore
    /// Blocks dropped because the worker fell behind.
    let overruns: UnsafeAtomic<Int>

    /// A ring of at least `capacity` samples (a power of two).
    init(capacity: Int) {
        core = SPSCRingCore(capacity: capacity)
        storage = .allocate(capacity: core.capacity)
        storage.initialize(repeating: 0, count: core.capacity)
        overruns = .create(0)
    }

    /// Frees the storage; no thread may use the ring afterwards.
    func destroy() {
        storage.deallocate()
        core.destroy()
        overruns.destroy()
    }

    /// Producer (audio thread): appends the mean of `left` and `right` (the same pointer for mono).
    @inline(__always)
    func write(_ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, frames: Int) {
        guard let start = core.reserve(frames) else {
            overruns.wrappingIncrement(ordering: .relaxed)
            return
        }
        let mask = core.mask
        for frame in 0..<frames { storage[(start + frame) & mask] = 0.5 * (left[frame] + right[frame]) }
        core.publish(upTo: start + frames)
    }

    /// Producer (audio thread): appends `frames` zeros, what ``write(_:_:frames:)`` appends of silence.
    @inline(__always)
    func writeSilence(frames: Int) {
        guard let start = core.reserve(frames) else {
            overruns.wrappingIncrement(ordering: .relaxed)
            return
        }
        let mask = core.mask
        for frame in 0..<frames { storage[(start + frame) & mask] = 0 }
        core.publish(upTo: start + frames)
    }

    /// Consumer: samples waiting.
    var available: Int { core.readableCount }

    /// Consumer: moves `count` samples (at most ``available``) into `destination`.
    func read(into destination: UnsafeMutablePointer<Float>, count: Int) {
        let start = core.readPosition
        for index in 0..<count { destination[index] = storage[(start + index) & core.mask] }
        core.release(upTo: start + count)
    }
}

/// A notch change from the worker to the audio thread (through an ``SPSCRing``).
struct NotchCommand {
    var slot: Int32
    var frequency: Float
    var depthDB: Float
    var q: Float
    var depthRate: Float
}

/// The unit's live parameters (`mode`, `max_depth_db`, `hold_s`, as Float bit patterns), written by the audio
/// thread's setParameter and read by the worker before each analysis pass.
struct LiveSettings: @unchecked Sendable {
    /// Parameter count.
    static let count = 3
    private let values: UnsafeMutablePointer<UnsafeAtomic<UInt32>>

    /// Settings starting at `initial` (indexed as the unit's parameters).
    init(_ initial: [Float]) {
        values = .allocate(capacity: Self.count)
        for index in 0..<Self.count { (values + index).initialize(to: .create(initial[index].bitPattern)) }
    }

    /// Frees the atomics; no thread may use them afterwards.
    func destroy() {
        for index in 0..<Self.count { values[index].destroy() }
        values.deinitialize(count: Self.count)
        values.deallocate()
    }

    /// Audio thread: sets parameter `index` (others ignored).
    @inline(__always)
    func store(_ index: Int32, _ value: Float) {
        guard index >= 0, Int(index) < Self.count else { return }
        values[Int(index)].store(value.bitPattern, ordering: .releasing)
    }

    /// Worker: parameter `index`.
    func load(_ index: Int) -> Float { Float(bitPattern: values[index].load(ordering: .acquiring)) }
}
