// Short-time power spectra through FFTW (single precision, real input): the feedback worker's and the analyser's FFT. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFFTW
import FoldbackDSP
#if canImport(Glibc)
import Glibc
#endif

/// A Hann-windowed real FFT of a fixed size with its FFTW plan and buffers, made once off the audio thread.
///
/// FFTW's planner is not thread-safe, so plans are made and destroyed under the process's one lock (`FFTWPlanner`); running
/// a plan (``powerSpectrumDB(_:)``) needs none. Levels are calibrated so a full-scale sine reads 0 dB.
package final class SpectrumAnalyzer {
    /// Transform size, frames.
    package let size: Int
    /// Bins in the spectrum (size / 2 + 1).
    package var binCount: Int { size / 2 + 1 }
    private let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<fftwf_complex>
    private let window: [Float]
    private let levels: UnsafeMutablePointer<Float>
    private let plan: fftwf_plan
    private let scale: Float

    /// An analyser of `size` frames (a power of two ≥ 64), or nil when FFTW cannot plan it.
    package init?(size: Int) {
        guard size >= 64, size & (size - 1) == 0 else { return nil }
        self.size = size
        let input = fftwf_alloc_real(size)!
        let output = fftwf_alloc_complex(size / 2 + 1)!
        nonisolated(unsafe) let buffers = (input, output)
        let address = FFTWPlanner.lock.withLock { _ in
            Int(bitPattern: fftwf_plan_dft_r2c_1d(Int32(size), buffers.0, buffers.1, UInt32(FFTW_ESTIMATE)))
        }
        guard let made = fftwf_plan(bitPattern: address) else {
            fftwf_free(input)
            fftwf_free(output)
            return nil
        }
        self.input = input
        self.output = output
        plan = made
        window = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        levels = .allocate(capacity: size / 2 + 1)
        levels.initialize(repeating: -200, count: size / 2 + 1)
        scale = 2 / window.reduce(0, +)         // a full-scale sine's bin reads 1
    }

    deinit {
        let address = Int(bitPattern: plan)
        FFTWPlanner.lock.withLock { _ in fftwf_destroy_plan(fftwf_plan(bitPattern: address)) }
        fftwf_free(input)
        fftwf_free(output)
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
        fftwf_execute(plan)
        let raw = UnsafeMutableRawPointer(output).assumingMemoryBound(to: Float.self)
        for bin in 0..<binCount {
            let re = raw[2 * bin] * scale, im = raw[2 * bin + 1] * scale
            levels[bin] = re * re + im * im
        }
        return UnsafeBufferPointer(start: levels, count: binCount)
    }

    /// The Hann window's equivalent noise bandwidth, bins: a sine's power spreads over this many bins.
    package static let noiseBandwidth: Float = 1.5
}
