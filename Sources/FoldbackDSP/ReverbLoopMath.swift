// The reverb loop's per-sample vector arithmetic: the orthogonal mixing matrices, paired sums and the tiny-value flush. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Pure SIMD helpers of ``ReverbTank``'s loop, written so they compile to whole-vector shuffles and bit
/// operations (Swift's SIMD masks and lane-by-lane arithmetic would compile to scalar code).
enum ReverbLoopMath {
    /// (Σ a, Σ b), both reductions sharing their shuffles.
    @inline(__always) @_noLocks
    static func sums(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD2<Float> {
        let a4 = a.lowHalf + a.highHalf, b4 = b.lowHalf + b.highHalf
        let pairs = SIMD4(lowHalf: a4.lowHalf, highHalf: b4.lowHalf) + SIMD4(lowHalf: a4.highHalf, highHalf: b4.highHalf)
        return SIMD2(pairs.x, pairs.z) + SIMD2(pairs.y, pairs.w)
    }

    /// `x` with every lane within ±1e-30 set to exactly 0.
    @inline(__always) @_noLocks
    static func flushed(_ x: SIMD4<Float>) -> SIMD4<Float> {
        // On the bits: |x| (sign cleared) against the threshold's bits as integers; the sign of their
        // difference, spread by an arithmetic shift, is the mask (SIMD masks would compile to a scalar loop).
        let bits = unsafeBitCast(x, to: SIMD4<Int32>.self)
        let threshold = SIMD4(repeating: Int32(bitPattern: Float(1e-30).bitPattern) - 1)
        let keep = (threshold &- (bits & SIMD4(repeating: 0x7FFF_FFFF))) &>> 31
        return unsafeBitCast(bits & keep, to: SIMD4<Float>.self)
    }

    /// The lane-by-lane minimum of two vectors of non-negative finite floats, on the bits: for those, the
    /// bits as integers order as the values do, and their difference cannot overflow (stdlib `pointwiseMin`
    /// is an outlined lane-by-lane loop with NaN handling).
    @inline(__always) @_noLocks
    static func minimumOfNonNegatives(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        let bitsA = unsafeBitCast(a, to: SIMD8<Int32>.self), bitsB = unsafeBitCast(b, to: SIMD8<Int32>.self)
        let takeB = (bitsB &- bitsA) &>> 31   // all ones where b < a
        return unsafeBitCast(bitsA ^ ((bitsA ^ bitsB) & takeB), to: SIMD8<Float>.self)
    }

    /// The loop's mixing: halves a, b go to H4(c·a + s·b) and H4(s·a − c·b), with (c, s) = `coupling`.
    /// (1, 1) is the unnormalised 8-point fast Walsh–Hadamard transform (Sylvester order), exactly.
    @inline(__always) @_noLocks
    static func mix(_ x: SIMD8<Float>, coupling: SIMD2<Float>) -> SIMD8<Float> {
        let top = coupling.x * x.lowHalf + coupling.y * x.highHalf
        let bottom = coupling.y * x.lowHalf - coupling.x * x.highHalf
        return SIMD8(lowHalf: hadamard(top), highHalf: hadamard(bottom))
    }

    /// The mono loop's mixing: the 8-point fast Walsh–Hadamard transform ((c, s) = (1, 1) above, without its
    /// multiplies), the butterflies' signs applied as sign-bit flips by `signs` (``hadamardSigns``), which the
    /// caller holds in memory: with constant signs the compiler rewrites the butterflies into three times the
    /// shuffles. Bit for bit the same sums and differences as ``hadamard(_:)``.
    @inline(__always) @_noLocks
    static func mix(_ x: ReverbLanes, signs: (SIMD4<UInt32>, SIMD4<UInt32>)) -> ReverbLanes {
        ReverbLanes(hadamard(x.low + x.high, signs: signs), hadamard(x.low - x.high, signs: signs))
    }

    /// The sign-bit masks of ``mix(_:signs:)``: lanes 2 and 3, then lanes 1 and 3.
    static let hadamardSigns = (SIMD4<UInt32>(0, 0, 0x8000_0000, 0x8000_0000), SIMD4<UInt32>(0, 0x8000_0000, 0, 0x8000_0000))

    /// ``hadamard(_:)`` as two butterflies of one shuffle, one sign flip and one sum each:
    /// (x0 + x2, x1 + x3, −x2 + x0, −x3 + x1), then the same on neighbouring lanes.
    @inline(__always) @_noLocks
    private static func hadamard(_ x: SIMD4<Float>, signs: (SIMD4<UInt32>, SIMD4<UInt32>)) -> SIMD4<Float> {
        let a = flipped(x, signs.0) + SIMD4(x[2], x[3], x[0], x[1])
        return flipped(a, signs.1) + SIMD4(a[1], a[0], a[3], a[2])
    }

    @inline(__always) @_noLocks
    private static func flipped(_ x: SIMD4<Float>, _ signs: SIMD4<UInt32>) -> SIMD4<Float> {
        unsafeBitCast(unsafeBitCast(x, to: SIMD4<UInt32>.self) ^ signs, to: SIMD4<Float>.self)
    }

    /// The mono tank's wet pair: (Σ leftSigns·x, Σ rightSigns·x) of ``ReverbDesign/Routing/mono``, as sums
    /// and differences (the signs are Hadamard rows).
    @inline(__always) @_noLocks
    static func monoPair(_ x: SIMD8<Float>) -> SIMD2<Float> {
        // left = Σ (low + high)·(1, −1, 1, −1); right = Σ (low − high)·(1, 1, −1, −1)
        let p = x.lowHalf + x.highHalf, m = x.lowHalf - x.highHalf
        let w = SIMD4(p[0], p[2], m[0], m[2]) + SIMD4(p[1], p[3], m[1], m[3]) * SIMD4(-1, -1, 1, 1)
        return SIMD2(w[0], w[2]) + SIMD2(w[1], w[3]) * SIMD2(1, -1)
    }

    /// The unnormalised 4-point Walsh–Hadamard transform (Sylvester order).
    @inline(__always) @_noLocks
    static func hadamard(_ x: SIMD4<Float>) -> SIMD4<Float> {
        // Two butterfly stages as whole-vector shuffles and sign multiplies (exact), not lane arithmetic.
        let a = SIMD4(x[0], x[1], x[0], x[1]) + SIMD4(x[2], x[3], x[2], x[3]) * SIMD4(1, 1, -1, -1)
        return SIMD4(a[0], a[0], a[2], a[2]) + SIMD4(a[1], a[1], a[3], a[3]) * SIMD4(1, -1, 1, -1)
    }
}
