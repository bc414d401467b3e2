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

    /// Sample peak and sum of squares of `frames` samples.
    @_noLocks @inline(__always)
    static func peakAndEnergy(_ samples: UnsafePointer<Float>, frames: Int) -> (peak: Float, sumOfSquares: Float) {
        var peak: Float = 0
        var sumOfSquares: Float = 0
        for frame in 0..<frames {
            let sample = samples[frame]
            peak = max(peak, abs(sample))
            sumOfSquares += sample * sample
        }
        return (peak, sumOfSquares)
    }
}
