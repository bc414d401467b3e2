// The algorithmic stereo reverb kernel behind the built-in `reverb` unit: smoothing, control-rate coefficients and the block driver. Realtime: update, process and reset run on the audio thread.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A stereo reverb: mono (mid) or true-stereo input into an 8-line feedback delay network; stereo wet output
/// mixed with the untouched dry signal.
///
/// setup: `init` (allocates every delay line for the largest size, no allocation afterwards);
/// update: ``update(_:)``; process: ``process(left:right:outputLeft:outputRight:frames:)``; ``reset()``.
///
/// Laws: the broadband (low-frequency) RT60 equals ``ReverbParameters/decay`` (each line's loop gain is
/// 10^(−3·d/(RT60·fs)) for its delay d samples); damping shortens the RT60 at 4 kHz to
/// `decay × (1 − 0.9 × damping)` with a one-pole low-pass per line; mix is equal-power
/// (dry cos(mix·π/2), wet sin(mix·π/2)); width is an energy-preserving mid/side blend of two uncorrelated
/// outputs. The wet impulse response carries ≈ decay / 2 s of the dry impulse's energy, whatever the size.
///
/// Smoothing: coefficients are recomputed every 32 samples (a control tick) and ramped linearly in
/// between; mix, width and diffusion ramp over 20 ms, decay and damping over 50 ms; a size change glides
/// the delay lengths at most 0.05 samples per sample (a pitch glide under a semitone, never a click); a
/// predelay change crossfades over 30 ms. Parameters take effect at the next tick (≤ 32 samples), so the
/// output does not depend on how the host splits its blocks.
///
/// Silence: when the input has been exactly 0 and the tank below −200 dBFS for as long as its delay memory
/// spans, the state is cleared and the wet output is exactly 0 (from then on no denormals, FTZ or not).
/// While a tail decays, sparse early echoes can leave subnormal values in the damping state and the lines
/// (a scan without FTZ found some at 96 kHz and after a 1e-20 impulse); the engine runs every kernel with
/// FTZ/DAZ on, which flushes them. A non-finite value in the tank (NaN or ∞ input) clears it at the end of
/// the tick.
public struct ReverbKernel: ~Copyable {
    /// The current targets (sanitised).
    public private(set) var parameters: ReverbParameters
    /// The sample rate it runs at, in Hz.
    public let sampleRate: Double

    private var tank: ReverbTank
    private let minimumLength: Int
    private let dampingCosine: Float
    private let predelayFadeFrames: Int
    // Smoothed controls, advanced once per control tick.
    private var decayRate: LinearSmoother
    private var damping: LinearSmoother
    private var diffusion: LinearSmoother
    private var dryGain: LinearSmoother
    private var wetGain: LinearSmoother
    private var width: LinearSmoother
    // The size glide: lengths now (end of this tick), their target, the step per tick and ticks left.
    private var lengths: SIMD8<Float>
    private var lengthTarget: SIMD8<Float>
    private var lengthStep = SIMD8<Float>()
    private var lengthTicksLeft = 0
    private var predelayTarget: Int
    private var tickEnd: ReverbTank.Coefficients
    private var tickFramesLeft = 0
    private var quietFrames = 0
    private var quietDiffuserFrames = 0

    /// A reverb with `parameters` at `sampleRate` Hz (positive and finite; the engine unit accepts 8…768 kHz).
    /// With `isStereo`, left and right stay apart in the tank (see ``ReverbTank``); otherwise it hears their mean.
    public init(parameters: ReverbParameters = .defaults, sampleRate: Double, isStereo: Bool = false) {
        let settings = parameters.sanitized
        self.parameters = settings
        self.sampleRate = sampleRate
        // Every read at least a modulation segment back (the tank writes a mono segment's lines after its reads).
        minimumLength = Int(ReverbDesign.modulationDepth * sampleRate) + 4 + ReverbTank.segmentFrames
        dampingCosine = ReverbDesign.dampingCosine(sampleRate: sampleRate)
        predelayFadeFrames = Int((ReverbDesign.predelayFadeTime * sampleRate).rounded())
        let tick = sampleRate / Double(ReverbDesign.controlInterval)
        let mix = ReverbDesign.mixGains(mix: settings.mix)
        decayRate = LinearSmoother(value: 1 / settings.decay, time: ReverbDesign.coefficientRampTime, sampleRate: tick)
        damping = LinearSmoother(value: settings.damping, time: ReverbDesign.coefficientRampTime, sampleRate: tick)
        diffusion = LinearSmoother(value: ReverbDesign.diffuserCoefficient(diffusion: settings.diffusion), sampleRate: tick)
        dryGain = LinearSmoother(value: mix.dry, sampleRate: tick)
        wetGain = LinearSmoother(value: mix.wet, sampleRate: tick)
        width = LinearSmoother(value: settings.width, sampleRate: tick)
        lengths = ReverbDesign.lineLengths(size: settings.size, sampleRate: sampleRate, minimum: minimumLength)
        lengthTarget = lengths
        predelayTarget = ReverbDesign.frames(milliseconds: settings.predelay, sampleRate: sampleRate)
        let largest = ReverbDesign.lineLengths(size: 1, sampleRate: sampleRate, minimum: minimumLength).max()
        let start = Self.coefficients(
            lengths: lengths, decayRate: 1 / settings.decay, damping: settings.damping, diffusion: diffusion.value,
            mix: mix, width: settings.width, dampingCosine: dampingCosine, sampleRate: sampleRate)
        tickEnd = start
        tank = ReverbTank(
            sampleRate: sampleRate, coefficients: start, maximumLength: Int(largest),
            maximumPredelay: ReverbDesign.frames(milliseconds: ReverbParameters.predelayRange.upperBound, sampleRate: sampleRate),
            isStereo: isStereo)
        tank.jumpPredelay(to: predelayTarget)
    }

    /// Sets new targets (clamped to their ranges); each ramps as described above. Realtime-safe: no
    /// allocation; a size change finds eight primes by trial division (a few µs).
    public mutating func update(_ newParameters: ReverbParameters) {
        let settings = newParameters.sanitized
        if settings.decay != parameters.decay { decayRate.setTarget(1 / settings.decay) }
        if settings.damping != parameters.damping { damping.setTarget(settings.damping) }
        if settings.diffusion != parameters.diffusion {
            diffusion.setTarget(ReverbDesign.diffuserCoefficient(diffusion: settings.diffusion))
        }
        if settings.mix != parameters.mix {
            let mix = ReverbDesign.mixGains(mix: settings.mix)
            dryGain.setTarget(mix.dry)
            wetGain.setTarget(mix.wet)
        }
        if settings.width != parameters.width { width.setTarget(settings.width) }
        if settings.predelay != parameters.predelay {
            predelayTarget = ReverbDesign.frames(milliseconds: settings.predelay, sampleRate: sampleRate)
        }
        if settings.size != parameters.size { glideLengths(to: settings.size) }
        parameters = settings
    }

    /// Processes `frames` frames. `left` and `right` are the input (pass the same pointer twice for a mono
    /// input); the dry path keeps them apart; a mono kernel's reverb hears their mean, a stereo one's keeps
    /// them apart too. Inputs and outputs may alias.
    /// (Not `@_noLocks`: the control tick calls libm; the per-sample loop it drives is.)
    public mutating func process(
        left: UnsafePointer<Float>, right: UnsafePointer<Float>,
        outputLeft: UnsafeMutablePointer<Float>, outputRight: UnsafeMutablePointer<Float>, frames: Int
    ) {
        var done = 0
        while done < frames {
            if tickFramesLeft == 0 { controlTick() }
            let count = min(frames - done, tickFramesLeft)
            tank.render(
                left: left + done, right: right + done, outputLeft: outputLeft + done, outputRight: outputRight + done, count: count)
            tickFramesLeft -= count
            done += count
        }
    }

    /// Clears every delay line and filter, restarts the modulation and jumps all ramps to their targets.
    public mutating func reset() {
        tank.clearSignal()
        tank.resetModulation()
        tank.jumpPredelay(to: predelayTarget)
        decayRate.reset(to: decayRate.target)
        damping.reset(to: damping.target)
        diffusion.reset(to: diffusion.target)
        dryGain.reset(to: dryGain.target)
        wetGain.reset(to: wetGain.target)
        width.reset(to: width.target)
        lengths = lengthTarget
        lengthTicksLeft = 0
        tickEnd = currentCoefficients()
        tank.beginTick(from: tickEnd, to: tickEnd)
        tickFramesLeft = 0
        quietFrames = 0
        quietDiffuserFrames = 0
    }

    /// Whether processing zeros would write exact +0.0 and change nothing but the clocks (silence gating):
    /// the tank at rest (``ReverbTank/isAtRest(tickEnd:predelay:)``), every ramp settled.
    /// (`mutating` only so that a caller passes the kernel by address: as a plain method it was copied whole for each call.)
    public mutating func isAtRest() -> Bool {
        lengthTicksLeft == 0 && decayRate.isSettled && damping.isSettled && diffusion.isSettled && dryGain.isSettled
            && wetGain.isSettled && width.isSettled && tank.isAtRest(tickEnd: tickEnd, predelay: predelayTarget)
    }

    /// Moves the control-tick clocks by `frames`, as ``process(left:right:outputLeft:outputRight:frames:)`` does at rest
    /// (a control tick at rest only restarts the tank's steady tick).
    public mutating func advanceAtRest(frames: Int) {
        var done = 0
        while done < frames {
            if tickFramesLeft == 0 {
                tank.beginTick(from: tickEnd, to: tickEnd)
                tickFramesLeft = ReverbDesign.controlInterval
            }
            let count = min(frames - done, tickFramesLeft)
            tank.advanceAtRest(frames: count)
            tickFramesLeft -= count
            done += count
        }
    }

    /// How many values in the delay memory and filters are subnormal (for tests: there must never be any).
    func stateSubnormalCount() -> Int { tank.subnormalCount() }

    // MARK: Control tick

    private mutating func controlTick() {
        watchForSilence()
        let isMoving = lengthTicksLeft > 0 || !(decayRate.isSettled && damping.isSettled && diffusion.isSettled
            && dryGain.isSettled && wetGain.isSettled && width.isSettled)
        _ = decayRate.next()
        _ = damping.next()
        _ = diffusion.next()
        _ = dryGain.next()
        _ = wetGain.next()
        _ = width.next()
        if lengthTicksLeft > 0 {
            lengthTicksLeft -= 1
            lengths = lengthTicksLeft == 0 ? lengthTarget : lengths + lengthStep
        }
        let end = isMoving ? currentCoefficients() : tickEnd
        tank.beginTick(from: tickEnd, to: end)
        tank.movePredelay(to: predelayTarget, fadeFrames: predelayFadeFrames)
        tickEnd = end
        tickFramesLeft = ReverbDesign.controlInterval
    }

    /// Clears a non-finite tank at once, a silent one once nothing audible can be left in its memory, and
    /// the diffuser on its own once it has been silent for its whole length (it dies away far sooner).
    private mutating func watchForSilence() {
        let statistics = tank.takeTickStatistics()
        let energy = statistics.lineEnergy + statistics.diffusedEnergy
        if !energy.isFinite {
            tank.clearSignal()
            quietFrames = 0
            return
        }
        if tank.isDormant { return }
        let isInputSilent = !statistics.inputHeard
        if isInputSilent && statistics.diffusedEnergy < ReverbDesign.silentEnergy {
            if quietDiffuserFrames < tank.diffuserFrames {
                quietDiffuserFrames += ReverbDesign.controlInterval
                if quietDiffuserFrames >= tank.diffuserFrames { tank.clearDiffuser() }
            }
        } else {
            quietDiffuserFrames = 0
        }
        if isInputSilent && energy < ReverbDesign.silentEnergy {
            quietFrames += ReverbDesign.controlInterval
            if quietFrames >= tank.memoryFrames {
                tank.clearSignal()
                quietFrames = 0
            }
        } else {
            quietFrames = 0
        }
    }

    private mutating func glideLengths(to size: Float) {
        lengthTarget = ReverbDesign.lineLengths(size: size, sampleRate: sampleRate, minimum: minimumLength)
        let change = lengthTarget - lengths
        let largest = max(change.max(), -change.min())
        let minimumFrames = ReverbDesign.coefficientRampTime * sampleRate
        let frames = max(Double(largest / ReverbDesign.maximumLengthSlope), minimumFrames)
        lengthTicksLeft = max(1, Int((frames / Double(ReverbDesign.controlInterval)).rounded(.up)))
        lengthStep = change / Float(lengthTicksLeft)
    }

    private func currentCoefficients() -> ReverbTank.Coefficients {
        Self.coefficients(
            lengths: lengths, decayRate: decayRate.value, damping: damping.value, diffusion: diffusion.value,
            mix: (dryGain.value, wetGain.value), width: width.value, dampingCosine: dampingCosine, sampleRate: sampleRate)
    }

    private static func coefficients(
        lengths: SIMD8<Float>, decayRate: Float, damping: Float, diffusion: Float, mix: (dry: Float, wet: Float),
        width: Float, dampingCosine: Float, sampleRate: Double
    ) -> ReverbTank.Coefficients {
        let spread = ReverbDesign.widthGains(width: width)
        let wet = mix.wet * ReverbDesign.wetScale(meanLength: lengths.sum() / 8, sampleRate: sampleRate)
        return ReverbTank.Coefficients(
            lengths: lengths,
            loopGains: ReverbDesign.loopGains(lengths: lengths, decayRate: decayRate, sampleRate: sampleRate),
            poles: ReverbDesign.dampingPoles(
                lengths: lengths, decayRate: decayRate, highFrequencyRatio: ReverbDesign.highFrequencyRatio(damping: damping),
                cosine: dampingCosine, sampleRate: sampleRate),
            levels: SIMD4(diffusion, mix.dry, wet * spread.direct, wet * spread.cross))
    }
}
