// The EQ's skewed cascades: ten sections at once, each a frame behind the one before (all double, or two double and eight single precision). Realtime: runs on the audio thread.
// SPDX-License-Identifier: GPL-3.0-or-later
/// Two sections in the two lanes of one register, for a mono cascade.
struct SectionPair {
    var b0, b1, b2, a1, a2: SIMD2<Double>
    var s1, s2: SIMD2<Double>

    /// Sections `first` and `second` (their first lanes) of `count`; one past the end is an identity section.
    @_noLocks
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
    @_noLocks
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

// Mono EQ cascades skewed across registers: ten sections in double (SkewedTen), or two in double and eight in single precision (MixedTen). Realtime: runs on the audio thread.
/// Four sections in the four lanes of a single-precision register, for a mono cascade, in the
/// state-space form of transposed direct form II: y = b0·x + s1, s1 ← c1·x + s2 − a1·s1,
/// s2 ← c2·x − a2·s1, with c1 = b1 − a1·b0 and c2 = b2 − a2·b0 (computed in double). The states mean
/// what they mean in ``EQSection``; the loop through s1 is two operations instead of three (y no
/// longer feeds back), which is what bounds a step of ``MixedTen``.
struct FloatSectionQuad {
    var b0, c1, c2, a1, a2: SIMD4<Float>
    var s1, s2: SIMD4<Float>

    /// Sections `first`, `first` + 2, + 4, + 6 of `count` (their first lanes); one at or past `count` is an
    /// identity section.
    @_noLocks
    init(_ sections: UnsafeMutablePointer<EQSection>, first: Int, count: Int) {
        (b0, c1, c2, a1, a2) = (.one, .zero, .zero, .zero, .zero)
        (s1, s2) = (.zero, .zero)
        for lane in 0..<4 where first + 2 * lane < count {
            let section = sections[first + 2 * lane], c = section.coefficients
            b0[lane] = Float(c.b0)
            c1[lane] = Float(c.b1 - c.a1 * c.b0)
            c2[lane] = Float(c.b2 - c.a2 * c.b0)
            a1[lane] = Float(c.a1)
            a2[lane] = Float(c.a2)
            s1[lane] = Float(section.s1.x)
            s2[lane] = Float(section.s2.x)
        }
    }

    /// Stores the state back into sections `first`, `first` + 2, + 4, + 6 of `count` (an identity section's is dropped).
    @_noLocks
    func store(_ sections: UnsafeMutablePointer<EQSection>, first: Int, count: Int) {
        for lane in 0..<4 where first + 2 * lane < count {
            sections[first + 2 * lane].s1.x = Double(s1[lane])
            sections[first + 2 * lane].s2.x = Double(s2[lane])
        }
    }

    /// One frame through the four sections.
    @_noLocks @inline(__always)
    mutating func tick(_ x: SIMD4<Float>) -> SIMD4<Float> {
        StateSpaceStep.tick(x, b0: b0, c1: c1, c2: c2, a1: a1, a2: a2, s1: &s1, s2: &s2)
    }
}

/// Two sections in the two lanes of a double register, in the state-space form of ``FloatSectionQuad``.
struct StateSpacePair {
    var b0, c1, c2, a1, a2: SIMD2<Double>
    var s1, s2: SIMD2<Double>

    @_noLocks
    init(_ pair: SectionPair) {
        (b0, a1, a2, s1, s2) = (pair.b0, pair.a1, pair.a2, pair.s1, pair.s2)
        c1 = pair.b1 - pair.a1 * pair.b0
        c2 = pair.b2 - pair.a2 * pair.b0
    }

    /// One frame through both sections.
    @_noLocks @inline(__always)
    mutating func tick(_ x: SIMD2<Double>) -> SIMD2<Double> {
        StateSpaceStep.tick(x, b0: b0, c1: c1, c2: c2, a1: a1, a2: a2, s1: &s1, s2: &s2)
    }
}

/// Ten sections of a mono cascade in one double register (sections 1 and 0) and two single-precision
/// registers (f0: sections 2, 4, 6, 8; f1: 3, 5, 7, 9), skewed in time as in ``SkewedTen``: at step t
/// section k filters frame t − k, so every input is an output of the step before. Nine single-precision
/// operations filter four sections where nine double ones filter two, so this costs about 27 vector
/// operations a frame where ``SkewedTen`` costs 45.
///
/// Single precision is safe only for sections whose poles keep clear of z = 1 (see
/// ``EQSectionCascade/needsDouble(_:)``): the caller puts up to two that are not into sections 0 and 1.
struct MixedTen {
    var d: StateSpacePair
    var f0, f1: FloatSectionQuad
    var yd = SIMD2<Double>.zero
    var y0 = SIMD4<Float>.zero, y1 = SIMD4<Float>.zero

    /// Runs `sections[0..<count]` (8 … 10; identity sections make up ten) over `frames` frames of the first
    /// lane of `buffer`, in place.
    @_noLocks
    static func run(_ sections: UnsafeMutablePointer<EQSection>, count: Int, _ buffer: UnsafeMutablePointer<SIMD2<Double>>, _ frames: Int) {
        var pipe = MixedTen(sections, count: count)
        filter(&pipe, buffer, frames)
        pipe.store(sections, count: count)
    }

    /// The pipeline of `sections[0..<count]` (8 … 10; identity sections make up ten), with their state.
    @_noLocks
    init(_ sections: UnsafeMutablePointer<EQSection>, count: Int) {
        d = StateSpacePair(SectionPair(sections, 1, 0, count: count))
        f0 = FloatSectionQuad(sections, first: 2, count: count)
        f1 = FloatSectionQuad(sections, first: 3, count: count)
    }

    /// Stores the state back into `sections[0..<count]` (an identity section's is dropped).
    @_noLocks
    func store(_ sections: UnsafeMutablePointer<EQSection>, count: Int) {
        if count > 1 {
            sections[1].s1.x = d.s1.x
            sections[1].s2.x = d.s2.x
        }
        sections[0].s1.x = d.s1.y
        sections[0].s2.x = d.s2.y
        f0.store(sections, first: 2, count: count)
        f1.store(sections, first: 3, count: count)
    }

    /// Runs `pipe` over `frames` frames. Kept out of line so that its coefficients arrive as whole vectors
    /// from memory: built lane by lane in the same function, they let the optimiser split the vector
    /// arithmetic into scalar pieces and shuffles, which doubles the instructions of a step.
    ///
    /// The fill and drain need no masks: in the fill, a section that has no frame yet filters whatever
    /// the section before it puts out (its result is never used) and gets its state back just before
    /// its first frame; in the drain, each section's state is taken just after its last frame.
    ///
    /// With an `input`, the frames come from there instead of `buffer`; with an `output`, the result goes
    /// there (times `gain`, as the kernel's output stage would put it) instead of back into `buffer`, which
    /// then only holds the steps' outputs. `input` and `output` may alias.
    @_noLocks @inline(never)
    static func filter(_ stored: inout MixedTen, _ buffer: UnsafeMutablePointer<SIMD2<Double>>, _ frames: Int,
                       from input: UnsafePointer<Float>? = nil, to output: UnsafeMutablePointer<Float>? = nil,
                       gain: Double = 1) {
        let ends = Ends(buffer: buffer, input: input, output: output, gain: gain)
        guard frames >= 10 else {
            shortFilter(&stored, frames, ends)
            return
        }
        var pipe = stored
        for step in 0..<9 {
            pipe.take(section: step, from: stored)
            pipe.step(ends.read(step))
        }
        pipe.take(section: 9, from: stored)
        // f1's whole output goes to the frame the step finished (already read), its last lane taken
        // afterwards: taken in the loop, it too leads the optimiser to split f1 into pieces.
        let raw = UnsafeMutableRawPointer(buffer), stride = MemoryLayout<SIMD2<Double>>.stride
        if let input {   // (two loops: a choice inside one costs the loop its vector shape)
            for step in 9..<frames {
                pipe.step(Double(input[step]))
                raw.storeBytes(of: pipe.y1, toByteOffset: (step - 9) * stride, as: SIMD4<Float>.self)
            }
        } else {
            for step in 9..<frames {
                pipe.step(buffer[step].x)
                raw.storeBytes(of: pipe.y1, toByteOffset: (step - 9) * stride, as: SIMD4<Float>.self)
            }
        }
        if let output {
            for frame in 0..<(frames - 9) {
                output[frame] = Float(Double(raw.load(fromByteOffset: frame * stride, as: SIMD4<Float>.self).w) * gain)
            }
        } else {
            for frame in 0..<(frames - 9) {
                buffer[frame].x = Double(raw.load(fromByteOffset: frame * stride, as: SIMD4<Float>.self).w)
            }
        }
        for section in 0..<9 {
            stored.take(section: section, from: pipe)
            pipe.step(0)
            ends.put(pipe.y1.w, at: frames - 9 + section)
        }
        stored.take(section: 9, from: pipe)
    }

    /// ``filter(_:_:_:)`` for fewer than ten frames, where fill and drain overlap: the same state
    /// hand-overs, checked at every step.
    @_noLocks
    static func shortFilter(_ stored: inout MixedTen, _ frames: Int, _ ends: Ends) {
        var pipe = stored
        for step in 0..<(frames + 9) {
            if step <= 9 { pipe.take(section: step, from: stored) }
            if step >= frames { stored.take(section: step - frames, from: pipe) }
            pipe.step(step < frames ? ends.read(step) : 0)
            if step >= 9 { ends.put(pipe.y1.w, at: step - 9) }
        }
        stored.take(section: 9, from: pipe)
    }

    /// Where ``filter(_:_:_:from:to:gain:)`` takes a frame from and puts a frame's result.
    struct Ends {
        let buffer: UnsafeMutablePointer<SIMD2<Double>>
        let input: UnsafePointer<Float>?
        let output: UnsafeMutablePointer<Float>?
        let gain: Double

        @_noLocks @inline(__always)
        func read(_ frame: Int) -> Double {
            if let input { Double(input[frame]) } else { buffer[frame].x }
        }

        @_noLocks @inline(__always)
        func put(_ value: Float, at frame: Int) {
            if let output {
                output[frame] = Float(Double(value) * gain)
            } else {
                buffer[frame].x = Double(value)
            }
        }
    }

    /// Copies section `k`'s state (s1, s2) from `other` (lanes spelt out: a computed lane index goes
    /// through memory, and reading the vector back stalls).
    @_noLocks @inline(__always)
    mutating func take(section k: Int, from other: MixedTen) {
        switch k {
        case 0: (d.s1.y, d.s2.y) = (other.d.s1.y, other.d.s2.y)
        case 1: (d.s1.x, d.s2.x) = (other.d.s1.x, other.d.s2.x)
        case 2: (f0.s1.x, f0.s2.x) = (other.f0.s1.x, other.f0.s2.x)
        case 3: (f1.s1.x, f1.s2.x) = (other.f1.s1.x, other.f1.s2.x)
        case 4: (f0.s1.y, f0.s2.y) = (other.f0.s1.y, other.f0.s2.y)
        case 5: (f1.s1.y, f1.s2.y) = (other.f1.s1.y, other.f1.s2.y)
        case 6: (f0.s1.z, f0.s2.z) = (other.f0.s1.z, other.f0.s2.z)
        case 7: (f1.s1.z, f1.s2.z) = (other.f1.s1.z, other.f1.s2.z)
        case 8: (f0.s1.w, f0.s2.w) = (other.f0.s1.w, other.f0.s2.w)
        default: (f1.s1.w, f1.s2.w) = (other.f1.s1.w, other.f1.s2.w)
        }
    }

    /// The inputs of one step: section 0's output and the new frame for the double register (lane x is
    /// section 1); section 1's output and sections 3, 5, 7's for f0 (f1's outputs moved up one lane);
    /// f0's outputs, lanes as they are, for f1.
    @_noLocks @inline(__always)
    func inputs(_ input: Double) -> (SIMD2<Double>, SIMD4<Float>) {
        (SIMD2(yd.y, input), SIMD4(Float(yd.x), y1.x, y1.y, y1.z))
    }

    /// One step with every section active (the last section's output is `y1.w`).
    @_noLocks @inline(__always)
    mutating func step(_ input: Double) {
        let (xd, x0) = inputs(input)
        y1 = f1.tick(y0)
        y0 = f0.tick(x0)
        yd = d.tick(xd)
    }
}

/// The state-space step both section types take, whatever their lane type.
enum StateSpaceStep {
    /// y = b0·x + s1; s1 ← (c1·x + s2) − a1·s1; s2 ← c2·x − a2·s1 (the old s1), lane by lane.
    @inline(__always)
    static func tick<Lanes: SIMD>(
        _ x: Lanes, b0: Lanes, c1: Lanes, c2: Lanes, a1: Lanes, a2: Lanes, s1: inout Lanes, s2: inout Lanes
    ) -> Lanes where Lanes.Scalar: FloatingPoint {
        let y = b0 * x + s1
        let old = s1
        s1 = (c1 * x + s2) - a1 * old
        s2 = c2 * x - a2 * old
        return y
    }
}
