// A mono reverb tank's per-tick energy sums (line outputs and diffused input), 4 frames at a time. Realtime.

/// The energies ``ReverbKernel`` watches for silence: Σ x² of each line's output and of the diffused input
/// over a tick. Summed in four phases (the awake frame's position in its modulation segment, modulo 4), each
/// frame by frame in order, so 4 frames go in at once with no long chain of dependent sums, and the totals
/// still do not depend on how the host splits its blocks.
struct ReverbStatistics {
    private var lines0 = SIMD8<Float>(), lines1 = SIMD8<Float>(), lines2 = SIMD8<Float>(), lines3 = SIMD8<Float>()
    private var diffused = SIMD4<Float>()   // lane k: phase k

    /// Adds `count` frames of `lineOutputs` (eight line outputs each) and, if `hasInput`, of `input` (a mono
    /// tank's diffused input), the first at `phase` (its awake frame's position in its segment, modulo 4).
    @inline(never) @_noLocks
    mutating func add(_ lineOutputs: UnsafePointer<SIMD8<Float>>, _ input: UnsafePointer<Float>, hasInput: Bool, count: Int, phase: Int) {
        var frame = 0
        while frame < count && (phase &+ frame) & 3 != 0 { addOne(lineOutputs, input, hasInput: hasInput, frame: frame, phase: phase) ; frame &+= 1 }
        while frame &+ 4 <= count {
            let a = lineOutputs[frame], b = lineOutputs[frame &+ 1], c = lineOutputs[frame &+ 2], d = lineOutputs[frame &+ 3]
            lines0 += a * a
            lines1 += b * b
            lines2 += c * c
            lines3 += d * d
            if hasInput {
                let x = UnsafeRawPointer(input + frame).loadUnaligned(as: SIMD4<Float>.self)
                diffused += x * x
            }
            frame &+= 4
        }
        while frame < count { addOne(lineOutputs, input, hasInput: hasInput, frame: frame, phase: phase) ; frame &+= 1 }
    }

    @inline(__always) @_noLocks
    private mutating func addOne(_ lineOutputs: UnsafePointer<SIMD8<Float>>, _ input: UnsafePointer<Float>, hasInput: Bool, frame: Int, phase: Int) {
        let x = lineOutputs[frame], lane = (phase &+ frame) & 3
        switch lane {
        case 0: lines0 += x * x
        case 1: lines1 += x * x
        case 2: lines2 += x * x
        default: lines3 += x * x
        }
        if hasInput { diffused[lane] += input[frame] * input[frame] }
    }

    /// The line outputs' energy (all eight lines) and the diffused input's since the last call; then zeroes them.
    mutating func take() -> (lines: Float, diffused: Float) {
        defer { self = ReverbStatistics() }
        return (((lines0 + lines1) + (lines2 + lines3)).sum(), (diffused[0] + diffused[1]) + (diffused[2] + diffused[3]))
    }
}
