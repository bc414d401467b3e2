// Short-time power spectra through FFTW (single precision, real input): the feedback worker's and the analyser's FFT. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
#if canImport(Glibc)
import Glibc
#endif

/// A Hann-windowed real FFT of a fixed size with its buffers, made once off the audio thread; the transform is the
/// process's shared plan of that size (``RealFFTPlans``, planned under FFTW's one planner lock; running it needs none).
/// Levels are calibrated so a full-scale sine reads 0 dB.
package final class SpectrumAnalyzer {
    /// Transform size, frames.
    package let size: Int
    /// Bins in the spectrum (size / 2 + 1).
    package var binCount: Int { size / 2 + 1 }
    private let input: UnsafeMutablePointer<Float>
    /// The half spectrum, interleaved re, im.
    private let output: UnsafeMutablePointer<Float>
    private let window: [Float]
    private let levels: UnsafeMutablePointer<Float>
    private let plans: RealFFTPlans
    private let scale: Float

    /// An analyser of `size` frames (a power of two ≥ 64), else nil.
    package init?(size: Int) {
        guard size >= 64, size & (size - 1) == 0 else { return nil }
        self.size = size
        input = RealFFTPlans.allocateReal(size)
        output = RealFFTPlans.allocateComplex(size / 2 + 1)
        plans = RealFFTPlans.plans(size: size)
        window = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        levels = .allocate(capacity: size / 2 + 1)
        levels.initialize(repeating: -200, count: size / 2 + 1)
        scale = 2 / window.reduce(0, +)         // a full-scale sine's bin reads 1
    }

    deinit {
        RealFFTPlans.free(input)
        RealFFTPlans.free(output)
        levels.deallocate()
    }

    /// The levels ``powerSpectrumDB(_:)`` returned last (valid until its next call).
    public var latestLevels: UnsafeBufferPointer<Float> { UnsafeBufferPointer(start: levels, count: binCount) }

    /// The spectrum of the last ``size`` samples of `samples` (oldest first), in dB per bin; valid until the next call.
    package func powerSpectrumDB(_ samples: UnsafeBufferPointer<Float>) -> UnsafeBufferPointer<Float> {
        let powers = powerSpectrum(samples)
        for bin in 0..<binCount { levels[bin] = 10 * log10(max(powers[bin], 1e-20)) }
        return UnsafeBufferPointer(start: levels, count: binCount)
    }

    /// The spectrum of the last ``size`` samples of `samples` (oldest first) as linear power per bin (a full-scale
    /// sine's bin reads 1; a bin's power summed over every bin is the signal's power × ``noiseBandwidth``); valid
    /// until the next call.
    package func powerSpectrum(_ samples: UnsafeBufferPointer<Float>) -> UnsafeBufferPointer<Float> {
        for index in 0..<size { input[index] = samples[index] * window[index] }
        plans.forward(input, into: output)
        for bin in 0..<binCount {
            let re = output[2 * bin] * scale, im = output[2 * bin + 1] * scale
            levels[bin] = re * re + im * im
        }
        return UnsafeBufferPointer(start: levels, count: binCount)
    }

    /// The Hann window's equivalent noise bandwidth, bins: a sine's power spreads over this many bins.
    package static let noiseBandwidth: Float = 1.5
}
