// The EQ kernel's cached cascade: its steady bands' sections, gathered once, and the MixedTen pipelines built from them, kept (state included) from block to block until a band changes. Realtime: run and sanitize on the audio thread.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The gathered sections of an ``EQKernel``'s steady bands and, for the mono runs of ten that may run in
/// single precision, their prepared ``MixedTen`` pipelines (coefficients converted once, not every block).
/// While the kernel holds the plan valid, the state of its sections lives here: in `sections` (the kernel's
/// gather buffer) or in a run's pipeline, not in the bands; ``store(_:)`` hands it back. Each section
/// computes exactly what it does when gathered afresh every block, so output is unchanged bit for bit.
struct EQCascadePlan {
    /// The most mono runs of eight to ten sections one kernel's sections make.
    static let maximumRuns = 2 * EQKernel.maximumBands / 8
    let pipes: UnsafeMutablePointer<MixedTen>
    /// Per run: whether it goes through its pipeline (else through ``SkewedTen``).
    let isMixed: UnsafeMutablePointer<Bool>
    /// Sections gathered, and the runs of eight to ten among them (mono only).
    private(set) var count = 0
    private(set) var runs = 0
    /// The largest single-precision magnitude that ``EQKernel/sanitize(_:)`` flushes (below 1e-30 in double).
    let tiny: Float

    /// Allocates storage for every run; call off the audio thread, and ``deallocate()`` once.
    init() {
        pipes = .allocate(capacity: Self.maximumRuns)
        isMixed = .allocate(capacity: Self.maximumRuns)
        isMixed.initialize(repeating: false, count: Self.maximumRuns)
        let nearest = Float(1e-30)
        tiny = Double(nearest) < 1e-30 ? nearest : nearest.nextDown
    }

    func deallocate() {
        pipes.deallocate()
        isMixed.deallocate()
    }

    /// Plans `sections[0..<count]` as ``EQSectionCascade/run(_:count:_:frames:isMono:)`` would run them,
    /// moving the state of the runs that fit ``MixedTen`` into their pipelines.
    @_noLocks
    mutating func build(_ sections: UnsafeMutablePointer<EQSection>, count: Int, isMono: Bool) {
        self.count = count
        runs = 0
        var next = 0
        while isMono && count - next >= 8 {
            let length = min(count - next, 10)
            isMixed[runs] = EQSectionCascade.fitsMixedTen(sections + next, count: length)
            if isMixed[runs] { (pipes + runs).initialize(to: MixedTen(sections + next, count: length)) }
            next += length
            runs += 1
        }
    }

    /// Whether the plan is one ``MixedTen`` run and nothing else (then ``runDirect(_:from:to:frames:gain:)`` may run it).
    var isOneMixedRun: Bool { runs == 1 && isMixed[0] && count <= 10 }

    /// Filters `frames` frames from `input` to `output` (they may alias) times `gain`, with `buffer` as
    /// scratch; only for a plan that ``isOneMixedRun``.
    @_noLocks
    func runDirect(_ buffer: UnsafeMutablePointer<SIMD2<Double>>, from input: UnsafePointer<Float>,
                   to output: UnsafeMutablePointer<Float>, frames: Int, gain: Double) {
        MixedTen.filter(&pipes[0], buffer, frames, from: input, to: output, gain: gain)
    }

    /// Filters `frames` frames of `buffer` through the planned sections, in place.
    @_noLocks
    func run(_ sections: UnsafeMutablePointer<EQSection>, _ buffer: UnsafeMutablePointer<SIMD2<Double>>, frames: Int) {
        var next = 0
        for run in 0..<runs {
            let length = min(count - next, 10)
            if isMixed[run] {
                MixedTen.filter(&pipes[run], buffer, frames)
            } else {
                SkewedTen.run(sections + next, count: length, buffer, frames)
            }
            next += length
        }
        EQSectionCascade.runRemainder(sections + next, count: count - next, buffer, frames)
    }

    /// Moves the pipelines' state back into `sections`.
    @_noLocks
    func store(_ sections: UnsafeMutablePointer<EQSection>) {
        var next = 0
        for run in 0..<runs {
            let length = min(count - next, 10)
            if isMixed[run] { pipes[run].store(sections + next, count: length) }
            next += length
        }
    }

    /// Flushes state below 1e-30 to zero, as ``EQKernel/sanitize(_:)`` does band by band, and returns whether
    /// every state is finite (their sum is: a sum that overflows only sends the caller the slow way, which
    /// finds the same). The stale state of the sections whose pipeline holds theirs is left alone.
    @_noLocks
    func sanitize(_ sections: UnsafeMutablePointer<EQSection>) -> Bool {
        var sum = SIMD2<Double>.zero, single = SIMD4<Float>.zero
        var next = 0
        for run in 0..<runs {
            let length = min(count - next, 10)
            if isMixed[run] {
                let pipe = pipes + run
                pipe.pointee.d.s1 = EQKernel.flushed(pipe.pointee.d.s1)
                pipe.pointee.d.s2 = EQKernel.flushed(pipe.pointee.d.s2)
                pipe.pointee.f0.s1 = flushed(pipe.pointee.f0.s1)
                pipe.pointee.f0.s2 = flushed(pipe.pointee.f0.s2)
                pipe.pointee.f1.s1 = flushed(pipe.pointee.f1.s1)
                pipe.pointee.f1.s2 = flushed(pipe.pointee.f1.s2)
                sum += pipe.pointee.d.s1 + pipe.pointee.d.s2
                single += (pipe.pointee.f0.s1 + pipe.pointee.f0.s2) + (pipe.pointee.f1.s1 + pipe.pointee.f1.s2)
            } else {
                sum += Self.sanitize(sections + next, count: length)
            }
            next += length
        }
        sum += Self.sanitize(sections + next, count: count - next)
        return (sum.x + sum.y + Double(single.x + single.y + single.z + single.w)).isFinite
    }

    /// Flushes the state of `sections[0..<count]`; returns its sum.
    @_noLocks @inline(__always)
    private static func sanitize(_ sections: UnsafeMutablePointer<EQSection>, count: Int) -> SIMD2<Double> {
        var sum = SIMD2<Double>.zero
        for index in 0..<count {
            sections[index].s1 = EQKernel.flushed(sections[index].s1)
            sections[index].s2 = EQKernel.flushed(sections[index].s2)
            sum += sections[index].s1 + sections[index].s2
        }
        return sum
    }

    @_noLocks @inline(__always)
    private func flushed(_ value: SIMD4<Float>) -> SIMD4<Float> {
        value.replacing(with: 0, where: (value .<= SIMD4(repeating: tiny)) .& (value .>= SIMD4(repeating: -tiny)))
    }
}
