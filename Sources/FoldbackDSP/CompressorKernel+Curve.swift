// The compressor kernel's static gain computer and its fast log₂ / exp₂. Pure functions; called on the realtime thread.
// SPDX-License-Identifier: GPL-3.0-or-later

extension CompressorKernel {
    /// The static gain computer: reductions in dB (≥ 0) as functions of the detector level in dBFS.
    struct Curve: Sendable {
        let threshold: Float
        let slope: Float            // 1 − 1/ratio
        let expanderThreshold: Float
        let expanderSlope: Float    // expander ratio − 1
        let halfKnee: Float
        let compressionKnee: Float  // slope / (2·knee)
        let expansionKnee: Float    // expanderSlope / (2·knee)

        init(_ settings: CompressorSettings) {
            func finite(_ value: Float, or fallback: Float) -> Float { value.isFinite ? value : fallback }
            threshold = finite(settings.thresholdDB, or: 0)
            slope = 1 - 1 / max(finite(settings.ratio, or: 1), 1)
            expanderThreshold = finite(settings.expanderThresholdDB, or: -Float.infinity)
            expanderSlope = max(finite(settings.expanderRatio, or: 1), 1) - 1
            let knee = max(finite(settings.kneeDB, or: 0), 0)
            halfKnee = knee / 2
            compressionKnee = knee > 0 ? slope / (2 * knee) : 0
            expansionKnee = knee > 0 ? expanderSlope / (2 * knee) : 0
        }

        /// Compression above the threshold: 0 below the knee, `(1 − 1/R)·(x − T + W/2)²/(2W)` in it,
        /// `(1 − 1/R)·(x − T)` above it. Branch-free: the knee term saturates at the top of the knee, where
        /// it equals `(1 − 1/R)·W/2`, and the linear term takes over from there.
        @inline(__always) @_noLocks
        func compression(atLevel level: Float) -> Float {
            let over = level - threshold
            let (lower, upper) = (over + halfKnee, over - halfKnee)
            let lifted = lower > 0 ? lower : 0                          // (written as selects: single min/max instructions)
            let into = lifted < 2 * halfKnee ? lifted : 2 * halfKnee
            return compressionKnee * into * into + slope * (upper > 0 ? upper : 0)
        }

        /// Downward expansion below the expander threshold: 0 above the knee,
        /// `(R − 1)·(T − x + W/2)²/(2W)` in it, `(R − 1)·(T − x)` below it; at most ``expansionRangeDB``.
        @inline(__always) @_noLocks
        func expansion(atLevel level: Float) -> Float {
            let under = expanderThreshold - level
            if !(under > -halfKnee) || expanderSlope == 0 { return 0 }
            let reduction: Float
            if under >= halfKnee {
                reduction = expanderSlope * under
            } else {
                let into = under + halfKnee
                reduction = expansionKnee * into * into
            }
            return min(reduction, CompressorKernel.expansionRangeDB)
        }
    }
}

extension CompressorKernel {
    // MARK: Fast log₂ / exp₂ (no libm on the audio path; both far below 0.001 dB of error)

    static var tenLog10Of2: Float { @_noLocks get { 3.0102999566 } }   // dB per doubling of power
    static var log2OfTenOver20: Float { @_noLocks get { 0.1660964047 } }   // log₂(10)/20: dB → log₂ of amplitude

    /// log₂ of a positive, normal, finite `x`: the exponent plus u·P(u) for the mantissa 1 + u, P a
    /// degree-5 least-squares fit on Chebyshev nodes (error below 3e-6, 1e-5 dB). No division, no branch.
    @inline(__always) @_noLocks
    static func log2Approx(_ x: Float) -> Float {
        let bits = x.bitPattern
        let u = Float(bitPattern: (bits & 0x007f_ffff) | 0x3f80_0000) - 1
        let exponent = Float(Int32(bitPattern: bits >> 23) &- 127)
        let p = 1.4425347796 + u * (-0.7180335904 + u * (0.4571581211 + u * (-0.2773416460 + u * (0.1214729484 + u * -0.0257923450))))
        return exponent + u * p
    }

    /// 2^x for x clamped to −126…126 (NaN reads as −126): a power-of-two scale times a degree-6
    /// Taylor series of e^(f·ln 2), f in [−½, ½] (relative error below 1e-6). Exactly 1 at x = 0.
    /// Branch- and trap-free: the rounding to the nearest integer is done by adding 1.5·2²³.
    @inline(__always) @_noLocks
    static func exp2Approx(_ x: Float) -> Float {
        let clamped = min(x > -126 ? x : -126, 126)
        let rounded = clamped + 12_582_912   // 1.5·2²³: the sum's low mantissa bits are round(clamped)
        let whole = rounded - 12_582_912
        let u = (clamped - whole) * 0.6931471806
        let fraction = 1 + u * (1 + u * (0.5 + u * (0.1666666667 + u * (0.0416666667 + u * (0.0083333333 + u * 0.0013888889)))))
        let exponent = Int32(bitPattern: rounded.bitPattern & 0x007f_ffff) &- 0x0040_0000
        return fraction * Float(bitPattern: UInt32(bitPattern: (exponent &+ 127) &<< 23))
    }
}
