// FFTW real-FFT plan pairs made once per size under the process's one planner lock, run on caller-owned aligned buffers. Non-realtime to make; run realtime-safe.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFFTW
public import Synchronization

/// FFTW's planner (making and destroying plans) is not thread-safe; running a plan is. Every plan in the process is
/// made and destroyed under ``lock``.
public enum FFTWPlanner {
    /// The one lock around FFTW's planner.
    public static let lock = Mutex(())
}

/// A forward (real → half complex) and inverse FFT of one size, planned once per process and never destroyed.
///
/// Executed with FFTW's new-array functions on any buffers from ``allocateReal(_:)`` / ``allocateComplex(_:)`` (so
/// their alignment matches the planning arrays'): no allocation, no lock, safe on the audio thread. The inverse is
/// unnormalised (a forward then inverse transform scales by ``size``) and overwrites its input.
public final class RealFFTPlans: @unchecked Sendable {
    /// Transform size, frames.
    public let size: Int
    private let forward: fftwf_plan
    private let inverse: fftwf_plan
    nonisolated(unsafe) private static var made: [Int: RealFFTPlans] = [:]

    /// The plans of transforms of `size` frames (made on first use, under ``FFTWPlanner/lock``; never on the audio thread).
    public static func plans(size: Int) -> RealFFTPlans {
        FFTWPlanner.lock.withLock { _ in
            if let plans = made[size] { return plans }
            let plans = RealFFTPlans(size: size)
            made[size] = plans
            return plans
        }
    }

    private init(size: Int) {
        self.size = size
        let real = fftwf_alloc_real(size)!, complex = fftwf_alloc_complex(size / 2 + 1)!
        forward = fftwf_plan_dft_r2c_1d(Int32(size), real, complex, UInt32(FFTW_ESTIMATE))!
        inverse = fftwf_plan_dft_c2r_1d(Int32(size), complex, real, UInt32(FFTW_ESTIMATE))!
        fftwf_free(real)
        fftwf_free(complex)
    }

    /// `count` zeroed floats aligned as FFTW plans expect (free with ``free(_:)``).
    public static func allocateReal(_ count: Int) -> UnsafeMutablePointer<Float> {
        let memory = fftwf_alloc_real(count)!
        memory.initialize(repeating: 0, count: count)
        return memory
    }

    /// `count` zeroed complex values (interleaved re, im floats) aligned as FFTW plans expect (free with ``free(_:)``).
    public static func allocateComplex(_ count: Int) -> UnsafeMutablePointer<Float> {
        allocateReal(2 * count)
    }

    /// Frees memory from ``allocateReal(_:)`` or ``allocateComplex(_:)``.
    public static func free(_ memory: UnsafeMutablePointer<Float>) {
        fftwf_free(memory)
    }

    /// The half spectrum (``size`` / 2 + 1 interleaved complex values) of ``size`` real frames (realtime-safe).
    @inline(__always)
    public func forward(_ input: UnsafeMutablePointer<Float>, into spectrum: UnsafeMutablePointer<Float>) {
        spectrum.withMemoryRebound(to: fftwf_complex.self, capacity: size / 2 + 1) { fftwf_execute_dft_r2c(forward, input, $0) }
    }

    /// ``size`` real frames (× ``size``) of a half spectrum, which it overwrites (realtime-safe).
    @inline(__always)
    public func inverse(_ spectrum: UnsafeMutablePointer<Float>, into output: UnsafeMutablePointer<Float>) {
        spectrum.withMemoryRebound(to: fftwf_complex.self, capacity: size / 2 + 1) { fftwf_execute_dft_c2r(inverse, $0, output) }
    }
}
