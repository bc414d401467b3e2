// A cascade of EQ biquad sections: run interleaved, up to five per pass (channels across the lanes), or for mono ten at a time skewed across the lanes. Realtime: runs on the audio thread.

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
    /// sections go through ``SkewedTen`` instead, two sections per register (a run of eight or nine is
    /// padded with identity sections; below eight, padding costs about what it saves).
    @_noLocks
    static func run(_ sections: UnsafeMutablePointer<EQSection>, count: Int,
                    _ buffer: UnsafeMutablePointer<SIMD2<Double>>, frames: Int, isMono: Bool) {
        var next = 0
        while isMono && count - next >= 8 {
            let run = min(count - next, 10)
            SkewedTen.run(sections + next, count: run, buffer, frames)
            next += run
        }
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

/// Two sections in the two lanes of one register, for a mono cascade.
struct SectionPair {
    var b0, b1, b2, a1, a2: SIMD2<Double>
    var s1, s2: SIMD2<Double>

    /// Sections `first` and `second` (their first lanes) of `count`; one past the end is an identity section.
    init(_ sections: UnsafeMutablePointer<EQSection>, _ first: Int, _ second: Int, count: Int) {
        let (isReal, isAlsoReal) = (first < count, second < count)
        let p = sections[isReal ? first : 0], q = sections[isAlsoReal ? second : 0]
        func lanes(_ x: Double, _ y: Double, identity: Double) -> SIMD2<Double> {
            SIMD2(isReal ? x : identity, isAlsoReal ? y : identity)
        }
        b0 = lanes(p.coefficients.b0, q.coefficients.b0, identity: 1)
        b1 = lanes(p.coefficients.b1, q.coefficients.b1, identity: 0)
        b2 = lanes(p.coefficients.b2, q.coefficients.b2, identity: 0)
        a1 = lanes(p.coefficients.a1, q.coefficients.a1, identity: 0)
        a2 = lanes(p.coefficients.a2, q.coefficients.a2, identity: 0)
        s1 = lanes(p.s1.x, q.s1.x, identity: 0)
        s2 = lanes(p.s2.x, q.s2.x, identity: 0)
    }

    /// Stores the state back into sections `first` and `second` of `count` (an identity section's is dropped).
    func store(_ sections: UnsafeMutablePointer<EQSection>, _ first: Int, _ second: Int, count: Int) {
        if first < count {
            sections[first].s1.x = s1.x
            sections[first].s2.x = s2.x
        }
        if second < count {
            sections[second].s1.x = s1.y
            sections[second].s2.x = s2.y
        }
    }

    /// One frame through both sections (the operations of ``EQSection/tick(_:)``, lane by lane).
    @_noLocks @inline(__always)
    mutating func tick(_ x: SIMD2<Double>) -> SIMD2<Double> {
        let y = b0 * x + s1
        s1 = b1 * x - a1 * y + s2
        s2 = b2 * x - a2 * y
        return y
    }

    /// As ``tick(_:)``, but a lane outside `active` keeps its state (its output is not used).
    @_noLocks @inline(__always)
    mutating func tick(_ x: SIMD2<Double>, active: SIMDMask<SIMD2<Int64>>) -> SIMD2<Double> {
        var next = self
        let y = next.tick(x)
        s1.replace(with: next.s1, where: active)
        s2.replace(with: next.s2, where: active)
        return y
    }
}

/// Ten sections of a mono cascade in five registers, skewed in time: register p holds sections p and
/// p + 5, and at step t section k filters frame t − k. Each register's input is then the previous
/// register's output of one step earlier, lanes as they are (the first register takes the new frame and
/// section 4's output), so the ten dependency chains run side by side, two per register (a mono cascade
/// otherwise leaves half of every register idle). A block of n frames takes n + 9 steps; in the first
/// and last nine, sections that have no frame to filter keep their state. Each section computes exactly
/// what it would alone.
struct SkewedTen {
    var p0, p1, p2, p3, p4: SectionPair
    var y0 = SIMD2<Double>.zero, y1 = SIMD2<Double>.zero, y2 = SIMD2<Double>.zero
    var y3 = SIMD2<Double>.zero, y4 = SIMD2<Double>.zero

    /// Runs `sections[0..<count]` (8 … 10; identity sections make up ten) over `frames` frames of the first
    /// lane of `buffer`, in place. (An identity section passes every finite sample exactly.)
    @_noLocks
    static func run(_ sections: UnsafeMutablePointer<EQSection>, count: Int, _ buffer: UnsafeMutablePointer<SIMD2<Double>>, _ frames: Int) {
        var pipe = SkewedTen(p0: SectionPair(sections, 0, 5, count: count), p1: SectionPair(sections, 1, 6, count: count),
                             p2: SectionPair(sections, 2, 7, count: count), p3: SectionPair(sections, 3, 8, count: count),
                             p4: SectionPair(sections, 4, 9, count: count))
        let steps = frames + 9
        var step = 0
        while step < steps {
            if step >= 9 && step < frames {   // every section has a frame: no masks
                while step < frames {
                    buffer[step - 9].x = pipe.step(buffer[step].x)
                    step += 1
                }
                continue
            }
            let output = pipe.maskedStep(step < frames ? buffer[step].x : 0, step: step, frames: frames)
            if step >= 9 { buffer[step - 9].x = output }
            step += 1
        }
        pipe.p0.store(sections, 0, 5, count: count)
        pipe.p1.store(sections, 1, 6, count: count)
        pipe.p2.store(sections, 2, 7, count: count)
        pipe.p3.store(sections, 3, 8, count: count)
        pipe.p4.store(sections, 4, 9, count: count)
    }

    /// One step with every section active; returns the last section's output.
    @_noLocks @inline(__always)
    mutating func step(_ input: Double) -> Double {
        let x0 = SIMD2(input, y4.x)
        y4 = p4.tick(y3)
        y3 = p3.tick(y2)
        y2 = p2.tick(y1)
        y1 = p1.tick(y0)
        y0 = p0.tick(x0)
        return y4.y
    }

    /// One step of the fill or drain: section k is active while it has a frame, k ≤ step < k + frames.
    @_noLocks @inline(__always)
    mutating func maskedStep(_ input: Double, step: Int, frames: Int) -> Double {
        let t = SIMD2(repeating: Double(step))
        func active(_ first: Double) -> SIMDMask<SIMD2<Int64>> {
            let k = SIMD2(first, first + 5)
            return (k .<= t) .& (t .< k + Double(frames))
        }
        let x0 = SIMD2(input, y4.x)
        y4 = p4.tick(y3, active: active(4))
        y3 = p3.tick(y2, active: active(3))
        y2 = p2.tick(y1, active: active(2))
        y1 = p1.tick(y0, active: active(1))
        y0 = p0.tick(x0, active: active(0))
        return y4.y
    }
}
