// Minimum-phase HRIRs made from a (blended) folded cepstrum, with a band-limited fractional delay. Realtime-safe after init.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a folded, liftered real cepstrum (``HRIRSet``'s per-response data, or a weighted sum of several: the
/// interpolation of their log-magnitude spectra) into the minimum-phase response with that magnitude, delayed by
/// ``HRIRSet/preRoll`` frames plus a fraction of a frame in the frequency domain (flat to Nyquist, unlike a short
/// Lagrange filter, so a fractional delay cannot deepen a notch near 16 kHz). Two real FFTs of
/// ``HRIRSet/transformSize`` frames and one `exp`/`sin`/`cos` per bin; no allocation after `init`; call
/// ``deallocate()`` once.
public struct HRIRSynthesis: @unchecked Sendable {
    /// Cepstral coefficients per response (the set's ``HRIRSet/length``).
    let length: Int
    /// Frames written by ``synthesize(fraction:gain:)``: ``length`` + ``HRIRSet/preRoll``.
    public let outputLength: Int
    let plans: RealFFTPlans
    /// The blended cepstrum, ``length`` coefficients (callers add into it, ``clear()`` zeroes it).
    let cepstrum: UnsafeMutablePointer<Float>
    /// The synthesized response, ``outputLength`` frames.
    public let output: UnsafeMutablePointer<Float>
    let time: UnsafeMutablePointer<Float>
    let spectrum: UnsafeMutablePointer<Float>

    /// A synthesizer for responses of `length` coefficients through transforms of `transformSize` frames.
    public init(length: Int, transformSize: Int) {
        self.length = length
        outputLength = length + HRIRSet.preRoll
        plans = RealFFTPlans.plans(size: transformSize)
        cepstrum = .allocate(capacity: length)
        cepstrum.initialize(repeating: 0, count: length)
        output = .allocate(capacity: outputLength)
        output.initialize(repeating: 0, count: outputLength)
        time = RealFFTPlans.allocateReal(transformSize)
        spectrum = RealFFTPlans.allocateComplex(transformSize / 2 + 1)
    }

    /// Frees the buffers. Call once.
    public func deallocate() {
        cepstrum.deallocate()
        output.deallocate()
        RealFFTPlans.free(time)
        RealFFTPlans.free(spectrum)
    }

    /// Zeroes the blended cepstrum.
    func clear() {
        cepstrum.update(repeating: 0, count: length)
    }

    /// Adds `weight` × the cepstrum at `source` (``length`` coefficients) to the blend.
    func add(_ source: UnsafePointer<Float>, weight: Float) {
        for index in 0..<length { cepstrum[index] += weight * source[index] }
    }

    /// Fills ``output`` with the minimum-phase response of the blended cepstrum, × `gain`, delayed by
    /// ``HRIRSet/preRoll`` + `fraction` frames, its last ``HRIRSet/tailFade`` frames faded out (realtime-safe).
    func synthesize(fraction: Float, gain: Float) {
        let size = plans.size
        time.update(from: cepstrum, count: length)
        (time + length).update(repeating: 0, count: size - length)
        plans.forward(time, into: spectrum)
        let step = -2 * Float.pi * (Float(HRIRSet.preRoll) + fraction) / Float(size)
        for bin in 0...(size / 2) {
            let magnitude = exp(spectrum[2 * bin])
            let phase = spectrum[2 * bin + 1] + step * Float(bin)
            spectrum[2 * bin] = magnitude * cos(phase)
            spectrum[2 * bin + 1] = magnitude * sin(phase)
        }
        plans.inverse(spectrum, into: time)
        let scale = gain / Float(size)
        let fadeStart = outputLength - HRIRSet.tailFade
        for frame in 0..<outputLength {
            var value = time[frame] * scale
            if frame >= fadeStart {
                value *= 0.5 * (1 + cos(Float.pi * Float(frame - fadeStart + 1) / Float(HRIRSet.tailFade + 1)))
            }
            output[frame] = value
        }
    }
}
