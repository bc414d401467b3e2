// A binaural bus's room: a few early reflections and a short decorrelated late tail added to its two ears. Realtime (process) after init.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small room around the listener of a binaural bus, so its sources sit outside the head (externalisation).
///
/// The bus's two ears are summed to mono (their mean) and heard again as six fixed early reflections (floor, side
/// walls, ceiling, back and front walls; ``reflections``), each as a pure delay and level per ear: the near ear at the
/// reflection's delay, the far ear later by the spherical-head (Woodworth) time difference of its direction and
/// quieter by up to 6 dB at 90° (broadband). A short late tail (the built-in reverb's tank: 0.35 s, fully wet,
/// decorrelated ears) starts after them at ``tailLevelDB``. Everything is scaled by the room's level (dB, 0 = as
/// designed) and added to the two channels in place, after the binaural sources' sum, so the direct sound is
/// untouched. Delays are whole frames. No allocation after `init`; call ``deallocate()`` once. At rest (silent input,
/// its delay line and tail played out) ``process(left:right:frames:)`` writes nothing.
public struct BinauralRoom: ~Copyable {
    /// One early reflection: the delay at its nearer ear, where it comes from, its level.
    public struct Reflection: Sendable, Equatable {
        /// Milliseconds after the direct sound, at the nearer ear.
        public var delayMs: Double
        /// Degrees, 0 front, positive right.
        public var azimuthDeg: Double
        /// Level at the nearer ear relative to the direct sound, dB.
        public var levelDB: Double
    }

    /// The reflections of a small room (about 5 × 4 m, 2.7 m high, the listener off centre).
    public static let reflections: [Reflection] = [
        Reflection(delayMs: 3.1, azimuthDeg: 0, levelDB: -6),       // floor
        Reflection(delayMs: 4.3, azimuthDeg: -70, levelDB: -7),     // left wall
        Reflection(delayMs: 5.7, azimuthDeg: 65, levelDB: -8),      // right wall
        Reflection(delayMs: 7.9, azimuthDeg: 0, levelDB: -10),      // ceiling
        Reflection(delayMs: 11.3, azimuthDeg: 170, levelDB: -12),   // back wall
        Reflection(delayMs: 14.9, azimuthDeg: -20, levelDB: -13),   // front wall
    ]
    /// The late tail's level relative to the direct sound (its wet gain), dB.
    public static let tailLevelDB: Float = -14
    /// The tail: reverberation time, seconds, and its start after the direct sound, milliseconds.
    public static let tailParameters = ReverbParameters(decay: 0.35, predelay: 16, size: 0.3, damping: 0.5, diffusion: 0.8, mix: 1, width: 1)
    /// The range of the room's level, dB.
    public static let levelRange: ClosedRange<Float> = -40...6
    /// Frames rendered at a time (scratch size).
    static let chunkFrames = 256

    /// Each reflection's delay per ear, frames (left, right).
    public let delays: [SIMD2<Int32>]
    /// Each reflection's linear gain per ear at level 0 dB (left, right).
    public let gains: [SIMD2<Float>]
    private let delayPointer: UnsafeMutablePointer<SIMD2<Int32>>
    private let gainPointer: UnsafeMutablePointer<SIMD2<Float>>
    /// The mono input, written twice (at `p` and `p + capacity`) so every read is in range.
    private let line: UnsafeMutablePointer<Float>
    private let capacity: Int
    private var writeIndex = 0
    private let mid: UnsafeMutablePointer<Float>
    private let tailLeft: UnsafeMutablePointer<Float>
    private let tailRight: UnsafeMutablePointer<Float>
    private var tail: ReverbKernel
    private var level: LinearSmoother
    private let tailGain: Float
    private var silentFrames = Int.max / 2

    /// A room at `sampleRate` Hz, at `levelDB` (clamped to ``levelRange``).
    public init(sampleRate: Double, levelDB: Float = 0) {
        var delays: [SIMD2<Int32>] = [], gains: [SIMD2<Float>] = []
        for reflection in Self.reflections {
            let lateral = asin(abs(sin(reflection.azimuthDeg * .pi / 180)))   // 0 … π/2 towards the nearer ear
            let lag = Double(BinauralPosition.earOffset) / Double(BinauralPosition.speedOfSound) * (lateral + sin(lateral))
            let near = (reflection.delayMs / 1000 * sampleRate).rounded(), far = ((reflection.delayMs / 1000 + lag) * sampleRate).rounded()
            let nearGain = Float(pow(10, reflection.levelDB / 20)), farGain = nearGain * Float(pow(10, -6 * sin(lateral) / 20))
            let isRight = reflection.azimuthDeg > 0
            delays.append(isRight ? SIMD2(Int32(far), Int32(near)) : SIMD2(Int32(near), Int32(far)))
            gains.append(isRight ? SIMD2(farGain, nearGain) : SIMD2(nearGain, farGain))
        }
        self.delays = delays
        self.gains = gains
        delayPointer = .allocate(capacity: delays.count)
        delayPointer.initialize(from: delays, count: delays.count)
        gainPointer = .allocate(capacity: gains.count)
        gainPointer.initialize(from: gains, count: gains.count)
        let longest = Int(delays.map { max($0[0], $0[1]) }.max() ?? 0)
        capacity = longest + Self.chunkFrames + 1
        line = .allocate(capacity: 2 * capacity)
        line.initialize(repeating: 0, count: 2 * capacity)
        mid = .allocate(capacity: Self.chunkFrames)
        mid.initialize(repeating: 0, count: Self.chunkFrames)
        tailLeft = .allocate(capacity: Self.chunkFrames)
        tailLeft.initialize(repeating: 0, count: Self.chunkFrames)
        tailRight = .allocate(capacity: Self.chunkFrames)
        tailRight.initialize(repeating: 0, count: Self.chunkFrames)
        tail = ReverbKernel(parameters: Self.tailParameters, sampleRate: sampleRate)
        tailGain = Decibels.linearGain(fromDecibels: Self.tailLevelDB)
        level = LinearSmoother(value: Decibels.linearGain(fromDecibels: Self.clamped(levelDB)), sampleRate: sampleRate)
    }

    /// Frees the buffers. Call once.
    public func deallocate() {
        for memory in [line, mid, tailLeft, tailRight] { memory.deallocate() }
        delayPointer.deallocate()
        gainPointer.deallocate()
    }

    /// Sets the room's level, dB (ramped over 20 ms; realtime-safe).
    public mutating func setLevel(_ levelDB: Float) {
        level.setTarget(Decibels.linearGain(fromDecibels: Self.clamped(levelDB)))
    }

    private static func clamped(_ levelDB: Float) -> Float {
        levelDB.isNaN ? 0 : min(max(levelDB, levelRange.lowerBound), levelRange.upperBound)
    }

    /// Adds the room of `frames` frames of `left` and `right` to them, in place (realtime-safe).
    public mutating func process(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        var done = 0
        while done < frames {
            let count = min(Self.chunkFrames, frames - done)
            processChunk(left: left + done, right: right + done, frames: count)
            done += count
        }
    }

    private mutating func processChunk(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        var isSilent = true
        for frame in 0..<frames {
            let value = 0.5 * (left[frame] + right[frame])
            mid[frame] = value
            if value != 0 { isSilent = false }
        }
        if isSilent && silentFrames >= capacity && level.isSettled && tail.isAtRest() {
            tail.advanceAtRest(frames: frames)
            return
        }
        silentFrames = isSilent ? silentFrames + frames : 0
        tail.process(left: mid, right: mid, outputLeft: tailLeft, outputRight: tailRight, frames: frames)
        let reflectionCount = delays.count
        for frame in 0..<frames {
            line[writeIndex] = mid[frame]
            line[writeIndex + capacity] = mid[frame]
            let newest = writeIndex + capacity
            var sum = SIMD2<Float>(tailLeft[frame], tailRight[frame]) * tailGain
            for reflection in 0..<reflectionCount {
                let delay = delayPointer[reflection]
                sum += SIMD2(line[newest - Int(delay[0])], line[newest - Int(delay[1])]) * gainPointer[reflection]
            }
            let gain = level.next()
            left[frame] += sum[0] * gain
            right[frame] += sum[1] * gain
            writeIndex += 1
            if writeIndex == capacity { writeIndex = 0 }
        }
    }
}
