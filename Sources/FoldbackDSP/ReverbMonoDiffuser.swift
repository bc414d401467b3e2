// A mono reverb tank's input diffuser: four series Schroeder all-passes run 4 frames at a time. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The input diffusion of ``ReverbTank`` in its mono form: the mean of left and right through four series
/// all-passes v = u + g·v[n−M], out = v[n−M] − g·v, computed 4 frames at once (each stage's reads lie
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
        while frame &+ 4 <= count {
            var gains = SIMD4(repeating: coefficient)
            if ramping {
                let second = coefficient + step, third = second + step, fourth = third + step
                gains = SIMD4(coefficient, second, third, fourth)
                coefficient = fourth + step
            }
            var x = (UnsafeRawPointer(left + frame).loadUnaligned(as: SIMD4<Float>.self)
                + UnsafeRawPointer(right + frame).loadUnaligned(as: SIMD4<Float>.self)) * 0.5
            magnitudes |= unsafeBitCast(x, to: SIMD4<UInt32>.self) & 0x7FFF_FFFF
            let write = (start &+ frame) & mask
            for stage in 0..<4 {
                let ring = rings + stage &* stride
                let delayed = UnsafeRawPointer(ring + ((start &+ frame &- Int(lengths[stage])) & mask))
                    .loadUnaligned(as: SIMD4<Float>.self)
                let v = x + gains * delayed
                UnsafeMutableRawPointer(ring + write).storeBytes(of: v, as: SIMD4<Float>.self)
                x = delayed - gains * v
            }
            if write > size &- 4 || write < 3 {
                for stage in 0..<4 { mirror(rings + stage &* stride, from: write, size: size) }
            }
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
