// The reverb's constants and coefficient formulas: delay lengths, feedback and damping gains, mix and width laws. Realtime-safe (libm, no allocation).
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The numbers behind ``ReverbKernel``'s sound: constants, and pure functions of the parameters and the
/// sample rate. The control tick calls these (libm, so not `@_noLocks`); the per-sample loop never does.
enum ReverbDesign {
    // MARK: Feedback delay network

    /// Feedback delay times at size 1, in seconds: 31…88 ms, spread roughly geometrically but irregularly
    /// so no two are near a simple ratio; rounded to distinct primes in samples.
    static let lineTimes: SIMD8<Float> = [0.0310, 0.0367, 0.0413, 0.0489, 0.0551, 0.0647, 0.0739, 0.0881]
    /// Signs spreading the mono input over the eight lines, scaled to keep the injected energy at 1.
    static let inputGains: SIMD8<Float> = SIMD8<Float>(1, -1, 1, 1, -1, 1, -1, -1) * Float(1 / 8.0.squareRoot())
    /// Signs of the lines in the left output (a Hadamard row).
    static let leftSigns: SIMD8<Float> = [1, -1, 1, -1, 1, -1, 1, -1]
    /// Signs of the lines in the right output (another Hadamard row: orthogonal to the left, so the two
    /// outputs are uncorrelated).
    static let rightSigns: SIMD8<Float> = [1, 1, -1, -1, -1, -1, 1, 1]
    /// How the tank's input and output meet its eight lines, and how its loop matrix couples lines 0…3 with 4…7.
    struct Routing {
        /// Gains from the left (mono: the only) diffused input to each line.
        var leftInput: SIMD8<Float>
        /// Gains from the right diffused input to each line (0 for a mono tank).
        var rightInput: SIMD8<Float>
        /// Each line's weight in the left and right wet outputs.
        var leftOutput: SIMD8<Float>
        var rightOutput: SIMD8<Float>
        /// (c, s) of the loop matrix [[c·H4, s·H4], [s·H4, −c·H4]] (before the 1/√8 scale in the loop gains).
        var coupling: SIMD2<Float>

        /// The mono tank: input over all eight lines, the Hadamard matrix, two orthogonal Hadamard rows out.
        static let mono = Routing(leftInput: inputGains, rightInput: SIMD8(), leftOutput: leftSigns, rightOutput: rightSigns,
                                  coupling: SIMD2(1, 1))

        /// The true-stereo tank: left in and out on lines 0…3, right on lines 4…7, the halves coupled by
        /// ``stereoCouplingAngle``. The input gains are the mono ones (a centred source injects the same
        /// energy); each output weighs its four lines by √2 (a diffuse tail as loud as the mono tank's).
        static let stereo: Routing = {
            let low = SIMD8<Float>(1, 1, 1, 1, 0, 0, 0, 0), high = SIMD8<Float>(0, 0, 0, 0, 1, 1, 1, 1)
            let root2 = Float(2.0.squareRoot())
            let angle = stereoCouplingAngle
            return Routing(leftInput: inputGains * low, rightInput: inputGains * high,
                           leftOutput: leftSigns * low * root2, rightOutput: rightSigns * high * root2,
                           coupling: SIMD2(Float(cos(angle)), Float(sin(angle))) * root2)
        }()
    }

    /// The true-stereo loop matrix's coupling angle θ: sin²θ = ¼ of a half's energy crosses to the other
    /// per pass (the Hadamard matrix is θ = 45°, half). Its eigenvalues sit at ±30°, ±60°, ±120°, so DC
    /// recirculates to at most 1/|1 − e^(iπ/6)| ≈ 1.9 (1.3 in the mono tank).
    static let stereoCouplingAngle = Double.pi / 6

    /// The loop's orthogonal matrix is the Hadamard matrix H (scaled by 1/√8) times diag(loopSigns). H alone
    /// is symmetric, with eigenvalues ±1: a +1 eigenvector recirculates unchanged at DC, so DC (and
    /// Nyquist) would build up to ~1/(1 − g) (×30 at 20 s). With these signs every eigenvalue sits at
    /// ±45° or ±135°, so the DC gain stays near 1/|1 − e^(iπ/4)| ≈ 1.3.
    static let loopSigns: SIMD8<Float> = [1, -1, -1, 1, -1, 1, 1, -1]
    /// The orthonormal scale of the 8×8 Hadamard matrix, folded into the feedback gains with the signs.
    static let hadamardScale = Float(1 / 8.0.squareRoot())

    /// Line delay scale for `size` 0…1: 0.15 (4.7…13 ms, a booth) to 1 (31…88 ms, a large hall).
    static func sizeScale(_ size: Float) -> Float { 0.15 + 0.85 * size }

    /// The eight mean delay lengths in samples for `size`: distinct, increasing primes (so mutually prime),
    /// each at least `minimum`.
    static func lineLengths(size: Float, sampleRate: Double, minimum: Int) -> SIMD8<Float> {
        let scale = Double(sizeScale(size)) * sampleRate
        var lengths = SIMD8<Float>()
        var previous = 1
        for lane in 0..<8 {
            let nominal = Int((Double(lineTimes[lane]) * scale).rounded())
            previous = nextPrime(from: max(nominal, minimum, previous + 1))
            lengths[lane] = Float(previous)
        }
        return lengths
    }

    /// The smallest prime ≥ `number` (trial division: lengths are at most a few tens of thousands).
    static func nextPrime(from number: Int) -> Int {
        var candidate = max(number, 2)
        while !isPrime(candidate) { candidate += 1 }
        return candidate
    }

    static func isPrime(_ number: Int) -> Bool {
        if number < 4 { return number >= 2 }
        if number % 2 == 0 { return false }
        var divisor = 3
        while divisor * divisor <= number {
            if number % divisor == 0 { return false }
            divisor += 2
        }
        return true
    }

    /// Per-line loop gains g_i = 10^(−3·d_i/(RT60·fs)) (60 dB of decay per RT60 whatever the line's
    /// length d_i), times the Hadamard scale and ``loopSigns``. `decayRate` is 1/RT60 in 1/s.
    static func loopGains(lengths: SIMD8<Float>, decayRate: Float, sampleRate: Double) -> SIMD8<Float> {
        let exponent = lengths * (-3 * log2Of10 * decayRate / Float(sampleRate))
        var gains = SIMD8<Float>()
        for lane in 0..<8 { gains[lane] = exp2f(exponent[lane]) }
        return gains * loopSigns * hadamardScale
    }

    // MARK: Damping

    /// The frequency whose decay time ``damping`` sets, in Hz (or 0.4·fs at low sample rates).
    static let dampingFrequency = 4000.0

    /// Decay time at the damping frequency over the broadband decay time: 1 − 0.9·damping.
    static func highFrequencyRatio(damping: Float) -> Float { 1 - 0.9 * damping }

    /// cos(ω) at the damping frequency.
    static func dampingCosine(sampleRate: Double) -> Float {
        Float(cos(2 * Double.pi * min(dampingFrequency, 0.4 * sampleRate) / sampleRate))
    }

    /// Per-line poles a_i of the unity-DC-gain one-pole low-pass (1 − a)/(1 − a·z⁻¹) that makes the
    /// loop decay `highFrequencyRatio` times faster (in RT60) at the damping frequency, leaving DC alone.
    ///
    /// At that frequency the filter must add the gain r_i = 10^(−3·d_i/fs·(1/RT_hf − 1/RT60)); solving
    /// |H|² = r² gives a² − 2Ba + 1 = 0 with B = (1 − r²·cos ω)/(1 − r²), so a = 1/(B + √(B² − 1)).
    static func dampingPoles(
        lengths: SIMD8<Float>, decayRate: Float, highFrequencyRatio: Float, cosine: Float, sampleRate: Double
    ) -> SIMD8<Float> {
        let extraRate = decayRate * (1 / highFrequencyRatio - 1)
        let exponent = lengths * (-3 * log2Of10 * extraRate / Float(sampleRate))
        var poles = SIMD8<Float>()
        for lane in 0..<8 {
            let r = exp2f(exponent[lane])
            let rSquared = r * r
            if !(rSquared < 0.999_999) { continue }   // no damping: a = 0
            let b = (1 - rSquared * cosine) / (1 - rSquared)
            poles[lane] = 1 / (b + (b * b - 1).squareRoot())
        }
        return poles
    }

    // MARK: Modulation

    /// Amplitude of each line's delay modulation, in seconds (±0.25 ms: a few cents of pitch wander).
    static let modulationDepth = 0.000_25
    /// Each line's modulation rate in Hz: all different, none harmonically related.
    static let modulationRates: SIMD8<Double> = [0.31, 0.47, 0.59, 0.73, 0.83, 0.97, 1.09, 1.23]

    /// Rotation (cos, sin) of each line's modulation phasor over `samples` samples at `sampleRate`.
    static func modulationRotation(sampleRate: Double, samples: Int) -> (cos: SIMD8<Float>, sin: SIMD8<Float>) {
        var cosines = SIMD8<Float>(), sines = SIMD8<Float>()
        for lane in 0..<8 {
            let step = 2 * Double.pi * modulationRates[lane] * Double(samples) / sampleRate
            cosines[lane] = Float(cos(step))
            sines[lane] = Float(sin(step))
        }
        return (cosines, sines)
    }

    /// The phasors' starting points, spread by the golden angle.
    static func modulationStart() -> (cos: SIMD8<Float>, sin: SIMD8<Float>) {
        var cosines = SIMD8<Float>(), sines = SIMD8<Float>()
        for lane in 0..<8 {
            let phase = Double(lane) * 2.399_963_229_728_653
            cosines[lane] = Float(cos(phase))
            sines[lane] = Float(sin(phase))
        }
        return (cosines, sines)
    }

    // MARK: Input diffusion

    /// Delays of the four series input all-passes, in seconds (1.4…4.9 ms, 11.7 ms in all), rounded to primes.
    static let diffuserTimes: SIMD4<Double> = [0.001_37, 0.002_11, 0.003_29, 0.004_93]

    /// The all-pass delays in samples at `sampleRate`.
    static func diffuserLengths(sampleRate: Double) -> SIMD4<Int32> {
        var lengths = SIMD4<Int32>()
        for stage in 0..<4 { lengths[stage] = Int32(nextPrime(from: Int((diffuserTimes[stage] * sampleRate).rounded()))) }
        return lengths
    }

    /// The all-pass coefficient for `diffusion` 0…1.
    static func diffuserCoefficient(diffusion: Float) -> Float { 0.75 * diffusion }

    // MARK: Output

    /// Wet output scale for the mean line length (samples): makes the wet impulse response's energy per
    /// channel ≈ RT60 / 2 s (equal to the dry impulse's at 2 s) whatever the size or sample rate.
    ///
    /// An impulse leaves energy 1 in the lines, which decays as e^(−6·ln10·t/RT60); each output sample
    /// reads 1/mean-length of it, so the sum is RT60·fs/(6·ln10·mean length) before this scale.
    static func wetScale(meanLength: Float, sampleRate: Double) -> Float {
        (6 * Float(M_LN10) * meanLength / (Float(sampleRate) * 2)).squareRoot()
    }

    /// Equal-power dry/wet gains: (cos(mix·π/2), sin(mix·π/2)), exactly (1, 0) and (0, 1) at the ends.
    static func mixGains(mix: Float) -> (dry: Float, wet: Float) {
        if mix <= 0 { return (1, 0) }
        if mix >= 1 { return (0, 1) }
        let angle = Double(mix) * Double.pi / 2
        return (Float(cos(angle)), Float(sin(angle)))
    }

    /// Width as a 2×2 mix of the wet pair: each side keeps `direct` of itself and takes `cross` of the
    /// other; (1 + w)/2 and (1 − w)/2 normalised so uncorrelated sides keep their power.
    static func widthGains(width: Float) -> (direct: Float, cross: Float) {
        let direct = (1 + width) / 2, cross = (1 - width) / 2
        let norm = 1 / (direct * direct + cross * cross).squareRoot()
        return (direct * norm, cross * norm)
    }

    // MARK: Timing

    /// Samples per control tick: coefficients are recomputed every tick and ramped linearly within it.
    static let controlInterval = 32
    /// Ramp time of decay and damping changes, in seconds.
    static let coefficientRampTime = 0.05
    /// Fastest change of a delay length while the size ramps, in samples per sample (≈ 0.9 semitone glide).
    static let maximumLengthSlope: Float = 0.05
    /// Crossfade time when the predelay changes, in seconds.
    static let predelayFadeTime = 0.03
    /// Tick energy (summed squares of the tank's signals) below which the tank counts as silent: −200 dBFS.
    static let silentEnergy: Float = 1e-20

    /// Round(milliseconds · fs / 1000).
    static func frames(milliseconds: Float, sampleRate: Double) -> Int {
        Int((Double(milliseconds) * sampleRate / 1000).rounded())
    }

    /// Smallest power of two ≥ `count`.
    static func ringSize(_ count: Int) -> Int {
        var size = 1
        while size < count { size <<= 1 }
        return size
    }

    private static let log2Of10 = Float(M_LN10 / M_LN2)
}
