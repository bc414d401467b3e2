// A mono reverb tank's input diffuser: four series Schroeder all-passes run 4 frames at a time. Realtime.

/// The input diffusion of ``ReverbTank`` in its mono form: the mean of left and right through four series
/// all-passes v = u + g·v[n−M], out = v[n−M] − g·v, computed 4 (or 8) frames at once (each stage's reads lie
/// before its writes, as every M ≥ 4), lane by lane the same arithmetic as one frame at a time.
///
/// The memory belongs to the tank: 4 rings of floats, `size + 4` apart, each `size` (a power of two) long
/// with its first 3 floats mirrored past its end (so 4 frames read at once never wrap).
enum ReverbMonoDiffuser {
    /// Diffuses `count` frames (the mean of `left` and `right`) into `output`, starting at ring position
    /// `start`; the coefficient starts at `coefficient` and grows by `step` a frame when `ramping` (as
    /// repeated additions, so the result does not depend on how the frames are split). Returns whether
    /// any input frame was other than ±0.
    @inline(never) @_noLocks
    static func diffuse(
        _ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, count: Int, into output: UnsafeMutablePointer<Float>,
        rings: UnsafeMutablePointer<Float>, lengths: SIMD4<Int32>, start: Int, size: Int,
        coefficient startCoefficient: Float, step: Float, ramping: Bool
    ) -> Bool {
        let mask = size &- 1, stride = size &+ 4
        var coefficient = startCoefficient
        var frame = 0, magnitudes = SIMD4<UInt32>()
        // 8 frames at once, two groups of 4 whose dependency chains interleave, when the second group reads
        // nothing the first writes (every M ≥ 8: always at 8 kHz and up); then 4 at once.
        let paired = lengths.min() >= 8
        while paired && frame &+ 8 <= count {
            let gainsA = gains(&coefficient, step: step, ramping: ramping), gainsB = gains(&coefficient, step: step, ramping: ramping)
            var a = mean(left, right, frame), b = mean(left, right, frame &+ 4)
            magnitudes |= (unsafeBitCast(a, to: SIMD4<UInt32>.self) | unsafeBitCast(b, to: SIMD4<UInt32>.self)) & 0x7FFF_FFFF
            let writeA = (start &+ frame) & mask, writeB = (start &+ frame &+ 4) & mask
            for stage in 0..<4 {
                let ring = rings + stage &* stride, read = start &+ frame &- Int(lengths[stage])
                let delayedA = UnsafeRawPointer(ring + (read & mask)).loadUnaligned(as: SIMD4<Float>.self)
                let delayedB = UnsafeRawPointer(ring + ((read &+ 4) & mask)).loadUnaligned(as: SIMD4<Float>.self)
                let vA = a + gainsA * delayedA, vB = b + gainsB * delayedB
                UnsafeMutableRawPointer(ring + writeA).storeBytes(of: vA, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(ring + writeB).storeBytes(of: vB, as: SIMD4<Float>.self)
                a = delayedA - gainsA * vA
                b = delayedB - gainsB * vB
            }
            mirrorIfNeeded(rings, stride: stride, from: writeA, size: size)
            mirrorIfNeeded(rings, stride: stride, from: writeB, size: size)
            UnsafeMutableRawPointer(output + frame).storeBytes(of: a, as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(output + (frame &+ 4)).storeBytes(of: b, as: SIMD4<Float>.self)
            frame &+= 8
        }
        while frame &+ 4 <= count {
            let g = gains(&coefficient, step: step, ramping: ramping)
            var x = mean(left, right, frame)
            magnitudes |= unsafeBitCast(x, to: SIMD4<UInt32>.self) & 0x7FFF_FFFF
            let write = (start &+ frame) & mask
            for stage in 0..<4 {
                let ring = rings + stage &* stride
                let delayed = UnsafeRawPointer(ring + ((start &+ frame &- Int(lengths[stage])) & mask))
                    .loadUnaligned(as: SIMD4<Float>.self)
                let v = x + g * delayed
                UnsafeMutableRawPointer(ring + write).storeBytes(of: v, as: SIMD4<Float>.self)
                x = delayed - g * v
            }
            mirrorIfNeeded(rings, stride: stride, from: write, size: size)
            UnsafeMutableRawPointer(output + frame).storeBytes(of: x, as: SIMD4<Float>.self)
            frame &+= 4
        }
        var heard = magnitudes != SIMD4()
        while frame < count {
            var x = 0.5 * (left[frame] + right[frame])
            heard = heard || x != 0
            let write = (start &+ frame) & mask
            for stage in 0..<4 {
                let ring = rings + stage &* stride
                let delayed = ring[(start &+ frame &- Int(lengths[stage])) & mask]
                let v = x + coefficient * delayed
                ring[write] = v
                if write < 3 { ring[write &+ size] = v }
                x = delayed - coefficient * v
            }
            output[frame] = x
            if ramping { coefficient += step }
            frame &+= 1
        }
        return heard
    }

    /// The coefficient for the next 4 frames (repeated additions of `step` when `ramping`), moving it on.
    @inline(__always) @_noLocks
    private static func gains(_ coefficient: inout Float, step: Float, ramping: Bool) -> SIMD4<Float> {
        guard ramping else { return SIMD4(repeating: coefficient) }
        let first = coefficient, second = first + step, third = second + step, fourth = third + step
        coefficient = fourth + step
        return SIMD4(first, second, third, fourth)
    }

    /// The mean of left and right at frames `frame`…`frame + 3`.
    @inline(__always) @_noLocks
    private static func mean(_ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, _ frame: Int) -> SIMD4<Float> {
        (UnsafeRawPointer(left + frame).loadUnaligned(as: SIMD4<Float>.self)
            + UnsafeRawPointer(right + frame).loadUnaligned(as: SIMD4<Float>.self)) * 0.5
    }

    /// ``mirror(_:from:size:)`` on all four rings, if the 4 floats written at `write` reach past the end or into the first 3.
    @inline(__always) @_noLocks
    private static func mirrorIfNeeded(_ rings: UnsafeMutablePointer<Float>, stride: Int, from write: Int, size: Int) {
        if write > size &- 4 || write < 3 {
            for stage in 0..<4 { mirror(rings + stage &* stride, from: write, size: size) }
        }
    }

    /// After 4 floats written at `write` in a ring of `size`: those past the end go to its start, and
    /// those among its first 3 to their mirror past the end.
    @_noLocks
    private static func mirror(_ ring: UnsafeMutablePointer<Float>, from write: Int, size: Int) {
        for position in write..<(write &+ 4) {
            if position >= size { ring[position &- size] = ring[position] }
            if position < 3 { ring[position &+ size] = ring[position] }
        }
    }
}
