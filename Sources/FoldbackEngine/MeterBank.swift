// Peak and RMS meters: computed on the audio thread, published lock-free to readers. Realtime writer, non-realtime readers.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
#if canImport(Glibc)
import Glibc
#endif

/// A level reading of a strip or bus, linear amplitude (1.0 = 0 dBFS).
public struct MeterReading: Sendable, Hashable {
    /// Sample peak with a falling hold (20 dB per 1.7 s, as a digital PPM).
    public var peak: Float
    /// RMS, integrated like a VU meter: reaches 99 % of a steady level in 300 ms.
    public var rms: Float
    /// Times the NaN/Inf guard silenced this strip (always 0 for buses).
    public var guardTrips: Int = 0
}

/// Meters of one graph: the audio thread owns the ballistics state and publishes the results as atomics.
struct MeterBank: @unchecked Sendable {
    let count: Int
    private let published: UnsafeMutablePointer<UnsafeAtomic<UInt32>.Storage>
    private let trips: UnsafeMutablePointer<UnsafeAtomic<Int>.Storage>
    private let peakHold: UnsafeMutablePointer<Float>
    private let meanSquare: UnsafeMutablePointer<Float>
    /// Peak release per frame, as a log-gain slope (natural log units).
    private let peakReleasePerFrame: Float
    /// Frames in the RMS time constant.
    private let rmsTimeConstantFrames: Float
    /// The last chunk length ``factors(frames:)`` was asked for (−1: none) and its two factors (audio thread).
    private let cachedFrames: UnsafeMutablePointer<Int>
    private let cachedFactors: UnsafeMutablePointer<Float>

    init(count: Int, sampleRate: Double) {
        self.count = count
        let slots = max(1, count * 2)
        published = .allocate(capacity: slots)
        for slot in 0..<slots { (published + slot).initialize(to: .init(0)) }
        trips = .allocate(capacity: max(1, count))
        for slot in 0..<max(1, count) { (trips + slot).initialize(to: .init(0)) }
        peakHold = .allocate(capacity: max(1, count))
        peakHold.initialize(repeating: 0, count: max(1, count))
        meanSquare = .allocate(capacity: max(1, count))
        meanSquare.initialize(repeating: 0, count: max(1, count))
        cachedFrames = .allocate(capacity: 1)
        cachedFrames.initialize(to: -1)
        cachedFactors = .allocate(capacity: 2)
        cachedFactors.initialize(repeating: 0, count: 2)
        peakReleasePerFrame = Float(log(10.0) * (20.0 / 20.0) / (1.7 * sampleRate))
        // Mean-square time constant τ with √(1 − e^(−0.3/τ)) = 0.99, i.e. τ = 0.3 s / 3.912.
        rmsTimeConstantFrames = Float(0.3 / 3.912 * sampleRate)
    }

    func destroy() {
        published.deallocate()
        trips.deallocate()
        peakHold.deallocate()
        meanSquare.deallocate()
        cachedFrames.deallocate()
        cachedFactors.deallocate()
    }

    /// Per-chunk decay factors for peak hold and RMS smoothing (computed once per chunk length for all meters;
    /// audio thread).
    func factors(frames: Int) -> (peakDecay: Float, rmsWeight: Float) {
        if cachedFrames.pointee != frames {
            cachedFactors[0] = expf(-peakReleasePerFrame * Float(frames))
            cachedFactors[1] = 1 - expf(-Float(frames) / rmsTimeConstantFrames)
            cachedFrames.pointee = frames
        }
        return (cachedFactors[0], cachedFactors[1])
    }

    /// Audio thread: folds one chunk's peak and mean square into meter `index` and publishes it.
    func update(_ index: Int, blockPeak: Float, blockMeanSquare: Float, factors: (peakDecay: Float, rmsWeight: Float)) {
        let held = max(blockPeak, peakHold[index] * factors.peakDecay)
        peakHold[index] = held
        let smoothed = meanSquare[index] + (blockMeanSquare - meanSquare[index]) * factors.rmsWeight
        meanSquare[index] = smoothed
        UnsafeAtomic<UInt32>(at: published + 2 * index).store(held.bitPattern, ordering: .relaxed)
        UnsafeAtomic<UInt32>(at: published + 2 * index + 1).store(smoothed.bitPattern, ordering: .relaxed)
    }

    /// Audio thread: folds a chunk of exact zeros into meter `index`, as ``update(_:blockPeak:blockMeanSquare:factors:)``
    /// does; a meter already at +0.0 stays as it is, so it is not touched.
    func updateSilent(_ index: Int, factors: (peakDecay: Float, rmsWeight: Float)) {
        guard peakHold[index].bitPattern != 0 || meanSquare[index].bitPattern != 0 else { return }
        update(index, blockPeak: 0, blockMeanSquare: 0, factors: factors)
    }

    /// Audio thread: counts one NaN/Inf guard trip on meter `index`.
    func recordGuardTrip(_ index: Int) {
        UnsafeAtomic<Int>(at: trips + index).wrappingIncrement(ordering: .relaxed)
    }

    /// Any thread: the last published reading of meter `index`.
    func read(_ index: Int) -> MeterReading {
        let peak = Float(bitPattern: UnsafeAtomic<UInt32>(at: published + 2 * index).load(ordering: .relaxed))
        let meanSquare = Float(bitPattern: UnsafeAtomic<UInt32>(at: published + 2 * index + 1).load(ordering: .relaxed))
        let guardTrips = UnsafeAtomic<Int>(at: trips + index).load(ordering: .relaxed)
        return MeterReading(peak: peak, rms: meanSquare.squareRoot(), guardTrips: guardTrips)
    }
}
