// Buffer kernels of the mixer: accumulate, scale, peak/energy. Realtime (checked by @_noLocks).
// SPDX-License-Identifier: GPL-3.0-or-later

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

    /// Sample peak and sum of squares of `frames` samples, in one pass of eight lanes (the magnitudes' maximum
    /// by compare and select, which SSE2 does in a few instructions where Swift's `max`, with its NaN rules,
    /// stays scalar). A NaN never becomes the peak, but makes the sum of squares NaN, which is what the
    /// non-finite guard looks at.
    @_noLocks @inline(__always)
    static func peakAndEnergy(_ samples: UnsafePointer<Float>, frames: Int) -> (peak: Float, sumOfSquares: Float) {
        let raw = UnsafeRawPointer(samples)
        var peaks = SIMD8<Float>(repeating: 0)
        var energies = SIMD8<Float>(repeating: 0)
        var frame = 0
        while frame &+ 8 <= frames {
            let lanes = raw.loadUnaligned(fromByteOffset: frame &* 4, as: SIMD8<Float>.self)
            energies += lanes * lanes
            let magnitudes = lanes.replacing(with: -lanes, where: lanes .< 0)
            peaks.replace(with: magnitudes, where: magnitudes .> peaks)
            frame &+= 8
        }
        var halves = peaks.lowHalf   // (no NaN among the peaks: a plain reduction, inlined)
        halves.replace(with: peaks.highHalf, where: peaks.highHalf .> halves)
        var peak = Swift.max(Swift.max(halves[0], halves[1]), Swift.max(halves[2], halves[3]))
        var sumOfSquares = energies.sum()
        while frame < frames {
            let sample = samples[frame]
            sumOfSquares += sample * sample
            if sample.magnitude > peak { peak = sample.magnitude }
            frame &+= 1
        }
        return (peak, sumOfSquares)
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
