// The multichannel delay line that holds audio back while a dynamics kernel looks ahead. Realtime-safe after init.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Delays each of `channels` channels by exactly ``frames`` frames (0: samples pass straight through).
///
/// Per frame, call ``exchange(_:channel:)`` for each channel, then ``advance()`` once. Memory is
/// allocated by `init`; the value holds a pointer, so copies share it: call ``deallocate()`` exactly once.
/// The realtime methods are `@inlinable` so `@_noLocks` kernels in other files can call them.
@frozen
public struct LookaheadDelay: @unchecked Sendable {
    /// The delay in frames.
    public let frames: Int
    @usableFromInline let channels: Int
    @usableFromInline let storage: UnsafeMutablePointer<Float>
    @usableFromInline var position = 0

    /// A silent delay line of `frames` frames (at least 0) for `channels` channels (at least 1).
    public init(channels: Int, frames: Int) {
        self.channels = max(1, channels)
        self.frames = max(0, frames)
        storage = .allocate(capacity: max(1, self.channels * self.frames))
        storage.initialize(repeating: 0, count: max(1, self.channels * self.frames))
    }

    /// Frees the line. Call once, after the last use of any copy.
    public func deallocate() { storage.deallocate() }

    /// Fills the line with silence.
    public mutating func reset() {
        storage.update(repeating: 0, count: max(1, channels * frames))
        position = 0
    }

    /// Stores `sample` for `channel` and returns the sample stored ``frames`` frames ago (this frame's output).
    @inlinable @inline(__always) @_noLocks
    public func exchange(_ sample: Float, channel: Int) -> Float {
        if frames == 0 { return sample }
        let slot = storage + channel * frames + position
        let delayed = slot.pointee
        slot.pointee = sample
        return delayed
    }

    /// Whether every sample in the line is exact +0.0 (bit pattern 0; −0.0 counts as sound): then `frames`
    /// frames of +0.0 through it give +0.0 and leave it as it is but for ``advance(by:)`` (silence gating).
    @_noLocks
    public func holdsOnlyZeros() -> Bool {
        var any: UInt32 = 0
        for index in 0..<channels * frames { any |= storage[index].bitPattern }
        return any == 0
    }

    /// Moves on by `count` frames, as `count` calls of ``advance()`` do.
    @inlinable @_noLocks
    public mutating func advance(by count: Int) {
        if frames == 0 { return }
        position = (position + count) % frames
    }

    /// Moves on to the next frame, after every channel's ``exchange(_:channel:)``.
    @inlinable @inline(__always) @_noLocks
    public mutating func advance() {
        if frames == 0 { return }
        position += 1
        if position == frames { position = 0 }
    }
}
