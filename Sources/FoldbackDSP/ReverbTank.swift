// The reverb's per-sample signal path: input diffuser and modulated 8-line feedback delay network, driving the output stage. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Delay memory, filter state and the `@_noLocks` per-sample loop of ``ReverbKernel``.
///
/// Per sample: the input runs through four series Schroeder all-passes, then into eight delay lines read
/// at slowly modulated fractional delays (all-pass interpolation), each line's output low-passed
/// (damping), scaled by its signed loop gain, mixed by an orthogonal 8×8 matrix and written back with the
/// input. The network runs a stretch of frames into a small buffer of line outputs; ``ReverbOutput`` then
/// turns them into the wet left and right, through a stereo predelay, a width matrix and the dry/wet mix.
///
/// Mono (``ReverbDesign/Routing/mono``): the mean of left and right is diffused and spread over all eight
/// lines, the matrix is the Hadamard matrix, and left and right are two orthogonal sign combinations of
/// all eight lines. True stereo (``ReverbDesign/Routing/stereo``): left and right are diffused apart, left
/// feeds lines 0…3 and is heard from them, right feeds and is heard from lines 4…7, and the matrix couples
/// the halves by ``ReverbDesign/stereoCouplingAngle`` (a quarter of each half's energy crosses per pass,
/// against half in the Hadamard matrix), so a source on the left rings on the left first and spreads
/// towards the centre as the tail decays. Both matrices are orthogonal, so the RT60 law is the same.
///
/// Coefficients arrive once per control tick as a start value and a per-sample step
/// (``beginTick(from:to:)``), so the output does not depend on how the host splits its blocks. The modulated
/// reads are set once per segment of 32 awake samples (an integer delay and a ramped interpolator
/// coefficient, through fixed pointers into a ring whose first rows are mirrored past its end), so the
/// output does not depend on how long the tank slept either.
/// All memory is allocated in `init` for the largest size and the longest predelay.
struct ReverbTank: ~Copyable {
    /// Everything the loop ramps: the values at one instant.
    struct Coefficients {
        /// Mean delay of each line, in samples.
        var lengths: SIMD8<Float>
        /// Each line's loop gain (feedback gain times the Hadamard scale and the line's sign).
        var loopGains: SIMD8<Float>
        /// Each line's damping low-pass pole.
        var poles: SIMD8<Float>
        /// Diffuser all-pass coefficient, dry gain, wet gain to the same side, wet gain to the other side.
        var levels: SIMD4<Float>
    }

    /// Awake samples per modulation segment, and rows mirrored past the end of the line ring (so a segment's
    /// reads never wrap). A literal, so the loop reads no lazy global.
    static let segmentFrames = 32

    /// True while the tank holds exact silence and skips its work; the first non-zero input wakes it.
    var isDormant = true

    private let lines: UnsafeMutablePointer<Float>        // 8 floats a frame, one per line
    private let lineMask: Int
    private var lineWrite = 0
    // Stereo: 4 (left, right) pairs a frame, one per all-pass. Mono: 4 rings of floats, `diffuserFrames + 4`
    // apart, their first 3 mirrored past the end (so 4 frames read at once never wrap).
    private let diffuser: UnsafeMutablePointer<SIMD2<Float>>
    private let diffused: UnsafeMutablePointer<Float>          // a mono tank's diffused input for a segment
    private let diffuserMask: Int
    private var diffuserWrite = 0
    private let diffuserLengths: SIMD4<Int32>
    // A segment's interpolated line outputs, then (mono) its damped and scaled loop signals before the mix.
    private let lineOutputs: UnsafeMutablePointer<SIMD8<Float>>
    var output: ReverbOutput

    private let laneNumbers = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
    private let monoInputGains = ReverbLanes(ReverbDesign.Routing.mono.leftInput)
    private let hadamardSigns = ReverbLoopMath.hadamardSigns   // in memory, not constants (see ``ReverbLoopMath/mix(_:signs:)``)
    private let isStereo: Bool
    private let routing: ReverbDesign.Routing
    private let modulationDepth: Float
    private let rotationCos: SIMD8<Float>      // the phasors' rotation over one modulation segment
    private let rotationSin: SIMD8<Float>
    private let sampleRotationCos: SIMD8<Float>    // and over one sample
    private let sampleRotationSin: SIMD8<Float>
    private var phasorCos = SIMD8<Float>()
    private var phasorSin = SIMD8<Float>()
    private var lowpass = SIMD8<Float>()
    private var interpolated = SIMD8<Float>()
    // The modulated read, fixed for a segment of ``segmentFrames`` awake samples: flat index of each line's
    // near tap (row·8 + line) at its start, the awake samples into it and left, the previous near taps (this
    // sample's far taps), and the all-pass interpolator's coefficient and its step. The phasors turn with the
    // awake samples only (`rotationDue` of them since they last turned), so the modulation does not depend
    // on how long the tank slept or where the control ticks fall.
    private var readIndex = SIMD8<Int32>()
    private var segmentOffset = 0
    private var segmentLeft = 0
    private var rotationDue = 0
    var tickFrame = 0
    private var previousNear = SIMD8<Float>()
    private var eta = SIMD8<Float>()
    private var etaStep = SIMD8<Float>()
    var isRamping = false

    var current: Coefficients
    var step: Coefficients
    var lineEnergy = SIMD8<Float>()
    var diffusedEnergy: Float = 0
    var inputHeard = false

    /// The total span of the delay memory in frames: after this long with silent output, nothing in it is louder.
    let memoryFrames: Int
    /// The span of the diffuser's memory in frames.
    let diffuserFrames: Int

    /// A silent tank at `sampleRate` starting at `coefficients`, with room for lines up to
    /// `maximumLength` samples and a predelay up to `maximumPredelay` samples.
    init(sampleRate: Double, coefficients: Coefficients, maximumLength: Int, maximumPredelay: Int, isStereo: Bool = false) {
        self.isStereo = isStereo
        routing = isStereo ? .stereo : .mono
        modulationDepth = Float(ReverbDesign.modulationDepth * sampleRate)
        let lineFrames = ReverbDesign.ringSize(maximumLength + Int(modulationDepth) + 4)
        // Cache-line aligned, so each frame's eight floats (32 bytes) sit in one line. The rows past the
        // end mirror the first ones, so a tick's reads (rows on from its start) never wrap.
        lines = UnsafeMutableRawPointer.allocate(byteCount: (lineFrames + Self.segmentFrames) * 32, alignment: 64)
            .bindMemory(to: Float.self, capacity: (lineFrames + Self.segmentFrames) * 8)
        lines.initialize(repeating: 0, count: (lineFrames + Self.segmentFrames) * 8)
        lineMask = lineFrames - 1
        diffuserLengths = ReverbDesign.diffuserLengths(sampleRate: sampleRate)
        diffuserFrames = ReverbDesign.ringSize(Int(diffuserLengths.max()) + 1)
        diffuser = .allocate(capacity: diffuserFrames * 4)
        diffuser.initialize(repeating: SIMD2(), count: diffuserFrames * 4)
        precondition(diffuserLengths.min() >= 4, "the mono diffuser runs 4 frames at once")
        diffused = .allocate(capacity: Self.segmentFrames)
        diffused.initialize(repeating: 0, count: Self.segmentFrames)
        diffuserMask = diffuserFrames - 1
        lineOutputs = UnsafeMutableRawPointer.allocate(byteCount: 2 * Self.segmentFrames * 32, alignment: 64)
            .bindMemory(to: SIMD8<Float>.self, capacity: 2 * Self.segmentFrames)
        lineOutputs.initialize(repeating: SIMD8(), count: 2 * Self.segmentFrames)
        output = ReverbOutput(maximumPredelay: maximumPredelay, routing: routing)
        memoryFrames = lineFrames + diffuserFrames + output.frames
        (rotationCos, rotationSin) = ReverbDesign.modulationRotation(sampleRate: sampleRate, samples: Self.segmentFrames)
        (sampleRotationCos, sampleRotationSin) = ReverbDesign.modulationRotation(sampleRate: sampleRate, samples: 1)
        current = coefficients
        step = Coefficients(lengths: SIMD8(), loopGains: SIMD8(), poles: SIMD8(), levels: SIMD4())
        resetModulation()
    }

    deinit {
        UnsafeMutableRawPointer(lines).deallocate()
        diffuser.deallocate()
        diffused.deallocate()
        UnsafeMutableRawPointer(lineOutputs).deallocate()
        output.deallocate()
    }

    // MARK: Control (once per tick)

    /// Starts a tick: the coefficients ramp linearly from `start` to `end` over ``ReverbDesign/controlInterval``
    /// samples (the lengths only through the modulation segments' reads).
    mutating func beginTick(from start: Coefficients, to end: Coefficients) {
        let scale = 1 / Float(ReverbDesign.controlInterval)
        current = start
        step = Coefficients(
            lengths: (end.lengths - start.lengths) * scale, loopGains: (end.loopGains - start.loopGains) * scale,
            poles: (end.poles - start.poles) * scale, levels: (end.levels - start.levels) * scale)
        isRamping = step.loopGains != SIMD8() || step.poles != SIMD8() || step.levels != SIMD4()
        tickFrame = 0
    }

    /// Starts a modulation segment at frame `frameInTick` of the tick: each line's delay moves linearly from
    /// its value now to its value ``segmentFrames`` awake samples on, read as an integer delay plus an
    /// all-pass interpolated fraction whose coefficient ramps. First turns the phasors by the awake samples
    /// since they last turned and renormalises them (first order, no libm).
    /// `write` is the line ring's write position at the segment's start.
    @_noLocks
    private mutating func beginSegment(frameInTick: Int, write: Int) {
        if rotationDue == Self.segmentFrames {
            (phasorCos, phasorSin) = Self.rotated(phasorCos, phasorSin, by: rotationCos, rotationSin)
        } else {   // a segment cut short by a clear
            for _ in 0..<rotationDue {
                (phasorCos, phasorSin) = Self.rotated(phasorCos, phasorSin, by: sampleRotationCos, sampleRotationSin)
            }
        }
        rotationDue = 0
        let correction = 1.5 - 0.5 * (phasorCos * phasorCos + phasorSin * phasorSin)
        phasorCos *= correction
        phasorSin *= correction

        let scale = 1 / Float(Self.segmentFrames)
        let lengths = current.lengths + step.lengths * Float(frameInTick)
        let startDelays = lengths - modulationDepth * phasorSin
        let endSin = Self.rotated(phasorCos, phasorSin, by: rotationCos, rotationSin).sin
        let endDelays = lengths + step.lengths * Float(Self.segmentFrames) - modulationDepth * endSin
        // whole = round(shorter delay − 1), so the fraction delay − whole stays within 0.5…1.5 plus the
        // segment's movement (≤ 0.06 samples while the size holds): adding 1.5·2²³ rounds a float below 2²²
        // to an integer, whose bits then differ from the constant's by that integer.
        let magic = SIMD8<Float>(repeating: 12_582_912)
        let rounded = (ReverbLoopMath.minimumOfNonNegatives(startDelays, endDelays) - 1) + magic
        let wholes = unsafeBitCast(rounded, to: SIMD8<Int32>.self) &- unsafeBitCast(magic, to: SIMD8<Int32>.self)
        let whole = rounded - magic
        let startFraction = startDelays - whole, endFraction = endDelays - whole
        eta = (1 - startFraction) / (1 + startFraction)
        etaStep = ((1 - endFraction) / (1 + endFraction) - eta) * scale
        let mask = SIMD8(repeating: Int32(truncatingIfNeeded: lineMask))
        let rows = (SIMD8(repeating: Int32(truncatingIfNeeded: write)) &- wholes) & mask
        readIndex = rows &<< 3 &+ laneNumbers
        previousNear = gatherLines(((rows &- 1) & mask) &<< 3 &+ laneNumbers)
        segmentOffset = 0
        segmentLeft = Self.segmentFrames
    }

    /// (cos, sin) turned by (rotationCos, rotationSin).
    @inline(__always) @_noLocks
    private static func rotated(
        _ cos: SIMD8<Float>, _ sin: SIMD8<Float>, by rotationCos: SIMD8<Float>, _ rotationSin: SIMD8<Float>
    ) -> (cos: SIMD8<Float>, sin: SIMD8<Float>) {
        (cos * rotationCos - sin * rotationSin, sin * rotationCos + cos * rotationSin)
    }

    /// Moves the predelay to `tap` samples, crossfading over `fadeFrames` (see ``ReverbOutput``).
    mutating func movePredelay(to tap: Int, fadeFrames: Int) { output.movePredelay(to: tap, fadeFrames: fadeFrames) }

    /// Sets the predelay to `tap` samples at once (after a reset).
    mutating func jumpPredelay(to tap: Int) { output.jumpPredelay(to: tap) }

    /// The energy of the line outputs and of the diffuser's output, and whether any input sample was
    /// other than ±0, since the last call; then zeroes them.
    mutating func takeTickStatistics() -> (lineEnergy: Float, diffusedEnergy: Float, inputHeard: Bool) {
        defer {
            lineEnergy = SIMD8()
            diffusedEnergy = 0
            inputHeard = false
        }
        return (lineEnergy.sum(), diffusedEnergy, inputHeard)
    }

    /// Zeroes the diffuser: once the input stops it dies away long before the lines do, and would
    /// otherwise sink into subnormal numbers while they ring on.
    mutating func clearDiffuser() {
        diffuser.update(repeating: SIMD2(), count: diffuserFrames * 4)
    }

    /// Zeroes every delay line and filter state; the tank becomes dormant.
    mutating func clearSignal() {
        lines.update(repeating: 0, count: (lineMask + 1 + Self.segmentFrames) * 8)
        clearDiffuser()
        output.clear()
        lowpass = SIMD8()
        interpolated = SIMD8()
        previousNear = SIMD8()
        segmentLeft = 0   // the next awake sample starts a segment (the phasors keep their awake time)
        _ = takeTickStatistics()
        isDormant = true
    }

    /// How many stored values (predelay: frames) are subnormal; for tests, which require 0. Not for the audio thread.
    func subnormalCount() -> Int {
        func count(_ values: UnsafePointer<Float>, _ total: Int) -> Int {
            UnsafeBufferPointer(start: values, count: total).count { $0.isSubnormal }
        }
        let predelayValues = output.subnormalCount()
        let states = (0..<8).count { lowpass[$0].isSubnormal } + (0..<8).count { interpolated[$0].isSubnormal }
        let diffuserValues = UnsafeMutableRawPointer(diffuser).assumingMemoryBound(to: Float.self)
        return count(lines, (lineMask + 1 + Self.segmentFrames) * 8) + count(diffuserValues, diffuserFrames * 8) + predelayValues + states
    }

    /// Puts the modulation phasors back at their starting phases.
    mutating func resetModulation() {
        (phasorCos, phasorSin) = ReverbDesign.modulationStart()
        rotationDue = 0
        segmentLeft = 0
    }

    // MARK: Audio

    /// Renders `count` frames (within one tick) from `left`/`right` (the same pointer for a mono input)
    /// into `outputLeft`/`outputRight`. Inputs and outputs may alias frame by frame. A mono tank hears
    /// the mean of left and right; a stereo one keeps them apart.
    @_noLocks
    mutating func render(
        left: UnsafePointer<Float>, right: UnsafePointer<Float>,
        outputLeft: UnsafeMutablePointer<Float>, outputRight: UnsafeMutablePointer<Float>, count: Int
    ) {
        var frame = 0
        if isDormant {
            while frame < count {
                let dryLeft = left[frame], dryRight = right[frame]
                if isStereo ? (dryLeft != 0 || dryRight != 0) : 0.5 * (dryLeft + dryRight) != 0 { break }
                outputLeft[frame] = dryLeft * current.levels[1]
                outputRight[frame] = dryRight * current.levels[1]
                advanceRamps()
                frame += 1
            }
            if frame == count {
                tickFrame += count
                return
            }
            isDormant = false
        }
        // One loop per routing and per steady/ramping tick, so the loop itself never branches on them.
        if isStereo {
            renderStereo(left, right, outputLeft, outputRight, frame, count)
        } else {
            renderMono(left, right, outputLeft, outputRight, frame, count)
        }
        tickFrame += count
    }

    // ``renderAwake`` for each routing, steady or ramping: functions of their own, so the body is specialised
    // in each (inlined four times into ``render``, it was not).
    @inline(never) @_noLocks
    private mutating func renderMono(_ l: UnsafePointer<Float>, _ r: UnsafePointer<Float>, _ outL: UnsafeMutablePointer<Float>, _ outR: UnsafeMutablePointer<Float>, _ first: Int, _ end: Int) {
        if isRamping { renderAwake(l, r, outL, outR, first, end, stereo: false, ramping: true) } else { renderAwake(l, r, outL, outR, first, end, stereo: false, ramping: false) }
    }

    @inline(never) @_noLocks
    private mutating func renderStereo(_ l: UnsafePointer<Float>, _ r: UnsafePointer<Float>, _ outL: UnsafeMutablePointer<Float>, _ outR: UnsafeMutablePointer<Float>, _ first: Int, _ end: Int) {
        if isRamping { renderAwake(l, r, outL, outR, first, end, stereo: true, ramping: true) } else { renderAwake(l, r, outL, outR, first, end, stereo: true, ramping: false) }
    }

    /// Frames `first..<end` (within one tick, at most ``segmentFrames``): the mono diffuser, the network segment
    /// by segment into ``lineOutputs``, then the mono line writes, the statistics and the output stage over the
    /// whole stretch. Only the network's reads depend on the segment, so a segment boundary inside a tick (a tank
    /// that woke mid-tick) splits the network alone; frame by frame the arithmetic is that of split stretches.
    @inline(__always) @_noLocks
    private mutating func renderAwake(
        _ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>,
        _ outputLeft: UnsafeMutablePointer<Float>, _ outputRight: UnsafeMutablePointer<Float>,
        _ first: Int, _ end: Int, stereo: Bool, ramping: Bool
    ) {
        let count = end &- first
        assert(count <= Self.segmentFrames, "the reverb renders at most a tick at once")
        if !stereo {
            let heard = ReverbMonoDiffuser.diffuse(
                left + first, right + first, count: count, into: diffused,
                rings: UnsafeMutableRawPointer(diffuser).assumingMemoryBound(to: Float.self), lengths: diffuserLengths,
                start: diffuserWrite, size: diffuserFrames, coefficient: current.levels[0], step: step.levels[0],
                ramping: ramping)
            inputHeard = inputHeard || heard
            diffuserWrite = (diffuserWrite &+ count) & diffuserMask
        }
        // A mono tank's line writes wait for the stretch's end (``writeMonoLines(count:)``), so a segment starting
        // inside it counts its rows from where the writes will be by then.
        var done = 0, diffusion = current.levels[0]   // (a stereo network's diffuser ramps it)
        while done < count {
            if segmentLeft == 0 {
                beginSegment(frameInTick: tickFrame &+ first &+ done, write: stereo ? lineWrite : (lineWrite &+ done) & lineMask)
            }
            let part = min(count &- done, segmentLeft)
            runNetwork(left + (first &+ done), right + (first &+ done), at: done, count: part, diffusion: &diffusion, stereo: stereo, ramping: ramping)
            segmentOffset &+= part
            segmentLeft &-= part
            rotationDue &+= part
            done &+= part
        }
        if !stereo { writeMonoLines(count: count) }
        var energy = lineEnergy, diffusedSum = diffusedEnergy
        for frame in 0..<count {
            let outputs = lineOutputs[frame]
            energy += outputs * outputs
            if !stereo { diffusedSum += diffused[frame] * diffused[frame] }
        }
        (lineEnergy, diffusedEnergy) = (energy, diffusedSum)
        output.mix(
            lineOutputs, left + first, right + first, outputLeft + first, outputRight + first, count: count,
            levels: &current.levels, step: step.levels, stereo: stereo, ramping: ramping)
    }

    /// The network over `count` frames of the segment, frame `at` of the stretch on, each frame's line
    /// outputs into ``lineOutputs`` (from slot `at`). The recurrences, ramps and write positions live in
    /// locals, so they stay in registers instead of making a round trip through `self` every sample.
    @inline(__always) @_noLocks
    private mutating func runNetwork(_ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, at start: Int, count: Int, diffusion: inout Float, stereo: Bool, ramping: Bool) {
        let taps = Taps(lines + segmentOffset &* 8, readIndex)
        var state = LoopState(
            lowpass: ReverbLanes(lowpass), interpolated: ReverbLanes(interpolated), previousNear: ReverbLanes(previousNear),
            eta: ReverbLanes(eta), loopGains: ReverbLanes(current.loopGains), poles: ReverbLanes(current.poles),
            diffusion: diffusion, diffusedEnergy: diffusedEnergy, lineWrite: lineWrite, diffuserWrite: diffuserWrite)
        let etaStep = ReverbLanes(etaStep), loopGainStep = ReverbLanes(step.loopGains), poleStep = ReverbLanes(step.poles)
        let diffusedInput = diffused + start, outputs = lineOutputs + start, loopSignals = lineOutputs + (Self.segmentFrames &+ start)
        var inputBits = SIMD2<UInt32>()   // a stereo tank's input magnitudes, ORed
        for frame in 0..<count {
            var input = SIMD2(diffusedInput[frame], 0)
            if stereo {
                input = SIMD2(left[frame], right[frame])
                inputBits |= unsafeBitCast(input, to: SIMD2<UInt32>.self) & 0x7FFF_FFFF
            }
            networkSample(&state, input: input, near: taps.read(row: frame), loopSignal: loopSignals + frame, stereo: stereo)
                .store(to: UnsafeMutableRawPointer(outputs + frame))
            if ramping {
                state.loopGains += loopGainStep
                state.poles += poleStep
                state.diffusion += step.levels[0]
            }
            state.eta += etaStep
        }
        (lowpass, interpolated) = (state.lowpass.vector, state.interpolated.flushed().vector)
        (previousNear, eta) = (state.previousNear.vector, state.eta.vector)
        (current.loopGains, current.poles, diffusedEnergy) = (state.loopGains.vector, state.poles.vector, state.diffusedEnergy)
        (lineWrite, diffuserWrite, diffusion) = (state.lineWrite, state.diffuserWrite, state.diffusion)
        inputHeard = inputHeard || inputBits != SIMD2()
    }

    /// The network loop's own copy of the tank's filter states, ramping coefficients and write positions.
    private struct LoopState {
        var lowpass, interpolated, previousNear, eta, loopGains, poles: ReverbLanes
        var diffusion, diffusedEnergy: Float
        var lineWrite, diffuserWrite: Int
    }

    /// Each line's near tap at the tick's start: eight pointers, read a row (8 floats) further each sample.
    private struct Taps {
        let p0, p1, p2, p3, p4, p5, p6, p7: UnsafeMutablePointer<Float>

        @inline(__always)
        init(_ lines: UnsafeMutablePointer<Float>, _ index: SIMD8<Int32>) {
            (p0, p1, p2, p3) = (lines + Int(index[0]), lines + Int(index[1]), lines + Int(index[2]), lines + Int(index[3]))
            (p4, p5, p6, p7) = (lines + Int(index[4]), lines + Int(index[5]), lines + Int(index[6]), lines + Int(index[7]))
        }

        @inline(__always) @_noLocks
        func read(row: Int) -> ReverbLanes {
            let offset = row &* 8
            return ReverbLanes(SIMD4(p0[offset], p1[offset], p2[offset], p3[offset]), SIMD4(p4[offset], p5[offset], p6[offset], p7[offset]))
        }
    }

    /// One sample (left, right; a stereo tank's input, a mono tank's diffused input in the left lane and 0 in
    /// the right) through the diffuser (stereo only) and the network: the eight interpolated line outputs.
    @inline(__always) @_noLocks
    private mutating func networkSample(_ state: inout LoopState, input: SIMD2<Float>, near: ReverbLanes, loopSignal: UnsafeMutablePointer<SIMD8<Float>>, stereo: Bool
    ) -> ReverbLanes {
        // Input diffusion: four series all-passes v = u + g·v[n−M], out = v[n−M] − g·v, in one interleaved ring.
        let coefficient = state.diffusion
        var diffused = input
        let row = state.diffuserWrite &* 4
        for stage in 0..<(stereo ? 4 : 0) {
            let delayed = diffuser[((state.diffuserWrite &- Int(diffuserLengths[stage])) & diffuserMask) &* 4 &+ stage]
            let v = diffused + coefficient * delayed      // both lanes, each as a mono diffuser would
            diffuser[row &+ stage] = v
            diffused = delayed - coefficient * v
        }
        if stereo {
            state.diffuserWrite = (state.diffuserWrite &+ 1) & diffuserMask
            state.diffusedEnergy += (diffused * diffused).sum()
        }

        // Fractional read of every line at this tick's integer delay: a first-order all-pass interpolator
        // (flat magnitude, so the modulation adds no loss to the loop). Its far tap is the previous near one.
        let far = state.previousNear
        state.previousNear = near
        // Interpolator outputs below ±1e-30 (−600 dB) are flushed: between a line's first sparse echoes the
        // interpolator rings down geometrically (by η a sample) into subnormals. Its own state is flushed only
        // where a stretch ends (``runNetwork``), so the recurrence's path is one product and one difference
        // (η·near + far − η·y); what it carries below 1e-30 meanwhile is far under the rounding of any echo.
        // In a true-stereo tank the damping state is flushed too: a half can carry the sparse early echoes
        // of the other side's diffuser.
        state.interpolated = (state.eta * near + far) - state.eta * state.interpolated
        let outputs = state.interpolated.flushed()

        // Damping (a·y + (1 − a)·x: one product and one sum on the path), loop gain, orthogonal mixing, and the input.
        state.lowpass = state.poles * state.lowpass + (1 - state.poles) * outputs
        if stereo { state.lowpass = state.lowpass.flushed() }
        guard stereo else {   // the mix and the write wait for the stretch's end (``writeMonoLines(count:)``)
            (state.loopGains * state.lowpass).store(to: UnsafeMutableRawPointer(loopSignal))
            return outputs
        }
        let injected = routing.leftInput * diffused.x + routing.rightInput * diffused.y
        let written = ReverbLanes(ReverbLoopMath.mix((state.loopGains * state.lowpass).vector, coupling: routing.coupling) + injected)
        writeRow(written, at: state.lineWrite)
        state.lineWrite = (state.lineWrite &+ 1) & lineMask
        return outputs
    }

    /// A mono tank's line writes for `count` frames: each frame's damped, scaled loop signal through the
    /// Hadamard mix, plus the diffused input. They run after the stretch's reads, which is the same as
    /// frame by frame because every delay is at least ``segmentFrames`` samples (the kernel's minimum
    /// length), so no read of a segment meets a row written in it; and with no recurrence in this loop
    /// the mix's shuffles stay out of the network's (they used to spread into its filter states).
    @inline(__always) @_noLocks
    private mutating func writeMonoLines(count: Int) {
        let signals = UnsafeRawPointer(lineOutputs + Self.segmentFrames)
        var write = lineWrite
        for frame in 0..<count {
            let signal = ReverbLanes(
                signals.load(fromByteOffset: frame &* 32, as: SIMD4<Float>.self),
                signals.load(fromByteOffset: frame &* 32 &+ 16, as: SIMD4<Float>.self))
            let written = ReverbLoopMath.mix(signal, signs: hadamardSigns) + diffused[frame] * monoInputGains
            writeRow(written, at: write)
            write = (write &+ 1) & lineMask
        }
        lineWrite = write
    }

    /// Stores one frame of the eight lines at row `write`, and at its mirror past the end if it has one.
    @inline(__always) @_noLocks
    private func writeRow(_ written: ReverbLanes, at write: Int) {
        written.store(to: UnsafeMutableRawPointer(lines + write &* 8))
        if write < Self.segmentFrames { written.store(to: UnsafeMutableRawPointer(lines + (write &+ lineMask &+ 1) &* 8)) }
    }

    /// The line samples at the eight flat indices (one per line).
    @inline(__always) @_noLocks
    private func gatherLines(_ index: SIMD8<Int32>) -> SIMD8<Float> {
        SIMD8(lines[Int(index[0])], lines[Int(index[1])], lines[Int(index[2])], lines[Int(index[3])],
              lines[Int(index[4])], lines[Int(index[5])], lines[Int(index[6])], lines[Int(index[7])])
    }

    @inline(__always) @_noLocks
    private mutating func advanceRamps() {   // (the lengths only set the reads, fixed per tick in beginTick)
        current.loopGains += step.loopGains
        current.poles += step.poles
        current.levels += step.levels
    }
}
