// A cascade of EQ biquad sections run interleaved, up to five per pass over the block. Realtime: runs on the audio thread.

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
    @_noLocks
    static func run(_ sections: UnsafeMutablePointer<EQSection>, count: Int,
                    _ buffer: UnsafeMutablePointer<SIMD2<Double>>, frames: Int) {
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
