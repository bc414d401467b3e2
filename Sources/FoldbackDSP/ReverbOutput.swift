// The reverb's output stage: the wet pair from the line outputs, the stereo predelay with its crossfade, width and the dry/wet mix. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The end of ``ReverbTank``'s signal path, run once per stretch of frames after the network: each frame's
/// eight line outputs become the wet (left, right) pair, which passes through a stereo predelay (crossfading
/// between taps while it moves), a width matrix and the dry/wet mix.
///
/// The pair, the delay and the mix are the same arithmetic frame by frame whether a frame runs alone or
/// in a group of 4 (steady coefficients, no crossfade), so the output does not depend on how the host
/// splits its blocks. All memory is allocated in `init` for the longest predelay; the tank that holds it
/// calls ``deallocate()`` in its `deinit` (a plain struct: as a `~Copyable` field with its own `deinit`,
/// the release build freed an invalid pointer while the tank was being built).
struct ReverbOutput {
    private let ring: UnsafeMutablePointer<SIMD2<Float>>
    private let mask: Int
    private var write = 0
    private(set) var tap = 0
    private var previousTap = 0
    private(set) var fade: Float = 1
    private var fadeStep: Float = 1
    private let routing: ReverbDesign.Routing

    /// The predelay ring's length in frames.
    let frames: Int

    /// A silent output stage for `routing` with room for a predelay up to `maximumPredelay` samples.
    init(maximumPredelay: Int, routing: ReverbDesign.Routing) {
        frames = ReverbDesign.ringSize(maximumPredelay + 1)
        ring = .allocate(capacity: frames)
        ring.initialize(repeating: SIMD2(), count: frames)
        mask = frames - 1
        self.routing = routing
    }

    /// Frees the predelay ring; the stage must not be used afterwards.
    func deallocate() { ring.deallocate() }

    /// Moves the predelay to `newTap` samples, crossfading over `fadeFrames`; a change during a crossfade
    /// waits for it to finish (the caller asks again every tick).
    mutating func movePredelay(to newTap: Int, fadeFrames: Int) {
        guard fade >= 1, newTap != tap else { return }
        previousTap = tap
        tap = newTap
        fade = 0
        fadeStep = 1 / Float(max(fadeFrames, 1))
    }

    /// Sets the predelay to `newTap` samples at once (after a reset).
    mutating func jumpPredelay(to newTap: Int) {
        tap = newTap
        previousTap = newTap
        fade = 1
    }

    /// Zeroes the predelay and ends any crossfade.
    mutating func clear() {
        ring.update(repeating: SIMD2(), count: frames)
        fade = 1
        previousTap = tap
    }

    /// How many predelay frames hold a subnormal value; for tests. Not for the audio thread.
    func subnormalCount() -> Int {
        (0..<frames).count { ring[$0].x.isSubnormal || ring[$0].y.isSubnormal }
    }

    /// Mixes `count` frames: `lineOutputs` (each frame's eight line outputs) into the wet pair, through
    /// the predelay, with the dry `left`/`right` into `outputLeft`/`outputRight`. `levels` (diffusion, dry,
    /// wet to the same side, wet to the other side) grows by `step` a frame when `ramping`. Inputs and
    /// outputs may alias frame by frame.
    @inline(__always) @_noLocks
    mutating func mix(
        _ lineOutputs: UnsafePointer<SIMD8<Float>>, _ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>,
        _ outputLeft: UnsafeMutablePointer<Float>, _ outputRight: UnsafeMutablePointer<Float>, count: Int,
        levels: inout SIMD4<Float>, step: SIMD4<Float>, stereo: Bool, ramping: Bool
    ) {
        var frame = 0
        if !ramping && fade >= 1 {   // 4 frames at a time
            let dry = levels[1], direct = levels[2], cross = levels[3]
            while frame &+ 4 <= count {
                let wetLeft: SIMD4<Float>, wetRight: SIMD4<Float>
                if !stereo && write &+ 4 <= frames && tap &+ 4 <= frames && (write &- tap) & mask &+ 4 <= frames {
                    (wetLeft, wetRight) = monoDelayed(lineOutputs + frame)
                } else {
                    let w0 = delayed(lineOutputs[frame], stereo: stereo), w1 = delayed(lineOutputs[frame &+ 1], stereo: stereo)
                    let w2 = delayed(lineOutputs[frame &+ 2], stereo: stereo), w3 = delayed(lineOutputs[frame &+ 3], stereo: stereo)
                    (wetLeft, wetRight) = (SIMD4(w0.x, w1.x, w2.x, w3.x), SIMD4(w0.y, w1.y, w2.y, w3.y))
                }
                let dryLeft = UnsafeRawPointer(left + frame).loadUnaligned(as: SIMD4<Float>.self)
                let dryRight = UnsafeRawPointer(right + frame).loadUnaligned(as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(outputLeft + frame).storeBytes(
                    of: dryLeft * dry + (direct * wetLeft + cross * wetRight), as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(outputRight + frame).storeBytes(
                    of: dryRight * dry + (direct * wetRight + cross * wetLeft), as: SIMD4<Float>.self)
                frame &+= 4
            }
        }
        while frame < count {
            var wet = delayed(lineOutputs[frame], stereo: stereo, keepingWrite: true)
            if fade < 1 {
                let old = ring[(write &- previousTap) & mask]
                fade = min(fade + fadeStep, 1)
                wet = old + (wet - old) * fade
            }
            write = (write &+ 1) & mask
            let dryLeft = left[frame], dryRight = right[frame]
            outputLeft[frame] = dryLeft * levels[1] + (levels[2] * wet.x + levels[3] * wet.y)
            outputRight[frame] = dryRight * levels[1] + (levels[2] * wet.y + levels[3] * wet.x)
            if ramping { levels += step }
            frame &+= 1
        }
    }

    /// ``delayed(_:stereo:keepingWrite:)`` for 4 frames of a mono tank at once, where neither the 4 writes
    /// nor the 4 reads wrap and no read meets a later write: the same sums (``ReverbLoopMath/monoPair(_:)``)
    /// across the frames after a transpose. Returns the 4 delayed left and right wet samples.
    @inline(__always) @_noLocks
    private mutating func monoDelayed(_ outputs: UnsafePointer<SIMD8<Float>>) -> (left: SIMD4<Float>, right: SIMD4<Float>) {
        let (p0, m0) = Self.sumAndDifference(outputs[0]), (p1, m1) = Self.sumAndDifference(outputs[1])
        let (p2, m2) = Self.sumAndDifference(outputs[2]), (p3, m3) = Self.sumAndDifference(outputs[3])
        let p = Self.transposed(p0, p1, p2, p3), m = Self.transposed(m0, m1, m2, m3)
        let left = (p.0 - p.1) + (p.2 - p.3), right = (m.0 + m.1) - (m.2 + m.3)
        let pairs = UnsafeMutableRawPointer(ring + write)
        pairs.storeBytes(of: SIMD4(left[0], right[0], left[1], right[1]), as: SIMD4<Float>.self)
        (pairs + 16).storeBytes(of: SIMD4(left[2], right[2], left[3], right[3]), as: SIMD4<Float>.self)
        let wet = UnsafeRawPointer(ring + ((write &- tap) & mask))
        let a = wet.loadUnaligned(as: SIMD4<Float>.self), b = (wet + 16).loadUnaligned(as: SIMD4<Float>.self)
        write = (write &+ 4) & mask
        return (SIMD4(a[0], a[2], b[0], b[2]), SIMD4(a[1], a[3], b[1], b[3]))
    }

    @inline(__always) @_noLocks
    private static func sumAndDifference(_ x: SIMD8<Float>) -> (SIMD4<Float>, SIMD4<Float>) {
        (x.lowHalf + x.highHalf, x.lowHalf - x.highHalf)
    }

    /// Lane i of the result's vector j is lane j of argument i.
    @inline(__always) @_noLocks
    private static func transposed(
        _ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>
    ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let ab01 = SIMD4(a[0], b[0], a[1], b[1]), cd01 = SIMD4(c[0], d[0], c[1], d[1])
        let ab23 = SIMD4(a[2], b[2], a[3], b[3]), cd23 = SIMD4(c[2], d[2], c[3], d[3])
        return (SIMD4(lowHalf: ab01.lowHalf, highHalf: cd01.lowHalf), SIMD4(lowHalf: ab01.highHalf, highHalf: cd01.highHalf),
                SIMD4(lowHalf: ab23.lowHalf, highHalf: cd23.lowHalf), SIMD4(lowHalf: ab23.highHalf, highHalf: cd23.highHalf))
    }

    /// Writes the wet pair of one frame's line outputs into the predelay and reads the pair `tap` frames
    /// back; moves on a frame unless `keepingWrite`.
    @inline(__always) @_noLocks
    private mutating func delayed(_ outputs: SIMD8<Float>, stereo: Bool, keepingWrite: Bool = false) -> SIMD2<Float> {
        ring[write] = stereo
            ? ReverbLoopMath.sums(outputs * routing.leftOutput, outputs * routing.rightOutput) : ReverbLoopMath.monoPair(outputs)
        let wet = ring[(write &- tap) & mask]
        if !keepingWrite { write = (write &+ 1) & mask }
        return wet
    }
}
