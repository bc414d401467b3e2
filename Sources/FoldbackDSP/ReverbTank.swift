// The reverb's per-sample signal path: input diffuser, modulated 8-line feedback delay network, predelay, width and mix. Realtime.

/// Delay memory, filter state and the `@_noLocks` per-sample loop of ``ReverbKernel``.
///
/// Per sample: the input runs through four series Schroeder all-passes, then into eight delay lines read
/// at slowly modulated fractional delays (all-pass interpolation), each line's output low-passed
/// (damping), scaled by its signed loop gain, mixed by an orthogonal 8×8 matrix and written back with the
/// input. The wet left and right pass through a stereo predelay, a width matrix and the dry/wet mix.
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
    private static let segmentFrames = 32

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
    private let predelay: UnsafeMutablePointer<SIMD2<Float>>
    private let predelayMask: Int
    private var predelayWrite = 0
    private var predelayTap = 0
    private var previousTap = 0
    private var fade: Float = 1
    private var fadeStep: Float = 1

    private let laneNumbers = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
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
    private var tickFrame = 0
    private var previousNear = SIMD8<Float>()
    private var eta = SIMD8<Float>()
    private var etaStep = SIMD8<Float>()
    private var isRamping = false

    private var current: Coefficients
    private var step: Coefficients
    private var lineEnergy = SIMD8<Float>()
    private var diffusedEnergy: Float = 0
    private var inputPeak: Float = 0

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
        let predelayFrames = ReverbDesign.ringSize(maximumPredelay + 1)
        predelay = .allocate(capacity: predelayFrames)
        predelay.initialize(repeating: SIMD2(), count: predelayFrames)
        predelayMask = predelayFrames - 1
        memoryFrames = lineFrames + diffuserFrames + predelayFrames
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
        predelay.deallocate()
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
    @_noLocks
    private mutating func beginSegment(frameInTick: Int) {
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
        let rounded = (pointwiseMin(startDelays, endDelays) - 1) + magic
        let wholes = unsafeBitCast(rounded, to: SIMD8<Int32>.self) &- unsafeBitCast(magic, to: SIMD8<Int32>.self)
        let whole = rounded - magic
        let startFraction = startDelays - whole, endFraction = endDelays - whole
        eta = (1 - startFraction) / (1 + startFraction)
        etaStep = ((1 - endFraction) / (1 + endFraction) - eta) * scale
        let mask = SIMD8(repeating: Int32(truncatingIfNeeded: lineMask))
        let rows = (SIMD8(repeating: Int32(truncatingIfNeeded: lineWrite)) &- wholes) & mask
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

    /// Moves the predelay to `tap` samples, crossfading over `fadeFrames`; a change during a crossfade
    /// waits for it to finish (the caller asks again every tick).
    mutating func movePredelay(to tap: Int, fadeFrames: Int) {
        guard fade >= 1, tap != predelayTap else { return }
        previousTap = predelayTap
        predelayTap = tap
        fade = 0
        fadeStep = 1 / Float(max(fadeFrames, 1))
    }

    /// Sets the predelay to `tap` samples at once (after a reset).
    mutating func jumpPredelay(to tap: Int) {
        predelayTap = tap
        previousTap = tap
        fade = 1
    }

    /// The energy of the line outputs and of the diffuser's output, and the input's peak, since the last
    /// call; then zeroes them.
    mutating func takeTickStatistics() -> (lineEnergy: Float, diffusedEnergy: Float, inputPeak: Float) {
        defer {
            lineEnergy = SIMD8()
            diffusedEnergy = 0
            inputPeak = 0
        }
        return (lineEnergy.sum(), diffusedEnergy, inputPeak)
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
        predelay.update(repeating: SIMD2(), count: predelayMask + 1)
        lowpass = SIMD8()
        interpolated = SIMD8()
        previousNear = SIMD8()
        segmentLeft = 0   // the next awake sample starts a segment (the phasors keep their awake time)
        fade = 1
        previousTap = predelayTap
        _ = takeTickStatistics()
        isDormant = true
    }

    /// How many stored values (predelay: frames) are subnormal; for tests, which require 0. Not for the audio thread.
    func subnormalCount() -> Int {
        func count(_ values: UnsafePointer<Float>, _ total: Int) -> Int {
            UnsafeBufferPointer(start: values, count: total).count { $0.isSubnormal }
        }
        let predelayValues = (0...predelayMask).count { predelay[$0].x.isSubnormal || predelay[$0].y.isSubnormal }
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
        while frame < count {   // segment by segment
            if segmentLeft == 0 { beginSegment(frameInTick: tickFrame + frame) }
            let end = min(count, frame + segmentLeft)
            // One loop per routing and per steady/ramping tick, so the loop itself never branches on them.
            switch (isStereo, isRamping) {
            case (false, false): renderAwake(left, right, outputLeft, outputRight, frame, end, stereo: false, ramping: false)
            case (false, true): renderAwake(left, right, outputLeft, outputRight, frame, end, stereo: false, ramping: true)
            case (true, false): renderAwake(left, right, outputLeft, outputRight, frame, end, stereo: true, ramping: false)
            case (true, true): renderAwake(left, right, outputLeft, outputRight, frame, end, stereo: true, ramping: true)
            }
            frame = end
        }
        tickFrame += count
    }

    @inline(__always) @_noLocks
    private mutating func renderAwake(
        _ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>,
        _ outputLeft: UnsafeMutablePointer<Float>, _ outputRight: UnsafeMutablePointer<Float>,
        _ first: Int, _ count: Int, stereo: Bool, ramping: Bool
    ) {
        var peak = inputPeak
        if !stereo {
            ReverbMonoDiffuser.diffuse(
                left + first, right + first, count: count &- first, into: diffused,
                rings: UnsafeMutableRawPointer(diffuser).assumingMemoryBound(to: Float.self), lengths: diffuserLengths,
                start: diffuserWrite, size: diffuserFrames, coefficient: current.levels[0], step: step.levels[0], ramping: ramping)
            diffuserWrite = (diffuserWrite &+ count &- first) & diffuserMask
        }
        let taps = Taps(lines + segmentOffset &* 8, readIndex)
        // The loop's recurrences and write positions live in a local for the segment, so they stay in
        // registers instead of making a round trip through `self` every sample.
        var state = LoopState(
            lowpass: lowpass, interpolated: interpolated, previousNear: previousNear, eta: eta, lineEnergy: lineEnergy,
            diffusedEnergy: diffusedEnergy, lineWrite: lineWrite, diffuserWrite: diffuserWrite, predelayWrite: predelayWrite)
        for frame in first..<count {
            let dryLeft = left[frame], dryRight = right[frame]
            let input = stereo ? SIMD2(dryLeft, dryRight) : SIMD2(0.5 * (dryLeft + dryRight), 0)
            peak = max(peak, max(input.x.magnitude, input.y.magnitude))
            let wet = tankSample(&state, input: stereo ? input : SIMD2(diffused[frame &- first], 0), near: taps.read(row: frame &- first), stereo: stereo)
            let levels = current.levels
            outputLeft[frame] = dryLeft * levels[1] + (levels[2] * wet.x + levels[3] * wet.y)
            outputRight[frame] = dryRight * levels[1] + (levels[2] * wet.y + levels[3] * wet.x)
            if ramping { advanceRamps() }
            state.eta += etaStep
        }
        (lowpass, interpolated, previousNear, eta) = (state.lowpass, state.interpolated, state.previousNear, state.eta)
        (lineEnergy, diffusedEnergy) = (state.lineEnergy, state.diffusedEnergy)
        (lineWrite, diffuserWrite, predelayWrite) = (state.lineWrite, state.diffuserWrite, state.predelayWrite)
        inputPeak = peak
        segmentOffset &+= count &- first
        segmentLeft &-= count &- first
        rotationDue &+= count &- first
    }

    /// The per-sample loop's own copy of the tank's filter states, energies and write positions.
    private struct LoopState {
        var lowpass, interpolated, previousNear, eta, lineEnergy: SIMD8<Float>
        var diffusedEnergy: Float
        var lineWrite, diffuserWrite, predelayWrite: Int
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
        func read(row: Int) -> SIMD8<Float> {
            let offset = row &* 8
            return SIMD8(p0[offset], p1[offset], p2[offset], p3[offset], p4[offset], p5[offset], p6[offset], p7[offset])
        }
    }

    /// One sample (left, right; a stereo tank's input, a mono tank's diffused input in the left lane and 0 in
    /// the right) through the diffuser (stereo only), network and predelay: the wet (left, right) pair before width and mix.
    @inline(__always) @_noLocks
    private mutating func tankSample(_ state: inout LoopState, input: SIMD2<Float>, near: SIMD8<Float>, stereo: Bool) -> SIMD2<Float> {
        // Input diffusion: four series all-passes v = u + g·v[n−M], out = v[n−M] − g·v, in one interleaved ring.
        let coefficient = current.levels[0]
        var diffused = input
        let row = state.diffuserWrite &* 4
        for stage in 0..<(stereo ? 4 : 0) {
            let delayed = diffuser[((state.diffuserWrite &- Int(diffuserLengths[stage])) & diffuserMask) &* 4 &+ stage]
            let v = diffused + coefficient * delayed      // both lanes, each as a mono diffuser would
            diffuser[row &+ stage] = v
            diffused = delayed - coefficient * v
        }
        if stereo { state.diffuserWrite = (state.diffuserWrite &+ 1) & diffuserMask }

        // Fractional read of every line at this tick's integer delay: a first-order all-pass interpolator
        // (flat magnitude, so the modulation adds no loss to the loop). Its far tap is the previous near one.
        let far = state.previousNear
        state.previousNear = near
        // Interpolator outputs below ±1e-30 (−600 dB) are flushed: between a line's first sparse echoes the
        // interpolator rings down geometrically (by η a sample) into subnormals. In a true-stereo tank the
        // damping state is flushed too: a half can carry the sparse early echoes of the other side's diffuser.
        let outputs = ReverbLoopMath.flushed(state.eta * (near - state.interpolated) + far)
        state.interpolated = outputs

        // Damping, loop gain, orthogonal mixing, and the input.
        state.lowpass = outputs + current.poles * (state.lowpass - outputs)
        if stereo { state.lowpass = ReverbLoopMath.flushed(state.lowpass) }
        let injected = stereo
            ? routing.leftInput * diffused.x + routing.rightInput * diffused.y : routing.leftInput * diffused.x
        let mixed = stereo
            ? ReverbLoopMath.mix(current.loopGains * state.lowpass, coupling: routing.coupling) : ReverbLoopMath.mix(current.loopGains * state.lowpass)
        UnsafeMutableRawPointer(lines + state.lineWrite &* 8).storeBytes(of: mixed + injected, as: SIMD8<Float>.self)
        if state.lineWrite < Self.segmentFrames {   // its mirror past the end
            UnsafeMutableRawPointer(lines + (state.lineWrite &+ lineMask &+ 1) &* 8).storeBytes(of: mixed + injected, as: SIMD8<Float>.self)
        }
        state.lineWrite = (state.lineWrite &+ 1) & lineMask
        state.lineEnergy += outputs * outputs
        state.diffusedEnergy += stereo ? (diffused * diffused).sum() : diffused.x * diffused.x

        // Predelay on the stereo wet signal, crossfading between taps while it changes.
        predelay[state.predelayWrite] = ReverbLoopMath.sums(outputs * routing.leftOutput, outputs * routing.rightOutput)
        var wet = predelay[(state.predelayWrite &- predelayTap) & predelayMask]
        if fade < 1 {
            let old = predelay[(state.predelayWrite &- previousTap) & predelayMask]
            fade = min(fade + fadeStep, 1)
            wet = old + (wet - old) * fade
        }
        state.predelayWrite = (state.predelayWrite &+ 1) & predelayMask
        return wet
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
