// The `delay` unit's kernel: a multichannel delay line of 0 … 500 ms whose changes crossfade between two read heads. Realtime: process, setDelay and reset run on the audio thread.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Delays every channel by a whole number of frames, up to ``maximumTime`` seconds, and moves between
/// settings without clicks.
///
/// setup: `init` (allocates the ring for ``maximumTime`` at the sample rate; nothing is allocated
/// afterwards); update: ``setDelay(frames:)``; process: ``process(inputs:outputs:channels:frames:)``.
///
/// How a change sounds: the kernel keeps two read heads, the old delay and the new one, and crossfades
/// linearly from the first to the second over ``fadeTime`` (no pitch glide, no interpolation: once the
/// fade ends the output is the input delayed by exactly the new number of frames). A change that arrives
/// during a fade waits for it to finish and then fades on from there, so a fader sweep becomes a chain of
/// 20 ms crossfades. On a sine of amplitude A at f Hz the step between consecutive output samples during a
/// fade is at most A·(2πf/fs + 2/fadeFrames), against A·2πf/fs when nothing moves.
///
/// A delay is an intended part of the sound (aligning a delay speaker, syncing in-ears), not processing
/// latency: the engine is told it adds none.
public struct DelayKernel: ~Copyable {
    /// The longest delay, in seconds.
    public static let maximumTime = 0.5
    /// The speed of sound the `distance_m` spelling assumes, in m/s (dry air at about 20 °C).
    public static let speedOfSound = 343.0
    /// The crossfade time of a change, in seconds.
    public static let fadeTime = 0.020
    /// Frames written at once before reading; the ring keeps this much room beyond the longest delay.
    static let chunkFrames = 256

    /// The number of channels the ring holds.
    public let channels: Int
    /// The rate it runs at, in Hz.
    public let sampleRate: Double
    /// The longest delay in frames: round(``maximumTime`` · sample rate).
    public let maximumFrames: Int
    /// Frames in one crossfade.
    public let fadeFrames: Int
    private let ring: UnsafeMutablePointer<Float>
    private let capacity: Int
    private let mask: Int
    private var write = 0
    /// The delay the output is heading to (or at), the one it fades from, and the latest request.
    public private(set) var delayFrames: Int
    private var previousFrames: Int
    private var requestedFrames: Int
    private var fadeLeft = 0
    /// Frames since anything but +0.0 was written to a line (at least `capacity`: every line is exact zeros).
    private var zeroRun = Int.max / 2

    /// A silent line of `channels` channels (at least 1) at `sampleRate` Hz, delaying by `delayFrames`
    /// frames (clamped to 0 … ``maximumFrames``). Allocates; call off the audio thread.
    public init(channels: Int, sampleRate: Double, delayFrames: Int) {
        self.channels = max(1, channels)
        self.sampleRate = sampleRate
        maximumFrames = Int((Self.maximumTime * sampleRate).rounded())
        fadeFrames = max(1, Int((Self.fadeTime * sampleRate).rounded()))
        var size = 1
        while size < maximumFrames + Self.chunkFrames + 1 { size <<= 1 }
        capacity = size
        mask = size - 1
        ring = .allocate(capacity: self.channels * size)
        ring.initialize(repeating: 0, count: self.channels * size)
        let start = min(max(delayFrames, 0), maximumFrames)
        self.delayFrames = start
        previousFrames = start
        requestedFrames = start
    }

    deinit {
        ring.deallocate()
    }

    /// round(`milliseconds` · fs / 1000), clamped to 0 … ``maximumFrames``; NaN gives 0.
    public func frames(milliseconds: Double) -> Int {
        guard !milliseconds.isNaN else { return 0 }
        let frames = (milliseconds * sampleRate / 1000).rounded()
        return Int(min(max(frames, 0), Double(maximumFrames)))
    }

    /// Asks for a delay of `frames` frames (clamped to 0 … ``maximumFrames``); the output crossfades to it.
    public mutating func setDelay(frames: Int) {
        requestedFrames = min(max(frames, 0), maximumFrames)
    }

    /// Whether no crossfade is running or waiting.
    public var isSettled: Bool { fadeLeft == 0 && requestedFrames == delayFrames }

    /// Whether processing zeros would write exact +0.0 and change nothing but the write position (silence
    /// gating): no crossfade running or due, and every line exact zeros.
    public var isAtRest: Bool { isSettled && zeroRun >= capacity }

    /// Moves the write position by `frames`, as ``process(inputs:outputs:frames:)`` does at rest.
    public mutating func advanceAtRest(frames: Int) {
        write = (write &+ frames) & mask
    }

    /// Clears the line and jumps to the requested delay.
    public mutating func reset() {
        ring.update(repeating: 0, count: channels * capacity)
        write = 0
        zeroRun = capacity
        delayFrames = requestedFrames
        previousFrames = requestedFrames
        fadeLeft = 0
    }

    /// Delays ``channels`` channels of `frames` frames from `inputs` into `outputs`, which must not alias.
    @_noLocks
    public mutating func process(
        inputs: UnsafePointer<UnsafePointer<Float>>, outputs: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int
    ) {
        var done = 0
        while done < frames {
            if fadeLeft == 0 && requestedFrames != delayFrames {
                previousFrames = delayFrames
                delayFrames = requestedFrames
                fadeLeft = fadeFrames
            }
            var count = min(frames - done, Self.chunkFrames)
            if fadeLeft > 0 { count = min(count, fadeLeft) }
            var isChunkSilent = true
            for channel in 0..<channels {
                let line = ring + channel * capacity
                let input = inputs[channel] + done
                let output = outputs[channel] + done
                var written: UInt32 = 0
                for frame in 0..<count {
                    line[(write &+ frame) & mask] = input[frame]
                    written |= input[frame].bitPattern
                }
                if written != 0 { isChunkSilent = false }
                if fadeLeft == 0 {
                    for frame in 0..<count { output[frame] = line[(write &+ frame &- delayFrames) & mask] }
                } else {
                    readFading(line, output, count)
                }
            }
            write = (write &+ count) & mask
            zeroRun = isChunkSilent ? min(zeroRun &+ count, capacity) : 0
            if fadeLeft > 0 { fadeLeft -= count }
            done += count
        }
    }

    /// Reads `count` frames mixing the old head into the new: the new head's weight rises linearly and is
    /// exactly 1 on the fade's last frame.
    @_noLocks @inline(__always)
    private func readFading(_ line: UnsafeMutablePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ count: Int) {
        let length = Float(fadeFrames)
        let start = fadeFrames - fadeLeft
        for frame in 0..<count {
            let weight = Float(start + frame + 1) / length
            let old = line[(write &+ frame &- previousFrames) & mask]
            let new = line[(write &+ frame &- delayFrames) & mask]
            output[frame] = old + weight * (new - old)
        }
    }
}
