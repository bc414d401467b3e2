// Where the echo's lines are read: a whole-frame delay that moves by a crossfade between two heads or by a glide. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The read position of an ``EchoKernel``'s lines and how it moves to a new time.
///
/// Settled, the delay is a whole number of frames and a read is the sample written exactly that many
/// frames before (no interpolation). A change either crossfades linearly from the old head to the new one
/// over ``fadeFrames`` (a change arriving during a fade waits for it, as ``DelayKernel`` does), or glides
/// the head along a smoothstep curve whose steepest slope is ``EchoParameters/glideRate`` frames per frame,
/// reading between samples by 4-point cubic Hermite interpolation until it lands on the new whole frame.
/// A new request during a glide starts a fresh glide from wherever the head is.
///
/// Call ``advance()`` once per frame, then ``read(_:write:mask:)`` for each line.
struct EchoReadHead {
    /// Frames in one crossfade.
    let fadeFrames: Int
    /// How a change moves.
    var change: EchoTimeChange = .crossfade
    /// The delay the head rests at (or is heading to), in frames.
    private(set) var delay: Int
    private var previous: Int
    private var requested: Int
    private var fadeLeft = 0
    private var weight: Float = 1
    // A glide: the fractional delay now, where it started and the progress along its length.
    private var position: Double
    private var glideFrom: Double = 0
    private var glideLength = 0
    private var glideDone = 0

    /// A head resting at `delay` frames.
    init(delay: Int, fadeFrames: Int) {
        self.delay = delay
        previous = delay
        requested = delay
        position = Double(delay)
        self.fadeFrames = max(1, fadeFrames)
    }

    /// Whether no change is running or waiting.
    var isSettled: Bool { requested == delay && fadeLeft == 0 && glideLength == 0 }

    /// Asks for a delay of `frames` frames (at least 2).
    mutating func request(_ frames: Int) {
        requested = max(2, frames)
    }

    /// Jumps to the requested delay at once (the lines are being cleared).
    mutating func settle() {
        delay = requested
        previous = requested
        position = Double(requested)
        fadeLeft = 0
        glideLength = 0
        weight = 1
    }

    /// Moves one frame on: starts a change that is due and steps a running one.
    @inline(__always)
    mutating func advance() {
        if glideLength > 0 {
            stepGlide()
        } else if fadeLeft > 0 {
            fadeLeft -= 1
            weight = Float(fadeFrames - fadeLeft) / Float(fadeFrames)
        } else if requested != delay {
            start()
        }
    }

    private mutating func start() {
        guard change == .crossfade else { return startGlide() }
        previous = delay
        delay = requested
        position = Double(requested)
        fadeLeft = fadeFrames - 1
        weight = fadeLeft == 0 ? 1 : 1 / Float(fadeFrames)
    }

    private mutating func startGlide() {
        glideFrom = position
        delay = requested
        let distance = abs(Double(delay) - glideFrom)
        glideLength = max(1, Int((1.5 * distance / EchoParameters.glideRate).rounded(.up)))
        glideDone = 0
        stepGlide()
    }

    @inline(__always)
    private mutating func stepGlide() {
        if requested != delay {
            // Retarget from where the head is now (a glide, whatever the setting, so the head never jumps).
            return startGlide()
        }
        glideDone += 1
        if glideDone >= glideLength {
            glideLength = 0
            position = Double(delay)
            return
        }
        let t = Double(glideDone) / Double(glideLength)
        position = glideFrom + (Double(delay) - glideFrom) * t * t * (3 - 2 * t)
    }

    /// The sample of `line` (a ring of `mask + 1` frames whose next write is at `write`) this frame reads.
    @inline(__always)
    func read(_ line: UnsafeMutablePointer<Float>, write: Int, mask: Int) -> Float {
        if glideLength > 0 { return interpolated(line, write: write, mask: mask) }
        let new = line[(write &- delay) & mask]
        if fadeLeft == 0 && weight == 1 { return new }
        let old = line[(write &- previous) & mask]
        return old + weight * (new - old)
    }

    /// The cubic Hermite read at the fractional ``position``.
    @inline(__always)
    private func interpolated(_ line: UnsafeMutablePointer<Float>, write: Int, mask: Int) -> Float {
        let whole = Int(position)                  // position ≥ 2, so floor
        let fraction = Float(position - Double(whole))
        if fraction == 0 { return line[(write &- whole) & mask] }
        // The read point lies between the samples at delays whole + 1 (older) and whole, at t = 1 − fraction.
        let base = write &- whole &- 1
        let y0 = line[(base &- 1) & mask], y1 = line[base & mask]
        let y2 = line[(base &+ 1) & mask], y3 = line[(base &+ 2) & mask]
        let t = 1 - fraction
        let c1 = 0.5 * (y2 - y0)
        let c2 = y0 - 2.5 * y1 + 2 * y2 - 0.5 * y3
        let c3 = 0.5 * (y3 - y0) + 1.5 * (y1 - y2)
        return ((c3 * t + c2) * t + c1) * t + y1
    }
}
