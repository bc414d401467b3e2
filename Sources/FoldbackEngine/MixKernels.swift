// Buffer kernels of the mixer: accumulate, scale, peak/energy. Realtime (checked by @_noLocks).

/// Small vectorisable loops the mixer is built from.
enum MixKernels {
    /// destination[n] += source[n] × gain.
    @_noLocks @inline(__always)
    static func accumulate(_ source: UnsafePointer<Float>, into destination: UnsafeMutablePointer<Float>, gain: Float, frames: Int) {
        for frame in 0..<frames { destination[frame] += source[frame] * gain }
    }

    /// destination[n] = source[n] × gain (source and destination may alias).
    @_noLocks @inline(__always)
    static func scale(_ source: UnsafePointer<Float>, into destination: UnsafeMutablePointer<Float>, gain: Float, frames: Int) {
        for frame in 0..<frames { destination[frame] = source[frame] * gain }
    }

    /// Sets `frames` samples to zero.
    @_noLocks @inline(__always)
    static func clear(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        for frame in 0..<frames { buffer[frame] = 0 }
    }

    /// Sample peak and sum of squares of `frames` samples. The peak is taken on the magnitudes' bit patterns
    /// (for non-negative floats they order as the values do), an integer maximum the compiler vectorises where
    /// Swift's floating-point `max` (with its NaN rules) stays scalar; the energy runs in eight lanes. A NaN
    /// still makes the sum of squares NaN, which is what the non-finite guard looks at.
    @_noLocks @inline(__always)
    static func peakAndEnergy(_ samples: UnsafePointer<Float>, frames: Int) -> (peak: Float, sumOfSquares: Float) {
        var peakBits: UInt32 = 0
        for frame in 0..<frames { peakBits = Swift.max(peakBits, samples[frame].bitPattern & 0x7FFF_FFFF) }
        let raw = UnsafeRawPointer(samples)
        var energies = SIMD8<Float>(repeating: 0)
        var frame = 0
        while frame &+ 8 <= frames {
            let lanes = raw.loadUnaligned(fromByteOffset: frame &* 4, as: SIMD8<Float>.self)
            energies += lanes * lanes
            frame &+= 8
        }
        var sumOfSquares = energies.sum()
        while frame < frames {
            sumOfSquares += samples[frame] * samples[frame]
            frame &+= 1
        }
        return (Float(bitPattern: peakBits), sumOfSquares)
    }

    /// Peak and mean square over `count` channels of `frames` samples; the mean square is not finite when
    /// any sample is not (NaN and ∞ propagate), 0 when there are no samples.
    @_noLocks @inline(__always)
    static func level(of channels: UnsafeMutablePointer<UnsafePointer<Float>>, count: Int, frames: Int) -> (peak: Float, meanSquare: Float) {
        var peak: Float = 0
        var sumOfSquares: Float = 0
        for channel in 0..<count {
            let channelLevel = peakAndEnergy(channels[channel], frames: frames)
            peak = max(peak, channelLevel.peak)
            sumOfSquares += channelLevel.sumOfSquares
        }
        return (peak, frames > 0 && count > 0 ? sumOfSquares / Float(frames * count) : 0)
    }
}
