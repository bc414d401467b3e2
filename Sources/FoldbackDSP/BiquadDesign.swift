// Second-order section coefficients for every EQ band type (Audio EQ Cookbook, bilinear with pre-warping). Realtime-safe: pure math, no allocation.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The normalised coefficients of one second-order section (a0 = 1):
/// H(z) = (b0 + b1 z⁻¹ + b2 z⁻²) / (1 + a1 z⁻¹ + a2 z⁻²).
///
/// Kept in `Double`: a 20 Hz section at 96 kHz has its poles within 0.001 of z = 1, where single-precision
/// coefficients would move the corner by several percent.
public struct BiquadCoefficients: Sendable, Hashable {
    /// Feed-forward coefficients.
    public var b0, b1, b2: Double
    /// Feedback coefficients (signs as in the transfer function's denominator).
    public var a1, a2: Double

    /// Coefficients already divided by a0.
    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        self.b0 = b0
        self.b1 = b1
        self.b2 = b2
        self.a1 = a1
        self.a2 = a2
    }

    /// Divides through by `a0`.
    init(b0: Double, b1: Double, b2: Double, a0: Double, a1: Double, a2: Double) {
        let scale = 1 / a0
        self.init(b0: b0 * scale, b1: b1 * scale, b2: b2 * scale, a1: a1 * scale, a2: a2 * scale)
    }

    /// One sample through this section in transposed direct form II, with its memory `z1`, `z2` (the
    /// `echo`'s loop filters and the `deesser`'s key run it sample by sample). Realtime-safe.
    @inline(__always)
    public func run(_ x: Double, _ z1: inout Double, _ z2: inout Double) -> Double {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }

    /// The section that passes its input unchanged.
    public static let identity = BiquadCoefficients(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)

    /// |H|² at `omega` radians per sample, in the form |B|² = (Σb)²(1−φ) + (b0−b1+b2)²φ − 16 b0 b2 φ(1−φ),
    /// φ = sin²(ω/2), which stays exact at low frequencies where cos ω rounds to 1.
    public func squaredMagnitude(omega: Double) -> Double {
        let sine = sin(omega / 2)
        let phi = sine * sine
        func squared(_ c0: Double, _ c1: Double, _ c2: Double) -> Double {
            let low = c0 + c1 + c2
            let high = c0 - c1 + c2
            return low * low * (1 - phi) + high * high * phi - 16 * c0 * c2 * phi * (1 - phi)
        }
        let denominator = squared(1, a1, a2)
        return denominator > 0 ? max(0, squared(b0, b1, b2)) / denominator : .infinity
    }
}

/// Designs EQ sections by the Audio EQ Cookbook (R. Bristow-Johnson): analogue prototypes mapped by the
/// bilinear transform with the centre/corner frequency pre-warped.
///
/// Why this design: it puts the centre frequency, peak and shelf gains, notch zeros and the Butterworth
/// −3 dB corners exactly where asked at every sample rate; it is well conditioned at every frequency and Q
/// we allow (10 Hz at 96 kHz, Q up to 50), which matters because the kernel recomputes sections while a
/// parameter glides; and boosts and cuts are exact mirror images. Its cost is "cramping": near Nyquist a
/// bell narrows and falls to 0 dB at fs/2 (at 48 kHz a Q 1 bell above about 10 kHz is visibly
/// asymmetric). Matched-response designs (Vicanek 2016) avoid that but are ill-conditioned at low
/// frequencies and high Q, and switching designs mid-sweep would step the coefficients. ``EQResponse``
/// plots the real digital response, cramping included, so what is drawn is what is heard.
/// Coefficients are computed in `Double`, with 1 − cos ω written as 2 sin²(ω/2) so low corners keep
/// their precision.
public enum BiquadDesign {
    /// The one or two sections of `band` at `sampleRate` Hz (the second is nil for single-section bands).
    /// The frequency is clamped to 1 Hz … 0.49 × the rate and Q to ``EQBand/qRange``; a disabled band
    /// still gets its coefficients (the kernel crossfades to it).
    public static func sections(for band: EQBand, sampleRate: Double) -> (BiquadCoefficients, BiquadCoefficients?) {
        let frequency = min(max(band.frequency, 1), EQBand.maximumFrequency(sampleRate: sampleRate))
        let omega = 2 * Double.pi * frequency / sampleRate
        if band.sectionCount == 2 {
            let (q1, q2) = EQBand.fourthOrderButterworthQ
            return (section(band.type, omega: omega, gainDB: 0, q: q1), section(band.type, omega: omega, gainDB: 0, q: q2))
        }
        let q = min(max(band.q, EQBand.qRange.lowerBound), EQBand.qRange.upperBound)
        let gain = min(max(band.gainDB, EQBand.gainRange.lowerBound), EQBand.gainRange.upperBound)
        return (section(band.type, omega: omega, gainDB: gain, q: q), nil)
    }

    /// One cookbook section of `type` at `omega` radians per sample.
    public static func section(_ type: EQBandType, omega: Double, gainDB: Double, q: Double) -> BiquadCoefficients {
        let sine = sin(omega)
        let halfSine = sin(omega / 2)
        let oneMinusCos = 2 * halfSine * halfSine        // 1 − cos ω without cancellation
        let cosine = 1 - oneMinusCos
        let onePlusCos = 2 - oneMinusCos
        let alpha = sine / (2 * q)
        switch type {
        case .peak:
            let amplitude = pow(10, gainDB / 40)
            return BiquadCoefficients(
                b0: 1 + alpha * amplitude, b1: -2 * cosine, b2: 1 - alpha * amplitude,
                a0: 1 + alpha / amplitude, a1: -2 * cosine, a2: 1 - alpha / amplitude)
        case .lowShelf, .highShelf:
            return shelf(isLow: type == .lowShelf, cosine: cosine, alpha: alpha, gainDB: gainDB)
        case .lowPass:
            return BiquadCoefficients(
                b0: oneMinusCos / 2, b1: oneMinusCos, b2: oneMinusCos / 2, a0: 1 + alpha, a1: -2 * cosine, a2: 1 - alpha)
        case .highPass:
            return BiquadCoefficients(
                b0: onePlusCos / 2, b1: -onePlusCos, b2: onePlusCos / 2, a0: 1 + alpha, a1: -2 * cosine, a2: 1 - alpha)
        case .notch:
            return BiquadCoefficients(b0: 1, b1: -2 * cosine, b2: 1, a0: 1 + alpha, a1: -2 * cosine, a2: 1 - alpha)
        case .bandPass:
            return BiquadCoefficients(b0: alpha, b1: 0, b2: -alpha, a0: 1 + alpha, a1: -2 * cosine, a2: 1 - alpha)
        case .allPass:
            return BiquadCoefficients(b0: 1 - alpha, b1: -2 * cosine, b2: 1 + alpha, a0: 1 + alpha, a1: -2 * cosine, a2: 1 - alpha)
        }
    }

    /// The cookbook low or high shelf: the two differ only in the sign of their cos ω terms.
    private static func shelf(isLow: Bool, cosine: Double, alpha: Double, gainDB: Double) -> BiquadCoefficients {
        let amplitude = pow(10, gainDB / 40)
        let plus = amplitude + 1
        let minus = amplitude - 1
        let root = 2 * amplitude.squareRoot() * alpha
        let sign: Double = isLow ? 1 : -1           // the sign of every cos ω term
        return BiquadCoefficients(
            b0: amplitude * (plus - sign * minus * cosine + root),
            b1: sign * 2 * amplitude * (minus - sign * plus * cosine),
            b2: amplitude * (plus - sign * minus * cosine - root),
            a0: plus + sign * minus * cosine + root,
            a1: -sign * 2 * (minus + sign * plus * cosine),
            a2: plus + sign * minus * cosine - root)
    }
}
