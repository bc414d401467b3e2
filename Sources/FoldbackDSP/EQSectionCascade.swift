// A cascade of EQ biquad sections: run interleaved, up to five per pass (channels across the lanes), or for mono ten at a time skewed across the lanes. Realtime: runs on the audio thread.
// SPDX-License-Identifier: GPL-3.0-or-later

/// One second-order section gathered for a block: coefficients, TDF-II state, and the band and section it
/// came from (`band · 2 + section`).
struct EQSection {
    var coefficients: BiquadCoefficients
    var s1: SIMD2<Double>
    var s2: SIMD2<Double>
    let owner: Int

    /// One frame through the section, in transposed direct form II (the same operations, in the same
    /// order, as ``EQKernel/tick(_:_:_:_:)``, so results are bit-identical).
    @_noLocks @inline(__always)
    mutating func tick(_ x: SIMD2<Double>) -> SIMD2<Double> {
        let y = SIMD2(repeating: coefficients.b0) * x + s1
        s1 = SIMD2(repeating: coefficients.b1) * x - SIMD2(repeating: coefficients.a1) * y + s2
        s2 = SIMD2(repeating: coefficients.b2) * x - SIMD2(repeating: coefficients.a2) * y
        return y
    }
}

/// Runs a cascade of sections over a block, up to five sections per pass.
///
/// One section alone is latency-bound: each frame's output waits for the previous frame's state
/// (about 16 cycles of dependent multiply–adds). Sections in series only wait for the same frame of the
/// section before, so running up to five of them in one loop lets the CPU overlap their dependency
/// chains (five per pass measured fastest on the 10-band chain; a run of 8 goes as 4 + 4); each section
/// still computes exactly what it would alone.
enum EQSectionCascade {
    /// Runs `sections[0..<count]` in order over `frames` frames of `buffer`, in place, updating their state.
    /// With `isMono` (the second lane of `buffer` and of every state is unused), runs of eight to ten
    /// sections go through ``MixedTen`` (two in double, eight in single precision) when all but the first
    /// two may run in single precision, else ``SkewedTen`` (two sections per register, in double); a run
    /// of eight or nine is padded with identity sections (below eight, padding costs about what it saves).
    @_noLocks
    static func run(_ sections: UnsafeMutablePointer<EQSection>, count: Int,
                    _ buffer: UnsafeMutablePointer<SIMD2<Double>>, frames: Int, isMono: Bool) {
        var next = 0
        while isMono && count - next >= 8 {
            let run = min(count - next, 10)
            if fitsMixedTen(sections + next, count: run) {
                MixedTen.run(sections + next, count: run, buffer, frames)
            } else {
                SkewedTen.run(sections + next, count: run, buffer, frames)
            }
            next += run
        }
        runRemainder(sections + next, count: count - next, buffer, frames)
    }

    /// Runs `sections[0..<count]` in order, up to five per pass (a run of 8 as 4 + 4).
    @_noLocks
    static func runRemainder(_ sections: UnsafeMutablePointer<EQSection>, count: Int,
                             _ buffer: UnsafeMutablePointer<SIMD2<Double>>, _ frames: Int) {
        var next = 0
        while next < count {
            switch count - next {
            case 1:
                runOne(sections + next, buffer, frames)
                next += 1
            case 2, 3:
                runTwo(sections + next, buffer, frames)
                next += 2
            case 4, 8:
                runFour(sections + next, buffer, frames)
                next += 4
            default:
                runFive(sections + next, buffer, frames)
                next += 5
            }
        }
    }

    /// The largest sensitivity a section may have and still run in single precision: the peak gain
    /// 1/|A| ≈ 1 / ((1 − a2) · √(1 + a1 + a2)) that its rounding noise sees (that of its poles), and the same
    /// figure for a pair of complex zeros (where rounding the coefficients moves a notch or a cut's dip).
    /// 10⁴ keeps a 125 Hz bell (Q 1.4) at 44.1 kHz in single precision, within 0.002 dB of its response.
    static var singlePrecisionSensitivityLimit: Double { 1.0e4 }

    /// Whether `section` must run in double precision: its poles, or its complex zeros, sit so close to
    /// z = 1 or to the unit circle (a low corner or centre, a high Q, a notch) that single-precision
    /// rounding would show in its response.
    @_noLocks @inline(__always)
    static func needsDouble(_ section: BiquadCoefficients) -> Bool {
        let limit = singlePrecisionSensitivityLimit
        func isSensitive(edge: Double, damping: Double) -> Bool {   // (1 + c1 + c2, 1 − c2) of a monic quadratic
            !(edge > 0) || damping * damping * edge * limit * limit < 1
        }
        if isSensitive(edge: 1 + section.a1 + section.a2, damping: 1 - section.a2) { return true }
        let b1 = section.b1 / section.b0, b2 = section.b2 / section.b0
        guard b1 * b1 < 4 * b2 else { return !b1.isFinite || !b2.isFinite }   // real zeros (at ±1 for pass filters): exact enough
        return isSensitive(edge: abs(1 + b1 + b2), damping: abs(1 - b2))
    }

    /// Whether `sections[2..<count]` may all run in single precision (sections 0 and 1 run in double in
    /// ``MixedTen``). Sections are never reordered: a cascade's order is its signal path, and changing it
    /// while the states hold history would click.
    @_noLocks
    static func fitsMixedTen(_ sections: UnsafeMutablePointer<EQSection>, count: Int) -> Bool {
        for index in 2..<count where needsDouble(sections[index].coefficients) { return false }
        return true
    }

    @_noLocks @inline(__always)
    static func runOne(_ sections: UnsafeMutablePointer<EQSection>, _ buffer: UnsafeMutablePointer<SIMD2<Double>>, _ frames: Int) {
        var a = sections[0]
        for frame in 0..<frames { buffer[frame] = a.tick(buffer[frame]) }
        sections[0] = a
    }

    @_noLocks @inline(__always)
    static func runTwo(_ sections: UnsafeMutablePointer<EQSection>, _ buffer: UnsafeMutablePointer<SIMD2<Double>>, _ frames: Int) {
        var a = sections[0], b = sections[1]
        for frame in 0..<frames { buffer[frame] = b.tick(a.tick(buffer[frame])) }
        sections[0] = a
        sections[1] = b
    }

    @_noLocks @inline(__always)
    static func runFour(_ sections: UnsafeMutablePointer<EQSection>, _ buffer: UnsafeMutablePointer<SIMD2<Double>>, _ frames: Int) {
        var a = sections[0], b = sections[1], c = sections[2], d = sections[3]
        for frame in 0..<frames { buffer[frame] = d.tick(c.tick(b.tick(a.tick(buffer[frame])))) }
        sections[0] = a
        sections[1] = b
        sections[2] = c
        sections[3] = d
    }

    @_noLocks @inline(__always)
    static func runFive(_ sections: UnsafeMutablePointer<EQSection>, _ buffer: UnsafeMutablePointer<SIMD2<Double>>, _ frames: Int) {
        var a = sections[0], b = sections[1], c = sections[2], d = sections[3], e = sections[4]
        for frame in 0..<frames { buffer[frame] = e.tick(d.tick(c.tick(b.tick(a.tick(buffer[frame]))))) }
        sections[0] = a
        sections[1] = b
        sections[2] = c
        sections[3] = d
        sections[4] = e
    }
}
