// A bank of up to 16 narrow cut filters (peaking biquads) whose frequency, depth and width glide click-free. Realtime: process runs on the audio thread.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Up to ``maximumNotches`` narrow cuts, mono or stereo, with no latency: the feedback suppressor's filters.
///
/// Each notch is an Audio EQ Cookbook peaking section with a negative gain (its *depth*), so its cut is
/// bounded (−3 … −40 dB) and its phase disturbance small, unlike an infinite notch. Targets set with
/// ``setNotch(_:frequency:depthDB:q:depthRateDBPerSecond:)`` are approached smoothly: the depth moves in
/// dB at the given rate, the frequency and width glide geometrically (time constant ``glideTime``), and
/// sections are redesigned every ``chunkFrames`` frames. A notch at 0 dB is switched out entirely; one
/// placed from rest jumps to its frequency first and then deepens, so moving notches never click.
public struct NotchBank: ~Copyable {
    /// The most notches a bank holds.
    public static let maximumNotches = 16
    /// Frames between section redesigns while a notch glides.
    public static let chunkFrames = 16
    /// Time constant of frequency and width glides, seconds.
    public static let glideTime = 0.010

    struct Slot {
        var targetFrequency = 1000.0, targetDepth = 0.0, targetQ = 10.0
        var frequency = 1000.0, depth = 0.0, q = 10.0
        var depthStep = 0.0                 // dB per chunk toward the target depth
        var coefficients = BiquadCoefficients.identity
        var s1 = SIMD2<Double>(), s2 = SIMD2<Double>()
        var isSettled = true
    }

    private let slots: UnsafeMutablePointer<Slot>
    private let scratch: UnsafeMutablePointer<SIMD2<Double>>
    private let sampleRate: Double
    private let glideCoefficient: Double
    private var chunkPhase = 0
    /// Channels processed (1 or 2).
    public let channels: Int

    /// A bank of silent (0 dB) notches for `channels` (1 or 2) channels at `sampleRate` Hz.
    public init(channels: Int, sampleRate: Double) {
        self.channels = min(max(channels, 1), 2)
        self.sampleRate = sampleRate
        slots = .allocate(capacity: Self.maximumNotches)
        slots.initialize(repeating: Slot(), count: Self.maximumNotches)
        scratch = .allocate(capacity: Self.chunkFrames)
        scratch.initialize(repeating: SIMD2(), count: Self.chunkFrames)
        glideCoefficient = 1 - exp(-Double(Self.chunkFrames) / (Self.glideTime * sampleRate))
    }

    deinit {
        slots.deinitialize(count: Self.maximumNotches)
        slots.deallocate()
        scratch.deinitialize(count: Self.chunkFrames)
        scratch.deallocate()
    }

    /// Aims notch `index` at `frequency` Hz, `depthDB` (≤ 0; 0 releases it) and width `q`; the depth moves
    /// at `depthRateDBPerSecond`. Out-of-range indices are ignored. Realtime-safe.
    public mutating func setNotch(_ index: Int, frequency: Double, depthDB: Double, q: Double, depthRateDBPerSecond: Double) {
        guard index >= 0, index < Self.maximumNotches, frequency.isFinite, depthDB.isFinite, q.isFinite else { return }
        let slot = slots + index
        slot.pointee.targetFrequency = min(max(frequency, 20), 0.45 * sampleRate)
        slot.pointee.targetDepth = min(max(depthDB, -40), 0)
        slot.pointee.targetQ = min(max(q, 1), 60)
        slot.pointee.depthStep = max(depthRateDBPerSecond, 1) * Double(Self.chunkFrames) / sampleRate
        if slot.pointee.depth == 0 {           // at rest: jump to the new place, then deepen
            slot.pointee.frequency = slot.pointee.targetFrequency
            slot.pointee.q = slot.pointee.targetQ
        }
        slot.pointee.isSettled = false
    }

    /// Notch `index`'s current depth in dB (0 when out of range or at rest).
    public func depth(_ index: Int) -> Double {
        guard index >= 0, index < Self.maximumNotches else { return 0 }
        return slots[index].depth
    }

    /// Clears the filters' state and jumps every notch to its target.
    public mutating func reset() {
        for index in 0..<Self.maximumNotches {
            let slot = slots + index
            slot.pointee.frequency = slot.pointee.targetFrequency
            slot.pointee.q = slot.pointee.targetQ
            slot.pointee.depth = slot.pointee.targetDepth
            slot.pointee.s1 = SIMD2()
            slot.pointee.s2 = SIMD2()
            redesign(slot)
            slot.pointee.isSettled = true
        }
        chunkPhase = 0
    }

    /// The magnitude response in dB at `frequency` Hz with the sections as they are now (non-realtime helper).
    public func responseDB(at frequency: Double) -> Double {
        let omega = 2 * Double.pi * frequency / sampleRate
        var total = 0.0
        for index in 0..<Self.maximumNotches where slots[index].depth != 0 {
            total += 10 * log10(slots[index].coefficients.squaredMagnitude(omega: omega))
        }
        return total
    }

    /// Filters `frames` frames of `inputs` into `outputs` (``channels`` pointers each; they may alias).
    /// Realtime-safe (`@_noLocks` sits on the filter loop; the glides call libm).
    public mutating func process(inputs: UnsafePointer<UnsafePointer<Float>>, outputs: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int) {
        var done = 0
        while done < frames {
            if chunkPhase == 0 { advanceGlides() }
            let count = min(Self.chunkFrames - chunkPhase, frames - done)
            let left = inputs[0] + done
            let right = inputs[channels - 1] + done
            for frame in 0..<count { scratch[frame] = SIMD2(Double(left[frame]), Double(right[frame])) }
            for index in 0..<Self.maximumNotches where slots[index].depth != 0 {
                Self.run(slots + index, scratch, count)
            }
            for channel in 0..<channels {
                let output = outputs[channel] + done
                for frame in 0..<count { output[frame] = Float(scratch[frame][channel]) }
            }
            done += count
            chunkPhase = (chunkPhase + count) % Self.chunkFrames
        }
    }

    @_noLocks @inline(__always)
    private static func run(_ slot: UnsafeMutablePointer<Slot>, _ buffer: UnsafeMutablePointer<SIMD2<Double>>, _ frames: Int) {
        let c = slot.pointee.coefficients
        var s1 = slot.pointee.s1, s2 = slot.pointee.s2
        for frame in 0..<frames {
            let x = buffer[frame]
            let y = SIMD2(repeating: c.b0) * x + s1
            s1 = SIMD2(repeating: c.b1) * x - SIMD2(repeating: c.a1) * y + s2
            s2 = SIMD2(repeating: c.b2) * x - SIMD2(repeating: c.a2) * y
            buffer[frame] = y
        }
        slot.pointee.s1 = s1
        slot.pointee.s2 = s2
    }

    /// Moves every gliding notch one chunk toward its target and redesigns its section.
    private mutating func advanceGlides() {
        for index in 0..<Self.maximumNotches where !slots[index].isSettled {
            let slot = slots + index
            var s = slot.pointee
            let depthGap = s.targetDepth - s.depth
            s.depth = abs(depthGap) <= s.depthStep ? s.targetDepth : s.depth + (depthGap > 0 ? s.depthStep : -s.depthStep)
            let frequencyRatio = s.targetFrequency / s.frequency
            s.frequency = abs(frequencyRatio - 1) < 1e-6 ? s.targetFrequency : s.frequency * pow(frequencyRatio, glideCoefficient)
            let qRatio = s.targetQ / s.q
            s.q = abs(qRatio - 1) < 1e-6 ? s.targetQ : s.q * pow(qRatio, glideCoefficient)
            s.isSettled = s.depth == s.targetDepth && s.frequency == s.targetFrequency && s.q == s.targetQ
            if s.depth == 0 {                   // switched out: forget its state for the next placement
                s.s1 = SIMD2()
                s.s2 = SIMD2()
            }
            slot.pointee = s
            redesign(slot)
        }
    }

    private func redesign(_ slot: UnsafeMutablePointer<Slot>) {
        let omega = 2 * Double.pi * slot.pointee.frequency / sampleRate
        slot.pointee.coefficients = slot.pointee.depth == 0
            ? .identity : BiquadDesign.section(.peak, omega: omega, gainDB: slot.pointee.depth, q: slot.pointee.q)
    }
}
