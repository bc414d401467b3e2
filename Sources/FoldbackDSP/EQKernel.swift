// The parametric EQ kernel: preallocated bands of biquad sections run on stereo SIMD lanes, and its hot loops. Realtime: process runs on the audio thread.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A parametric EQ of up to ``maximumBands`` bands on one or two channels, plus an output gain.
///
/// setup: `init` (allocates everything); update: `set…` (retargets, realtime-safe); process:
/// ``process(inputs:outputs:frames:)``.
///
/// Each band is one second-order section (two for 24 dB/octave high/low-pass) designed by
/// ``BiquadDesign`` and run in transposed direct form II, in `Double`, with a stereo strip's two channels
/// as the two lanes of a `SIMD2<Double>`: one 128-bit register, so stereo costs what mono does, and
/// double precision keeps low corners and the state's noise floor clean at 96 kHz. (The lanes never mix,
/// so stereo output equals two mono runs exactly.) A mono kernel fills the lanes with sections instead:
/// runs of ten go through ``MixedTen`` (the first two sections in double, eight in single precision,
/// four per register) when every section after the first two keeps its poles and zeros clear of z = 1
/// (``EQSectionCascade/needsDouble(_:)``), else through ``SkewedTen`` (two per register, computing
/// exactly what the stereo lanes do). Mono output stays within 0.002 dB of the analytic response and
/// more than 100 dB below the output of the double-precision stereo path. The steady bands' cascade is
/// gathered and prepared once (``EQCascadePlan``: single-precision coefficients, state kept in the
/// pipelines) and again only when a band's coefficients or enabling change (every glide step while a band
/// glides); a mono plan of one ``MixedTen`` run filters straight from the input to the output.
///
/// Parameter changes glide, as in x42 fil4: frequency (in log₂ Hz), gain (in dB) and Q (in log₂ Q) move
/// linearly from where they are to the new target over the smoothing time, in steps of ``chunkFrames``
/// frames, and the band's sections are redesigned at every step. Steps fall at fixed frame positions
/// (multiples of ``chunkFrames`` since `init` or ``reset()``), so the output does not depend on block
/// size. Enabling or disabling a band crossfades between its input and its output over the smoothing
/// time; a fully disabled band costs nothing. After every block, a state that went non-finite (NaN or
/// infinite input) is cleared, and state below 1e-30 is flushed to zero.
public struct EQKernel: ~Copyable {
    /// The most bands one kernel holds; storage for all of them is allocated up front.
    public static let maximumBands = 32
    /// Frames between coefficient updates while a parameter glides.
    public static let chunkFrames = 16
    /// The longest stretch processed at once through the scratch buffer.
    /// (256: a mono run of ten sections spends nine steps filling and nine draining its skewed
    /// pipeline, whatever its length.)
    static let blockFrames = 256

    let bands: UnsafeMutablePointer<EQBandRuntime>
    let scratch: UnsafeMutablePointer<SIMD2<Double>>
    /// The sections of the bands being filtered, gathered for ``EQSectionCascade`` (two per band at most).
    let sections: UnsafeMutablePointer<EQSection>
    /// The number of bands, fixed at setup.
    public let bandCount: Int
    /// 1 or 2.
    public let channels: Int
    /// The rate the sections are designed for, in Hz.
    public let sampleRate: Double
    /// Coefficient steps in one glide.
    let glideSteps: Int
    /// Frames in one enable/disable crossfade.
    let fadeFrames: Int
    var outputGain: LinearSmoother
    /// Frames since the last chunk boundary.
    var chunkPhase = 0
    /// Bands whose parameters are gliding.
    var glidingBands = 0
    /// The steady bands' cascade, gathered and prepared once; valid until a band's coefficients or
    /// enabling change (``invalidatePlan()``). While valid, it holds their filter state.
    var plan = EQCascadePlan()
    var isPlanValid = false

    /// A kernel running `bands` (at most ``maximumBands``) on `channels` (1 or 2) channels at `sampleRate` Hz,
    /// gliding parameter changes over `smoothingTime` seconds. Allocates; call off the audio thread.
    public init(bands: [EQBand], outputGainDB: Double = 0, channels: Int, sampleRate: Double,
                smoothingTime: Double = LinearSmoother.defaultTime) {
        precondition(bands.count <= Self.maximumBands, "EQKernel holds at most \(Self.maximumBands) bands; callers check")
        precondition(channels == 1 || channels == 2, "EQKernel runs 1 or 2 channels; callers check")
        self.bands = .allocate(capacity: Self.maximumBands)
        scratch = .allocate(capacity: Self.blockFrames)
        scratch.initialize(repeating: .zero, count: Self.blockFrames)
        sections = .allocate(capacity: 2 * Self.maximumBands)
        bandCount = bands.count
        self.channels = channels
        self.sampleRate = sampleRate
        let frames = max(1, Int((smoothingTime * sampleRate).rounded()))
        fadeFrames = frames
        glideSteps = max(1, Int((Double(frames) / Double(Self.chunkFrames)).rounded()))
        outputGain = LinearSmoother(value: Decibels.linearGain(fromDecibels: Float(outputGainDB)), time: smoothingTime, sampleRate: sampleRate)
        for (index, band) in bands.enumerated() {
            (self.bands + index).initialize(to: EQBandRuntime(band, sampleRate: sampleRate))
        }
    }

    deinit {
        bands.deinitialize(count: bandCount)
        bands.deallocate()
        scratch.deinitialize(count: Self.blockFrames)
        scratch.deallocate()
        sections.deallocate()
        plan.deallocate()
    }

    /// Filters `frames` frames of ``channels`` channels from `inputs` to `outputs`; they may alias.
    /// (Not `@_noLocks` itself: glide steps call libm and the gain ramp lives in another file. The
    /// per-band loops it calls are.)
    public mutating func process(
        inputs: UnsafePointer<UnsafePointer<Float>>, outputs: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int
    ) {
        let left = inputs[0]
        let right = channels == 2 ? inputs[1] : inputs[0]
        var done = 0
        while done < frames {
            if chunkPhase == 0 && glidingBands > 0 { stepGlides() }
            let count = min(frames - done, glidingBands > 0 ? Self.chunkFrames - chunkPhase : Self.blockFrames)
            if !isPlanValid { planIfSteady() }
            if channels == 1 && outputGain.isSettled && isPlanValid && plan.isOneMixedRun {
                plan.runDirect(scratch, from: left + done, to: outputs[0] + done, frames: count, gain: Double(outputGain.value))
            } else {
                Self.load(scratch, left: left + done, right: right + done, isStereo: channels == 2, count: count)
                filterBands(count)
                storeOutput(outputs, offset: done, count: count)
            }
            chunkPhase = (chunkPhase + count) % Self.chunkFrames
            done += count
        }
        if isPlanValid {
            if plan.sanitize(sections) { return }   // the bands outside the plan are off, their state cleared
            invalidatePlan()
        }
        for index in 0..<bandCount { Self.sanitize(&bands[index]) }
    }

    /// Writes the scratch buffer to the outputs through the output gain.
    private mutating func storeOutput(_ outputs: UnsafePointer<UnsafeMutablePointer<Float>>, offset: Int, count: Int) {
        let left = outputs[0] + offset
        if outputGain.isSettled {
            let gain = Double(outputGain.value)
            for frame in 0..<count { left[frame] = Float(scratch[frame].x * gain) }
            if channels == 2 {
                let right = outputs[1] + offset
                for frame in 0..<count { right[frame] = Float(scratch[frame].y * gain) }
            }
            return
        }
        for frame in 0..<count {
            let gain = Double(outputGain.next())
            left[frame] = Float(scratch[frame].x * gain)
            if channels == 2 { outputs[1][offset + frame] = Float(scratch[frame].y * gain) }
        }
    }

    /// Converts `count` frames to the lanes of `buffer` (a mono input leaves the second lane at 0).
    @_noLocks
    static func load(_ buffer: UnsafeMutablePointer<SIMD2<Double>>, left: UnsafePointer<Float>, right: UnsafePointer<Float>,
                     isStereo: Bool, count: Int) {
        if isStereo {
            for frame in 0..<count { buffer[frame] = SIMD2(Double(left[frame]), Double(right[frame])) }
        } else {
            for frame in 0..<count { buffer[frame] = SIMD2(Double(left[frame]), 0) }
        }
    }

    /// Runs every band over `count` frames of the scratch buffer, in place: the sections of consecutive
    /// steady bands go through ``EQSectionCascade`` together; a fading band runs on its own, in order;
    /// a fully disabled band is skipped. With no band fading, the gathered cascade is planned once and
    /// reused until a band changes (see ``planIfSteady()``).
    private func filterBands(_ count: Int) {
        if isPlanValid { return plan.run(sections, scratch, frames: count) }
        var gathered = 0
        for index in 0..<bandCount {
            let band = bands + index
            if band.pointee.fadeFrames > 0 {
                runGathered(gathered, count)
                gathered = 0
                Self.crossfade(&band.pointee, scratch, count)
                if band.pointee.isTypePending && band.pointee.fadeFrames == 0 { switchType(index) }
                continue
            }
            gather(index, at: &gathered)
        }
        runGathered(gathered, count)
    }

    /// Runs the first `gathered` gathered sections over the scratch buffer and stores their state back.
    private func runGathered(_ gathered: Int, _ count: Int) {
        if gathered == 0 { return }
        EQSectionCascade.run(sections, count: gathered, scratch, frames: count, isMono: channels == 1)
        storeState(gathered)
    }

    /// A band fading in or out: output = input + mix · (filtered − input), mix ramping linearly per frame.
    @_noLocks
    static func crossfade(_ band: inout EQBandRuntime, _ buffer: UnsafeMutablePointer<SIMD2<Double>>, _ count: Int) {
        let target = band.fadeTarget
        for frame in 0..<count {
            let dry = buffer[frame]
            var wet = tick(band.first, &band.state.0, &band.state.1, dry)
            if band.sectionCount == 2 { wet = tick(band.second, &band.state.2, &band.state.3, wet) }
            if band.fadeFrames > 0 {
                band.fadeFrames -= 1
                band.mix = target - band.fadeStep * Double(band.fadeFrames)   // exact at the end
            }
            buffer[frame] = dry + SIMD2(repeating: band.mix) * (wet - dry)
        }
        if band.fadeFrames == 0 && band.mix == 0 { band.clearState() }
    }

    /// One frame through one section.
    @_noLocks @inline(__always)
    static func tick(_ c: BiquadCoefficients, _ s1: inout SIMD2<Double>, _ s2: inout SIMD2<Double>, _ x: SIMD2<Double>) -> SIMD2<Double> {
        let y = SIMD2(repeating: c.b0) * x + s1
        s1 = SIMD2(repeating: c.b1) * x - SIMD2(repeating: c.a1) * y + s2
        s2 = SIMD2(repeating: c.b2) * x - SIMD2(repeating: c.a2) * y
        return y
    }

    /// Clears a state that went non-finite and flushes tiny values to zero.
    @_noLocks
    static func sanitize(_ band: inout EQBandRuntime) {
        let sum = band.state.0 + band.state.1 + band.state.2 + band.state.3
        guard sum.x.isFinite && sum.y.isFinite else {
            band.clearState()
            return
        }
        band.state = (flushed(band.state.0), flushed(band.state.1), flushed(band.state.2), flushed(band.state.3))
    }

    @_noLocks @inline(__always)
    static func flushed(_ value: SIMD2<Double>) -> SIMD2<Double> {
        SIMD2(abs(value.x) < 1e-30 ? 0 : value.x, abs(value.y) < 1e-30 ? 0 : value.y)
    }
}

/// One band's live state: parameter glide, enable crossfade, coefficients and filter state.
struct EQBandRuntime {
    /// The shape the band filters with now, and the one it takes once faded out (``EQKernel/setType(_:band:)``).
    var type: EQBandType
    var pendingType: EQBandType
    var isTypePending = false
    var sectionCount: Int
    let slopeDBPerOctave: Int
    /// (log₂ frequency in Hz, gain in dB, log₂ Q): where the band is, where it is going, and the step.
    var current: SIMD3<Double>
    var target: SIMD3<Double>
    var step: SIMD3<Double> = .zero
    /// Coefficient steps left in the glide (0: settled).
    var glideSteps = 0
    /// The enable target, the crossfade position (0 off … 1 on), its per-frame step and frames left.
    var isEnabled: Bool
    var mix: Double
    var fadeStep = 0.0
    var fadeFrames = 0
    var first = BiquadCoefficients.identity
    var second = BiquadCoefficients.identity
    /// TDF-II state (s1, s2) of the first section, then of the second.
    var state: (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>, SIMD2<Double>) = (.zero, .zero, .zero, .zero)

    init(_ band: EQBand, sampleRate: Double) {
        type = band.type
        pendingType = band.type
        sectionCount = band.sectionCount
        slopeDBPerOctave = band.slopeDBPerOctave
        let maximum = EQBand.maximumFrequency(sampleRate: sampleRate)
        let frequency = min(max(band.frequency, EQBand.frequencyRange.lowerBound), maximum)
        let gain = min(max(band.gainDB, EQBand.gainRange.lowerBound), EQBand.gainRange.upperBound)
        let q = min(max(band.q, EQBand.qRange.lowerBound), EQBand.qRange.upperBound)
        current = SIMD3(log2(frequency), gain, log2(q))
        target = current
        isEnabled = band.isEnabled
        mix = band.isEnabled ? 1 : 0
        design(sampleRate: sampleRate)
    }

    /// The band at its current (gliding) parameters.
    var currentBand: EQBand {
        EQBand(type: type, frequency: exp2(current.x), gainDB: current.y, q: exp2(current.z),
               slopeDBPerOctave: slopeDBPerOctave, isEnabled: isEnabled)
    }

    /// Redesigns the sections from the current parameters.
    mutating func design(sampleRate: Double) {
        let (first, second) = BiquadDesign.sections(for: currentBand, sampleRate: sampleRate)
        self.first = first
        self.second = second ?? .identity
    }

    mutating func clearState() { state = (.zero, .zero, .zero, .zero) }

    /// The shape the band is heading to.
    var headingType: EQBandType { isTypePending ? pendingType : type }

    /// Where the crossfade heads: on when enabled and no type change waits for the band to fade out.
    var fadeTarget: Double { isEnabled && !isTypePending ? 1 : 0 }

    /// Takes the waiting type (the band is silent): its section count follows; the caller redesigns.
    mutating func takePendingType() {
        guard isTypePending else { return }
        isTypePending = false
        type = pendingType
        sectionCount = EQBand(type: pendingType, frequency: 1000, slopeDBPerOctave: slopeDBPerOctave).sectionCount
    }
}
