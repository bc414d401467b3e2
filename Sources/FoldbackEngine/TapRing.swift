// A lock-free SPSC ring of interleaved float frames (on the shared ring core) between the audio thread and a disk thread. Realtime on the audio side.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics

/// The ring's realtime memory: plain storage and atomics, allocated once by ``TapRing``.
struct TapRingState {
    let storage: UnsafeMutablePointer<Float>
    let channels: Int
    /// Frames written (producer) and read (consumer) so far; a slot is one frame.
    let core: SPSCRingCore
    /// Producer-side statistics, readable from any thread.
    let framesOffered: UnsafeAtomic<Int>
    let framesDropped: UnsafeAtomic<Int>
    let overruns: UnsafeAtomic<Int>
    let underruns: UnsafeAtomic<Int>
    /// Producer-set position the consumer skips to: frames queued before it are discarded (a player's stop or restart).
    let skipTo: UnsafeAtomic<Int>
    /// Producer-set position the consumer does not read past while a restart prepares what follows it (`Int.max`:
    /// none): the consumer plays silence there without counting an underrun, so a player starts with its first frame.
    let holdAt: UnsafeAtomic<Int>
    /// Producer-side: how many frames of zeros were written last in a row (capped at the capacity; the storage
    /// starts as zeros). At the capacity every slot holds zeros, so writing silence only moves the head.
    let zeroRun: UnsafeMutablePointer<Int>

    /// Producer: appends `frames` frames of `count` channels scaled by `gain` (or `frameGains[frame]` when
    /// given), all or nothing; a missing channel repeats the last one, `count == 0` writes silence.
    /// A full ring drops the whole block and counts an overrun: the audio thread never waits.
    @inline(__always)
    func write(
        _ sources: UnsafePointer<UnsafePointer<Float>>, count: Int, frames: Int, gain: Float, frameGains: UnsafePointer<Float>?
    ) {
        framesOffered.wrappingIncrement(by: frames, ordering: .relaxed)
        let mask = core.mask
        guard let start = core.reserve(frames) else {
            framesDropped.wrappingIncrement(by: frames, ordering: .relaxed)
            overruns.wrappingIncrement(ordering: .relaxed)
            return
        }
        if count == 0 && zeroRun.pointee >= core.capacity {   // every slot already holds zeros
            core.publish(upTo: start + frames)
            return
        }
        zeroRun.pointee = count == 0 ? min(zeroRun.pointee + frames, core.capacity) : 0
        for channel in 0..<channels {
            if count == 0 {
                for frame in 0..<frames { storage[((start + frame) & mask) * channels + channel] = 0 }
                continue
            }
            let source = sources[min(channel, count - 1)]
            if let frameGains {
                for frame in 0..<frames { storage[((start + frame) & mask) * channels + channel] = source[frame] * frameGains[frame] }
            } else {
                for frame in 0..<frames { storage[((start + frame) & mask) * channels + channel] = source[frame] * gain }
            }
        }
        core.publish(upTo: start + frames)
    }

    /// Consumer: copies up to `frames` frames into `destination` (planar, one pointer per channel, from
    /// `offset`); the rest is zero-filled and counted as an underrun (not at a hold). Returns the frames copied.
    @inline(__always)
    func read(into destination: UnsafePointer<UnsafeMutablePointer<Float>>, offset: Int, frames: Int) -> Int {
        let mask = core.mask
        var start = core.readPosition
        let skip = skipTo.load(ordering: .acquiring)
        if skip > start { start = skip }
        let readable = core.readableCount(from: start)
        let hold = holdAt.load(ordering: .acquiring)   // after the head: frames published after a hold are held
        let available = min(frames, hold == .max ? readable : min(readable, max(hold &- start, 0)))
        let held = hold != .max && start &+ available >= hold   // waiting at the hold: silence, not an underrun
        for channel in 0..<channels {
            let output = destination[channel] + offset
            for frame in 0..<available { output[frame] = storage[((start + frame) & mask) * channels + channel] }
            for frame in available..<frames { output[frame] = 0 }
        }
        core.release(upTo: start + available)
        if available < frames && !held {
            framesDropped.wrappingIncrement(by: frames - available, ordering: .relaxed)
            underruns.wrappingIncrement(ordering: .relaxed)
        }
        return available
    }
}

/// A fixed-size ring of interleaved float frames from exactly one producer thread to one consumer thread.
///
/// Recording: the audio thread writes tapped signal (``EngineGraph/attachTap(_:to:)``), a disk thread
/// drains it with ``drain(into:maxFrames:)``. File playback: a disk thread fills it with
/// ``fill(from:frames:)`` and the audio thread reads a strip's input from it. Neither side ever waits
/// or allocates; a full ring drops a block (an overrun), an empty one plays silence (an underrun), both counted.
public final class TapRing: @unchecked Sendable {
    let state: UnsafeMutablePointer<TapRingState>

    /// A ring holding at least `frames` frames of `channels` channels (rounded up to a power of two).
    public init(channels: Int, frames: Int) {
        let core = SPSCRingCore(capacity: frames)
        let channels = max(1, channels)
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: core.capacity * channels)
        storage.initialize(repeating: 0, count: core.capacity * channels)
        let zeroRun = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        zeroRun.initialize(to: core.capacity)
        state = .allocate(capacity: 1)
        state.initialize(to: TapRingState(
            storage: storage, channels: channels, core: core,
            framesOffered: .create(0), framesDropped: .create(0), overruns: .create(0), underruns: .create(0), skipTo: .create(0),
            holdAt: .create(.max), zeroRun: zeroRun))
    }

    deinit {
        let ring = state.pointee
        ring.storage.deallocate()
        ring.zeroRun.deallocate()
        ring.core.destroy()
        for atomic in [ring.framesOffered, ring.framesDropped, ring.overruns, ring.underruns, ring.skipTo, ring.holdAt] { atomic.destroy() }
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Channels per frame.
    public var channels: Int { state.pointee.channels }
    /// Frames the ring holds when full.
    public var capacity: Int { state.pointee.core.capacity }
    /// Frames waiting to be read.
    public var availableFrames: Int { state.pointee.core.readableCount }
    /// Frames that can be written now (producer side).
    public var freeFrames: Int { state.pointee.core.freeCount }
    /// Frames the audio thread offered (recording) so far.
    public var framesOffered: Int { state.pointee.framesOffered.load(ordering: .relaxed) }
    /// Frames lost: dropped on overruns (recording) or played as silence on underruns (playback).
    public var framesDropped: Int { state.pointee.framesDropped.load(ordering: .relaxed) }
    /// Blocks dropped because the ring was full.
    public var overrunCount: Int { state.pointee.overruns.load(ordering: .relaxed) }
    /// Reads that found too few frames.
    public var underrunCount: Int { state.pointee.underruns.load(ordering: .relaxed) }

    /// Consumer (non-realtime): moves up to `maxFrames` interleaved frames into `buffer`; returns the frames moved.
    public func drain(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) -> Int {
        let ring = state.pointee
        let start = ring.core.readPosition
        let frames = min(maxFrames, ring.core.readableCount(from: start))
        for frame in 0..<frames {
            let slot = ((start + frame) & ring.core.mask) * ring.channels
            for channel in 0..<ring.channels { buffer[frame * ring.channels + channel] = ring.storage[slot + channel] }
        }
        ring.core.release(upTo: start + frames)
        return frames
    }

    /// Producer (non-realtime): appends `frames` interleaved frames from `buffer`; returns false, writing
    /// nothing, when they do not fit (check ``freeFrames`` first).
    public func fill(from buffer: UnsafePointer<Float>, frames: Int) -> Bool {
        let ring = state.pointee
        guard let start = ring.core.reserve(frames) else { return false }
        ring.zeroRun.pointee = 0
        for frame in 0..<frames {
            let slot = ((start + frame) & ring.core.mask) * ring.channels
            for channel in 0..<ring.channels { ring.storage[slot + channel] = buffer[frame * ring.channels + channel] }
        }
        ring.core.publish(upTo: start + frames)
        return true
    }

    /// Producer: the position the next written frame will have (pass it to ``discard(before:)``).
    public var writePosition: Int { state.pointee.core.writePosition }

    /// Producer: makes the consumer skip every frame written before `position` that it has not read yet,
    /// so frames written after it play next (a player's stop or restart takes effect at the next cycle).
    public func discard(before position: Int) {
        state.pointee.skipTo.store(position, ordering: .releasing)
    }

    /// Producer: stops the consumer at `position` (silence, no underrun) until ``release()``: frames written after it
    /// stay unheard while a restart prepares them, so they play from the first, all at once, not as they come.
    public func hold(at position: Int) {
        state.pointee.holdAt.store(position, ordering: .releasing)
    }

    /// Producer: lets the consumer read past the ``hold(at:)`` position.
    public func release() {
        state.pointee.holdAt.store(.max, ordering: .releasing)
    }

    /// Consumer (non-realtime, tests): reads planar frames as the audio thread does.
    public func read(into channels: [UnsafeMutablePointer<Float>], frames: Int) -> Int {
        channels.withUnsafeBufferPointer { table in
            state.pointee.read(into: table.baseAddress!, offset: 0, frames: frames)
        }
    }
}
