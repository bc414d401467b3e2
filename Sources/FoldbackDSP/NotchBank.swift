// A bank of up to 16 narrow cut filters (peaking biquads) whose frequency, depth and width glide click-free. Realtime: process runs on the audio thread.
// SPDX-License-Identifier: GPL-3.0-or-later
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
/// sections are redesigned every ``chunkFrames`` frames. A notch at 0 dB is switched out entirely; the others
/// run through ``EQSectionCascade`` (several sections per pass, as the EQ's do). One placed from rest jumps to its frequency first and then deepens, so moving notches never click.
public struct NotchBank: ~Copyable {
    /// The most notches a bank holds.
    public static let maximumNotches = 16
    /// Frames between section redesigns while a notch glides.
    public static let chunkFrames = 16
    /// Time constant of frequency and width glides, seconds.
    public static let glideTime = 0.010
    /// The most frames run in one pass while no notch glides.
    static let passFrames = 256

    struct Slot {
        var targetFrequency = 1000.0, targetDepth = 0.0, targetQ = 10.0
        var frequency = 1000.0, depth = 0.0, q = 10.0
        var depthStep = 0.0                 // dB per chunk toward the target depth
        var isSettled = true
    }

    private let slots: UnsafeMutablePointer<Slot>
    /// Each slot's section (coefficients and state), `owner` = slot; run through ``EQSectionCascade``.
    private let sections: UnsafeMutablePointer<EQSection>
    /// The active slots' sections gathered for one chunk.
    private let gathered: UnsafeMutablePointer<EQSection>
    private let scratch: UnsafeMutablePointer<SIMD2<Double>>
    private let sampleRate: Double
    private let glideCoefficient: Double
    var chunkPhase = 0
    /// Channels processed (1 or 2).
    public let channels: Int

    /// A bank of silent (0 dB) notches for `channels` (1 or 2) channels at `sampleRate` Hz.
    public init(channels: Int, sampleRate: Double) {
        self.channels = min(max(channels, 1), 2)
        self.sampleRate = sampleRate
        slots = .allocate(capacity: Self.maximumNotches)
        slots.initialize(repeating: Slot(), count: Self.maximumNotches)
        sections = .allocate(capacity: Self.maximumNotches)
        gathered = .allocate(capacity: Self.maximumNotches)
        for index in 0..<Self.maximumNotches {
            (sections + index).initialize(to: EQSection(coefficients: .identity, s1: SIMD2(), s2: SIMD2(), owner: index))
            (gathered + index).initialize(to: sections[index])
        }
        scratch = .allocate(capacity: Self.passFrames)
        scratch.initialize(repeating: SIMD2(), count: Self.passFrames)
        glideCoefficient = 1 - exp(-Double(Self.chunkFrames) / (Self.glideTime * sampleRate))
    }

    deinit {
        slots.deinitialize(count: Self.maximumNotches)
        slots.deallocate()
        sections.deinitialize(count: Self.maximumNotches)
        sections.deallocate()
        gathered.deinitialize(count: Self.maximumNotches)
        gathered.deallocate()
        scratch.deinitialize(count: Self.passFrames)
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
            sections[index].s1 = SIMD2()
            sections[index].s2 = SIMD2()
            redesign(index)
            slot.pointee.isSettled = true
        }
        chunkPhase = 0
    }

    /// The magnitude response in dB at `frequency` Hz with the sections as they are now (non-realtime helper).
    public func responseDB(at frequency: Double) -> Double {
        let omega = 2 * Double.pi * frequency / sampleRate
        var total = 0.0
        for index in 0..<Self.maximumNotches where slots[index].depth != 0 {
            total += 10 * log10(sections[index].coefficients.squaredMagnitude(omega: omega))
        }
        return total
    }

    /// Filters `frames` frames of `inputs` into `outputs` (``channels`` pointers each; they may alias).
    /// Realtime-safe (`@_noLocks` sits on the filter loop; the glides call libm).
    public mutating func process(inputs: UnsafePointer<UnsafePointer<Float>>, outputs: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int) {
        var done = 0
        while done < frames {
            let count = beginPass(upTo: frames - done)
            let left = inputs[0] + done
            let right = inputs[channels - 1] + done
            for frame in 0..<count { scratch[frame] = SIMD2(Double(left[frame]), Double(right[frame])) }
            var active = 0
            for index in 0..<Self.maximumNotches where slots[index].depth != 0 {
                gathered[active] = sections[index]
                active += 1
            }
            EQSectionCascade.run(gathered, count: active, scratch, frames: count, isMono: channels == 1)
            for index in 0..<active {   // a state below 1e-30 is flushed, as the EQ's: at the edge of the normal
                var section = gathered[index]   // range a decaying double can cycle instead of reaching zero
                section.s1 = EQKernel.flushed(section.s1)
                section.s2 = EQKernel.flushed(section.s2)
                sections[section.owner] = section
            }
            for channel in 0..<channels {
                let output = outputs[channel] + done
                for frame in 0..<count { output[frame] = Float(scratch[frame][channel]) }
            }
            done += count
        }
    }

    /// Starts one pass of at most `remaining` frames: glides a chunk on when one begins, moves the chunk phase past
    /// the pass (a chunk's frames while a notch glides, else up to ``passFrames``) and returns its length.
    mutating func beginPass(upTo remaining: Int) -> Int {
        if chunkPhase == 0 { advanceGlides() }
        let count = min(isGliding ? Self.chunkFrames - chunkPhase : Self.passFrames, remaining)
        chunkPhase = (chunkPhase + count) % Self.chunkFrames
        return count
    }

    /// Whether any notch is still moving toward its target.
    var isGliding: Bool { (0..<Self.maximumNotches).contains { !slots[$0].isSettled } }

    /// Whether notch `index` has reached its target.
    func isSettled(_ index: Int) -> Bool { slots[index].isSettled }

    /// Whether notch `index`'s filter state is exactly zero.
    func isStateZero(_ index: Int) -> Bool { sections[index].s1 == .zero && sections[index].s2 == .zero }

    /// Moves every gliding notch one chunk toward its target and redesigns its section.
    mutating func advanceGlides() {
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
                sections[index].s1 = SIMD2()
                sections[index].s2 = SIMD2()
            }
            slot.pointee = s
            redesign(index)
        }
    }

    private func redesign(_ index: Int) {
        let slot = slots[index]
        let omega = 2 * Double.pi * slot.frequency / sampleRate
        sections[index].coefficients = slot.depth == 0 ? .identity : BiquadDesign.section(.peak, omega: omega, gainDB: slot.depth, q: slot.q)
    }
}
