// Test harness for the reverb: rendering in blocks, Schroeder RT60, correlation, band filters, echo density. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import Foundation

enum ReverbMeasurement {
    /// Renders `left` (and `right`, or the same signal for a mono input) through `kernel` in blocks of
    /// `blockSize`; `beforeBlock(frame, &kernel)` runs before each block (to change parameters).
    static func render(
        _ kernel: inout ReverbKernel, left: [Float], right: [Float]? = nil, blockSize: Int,
        beforeBlock: (_ frame: Int, _ kernel: inout ReverbKernel) -> Void = { _, _ in }
    ) -> (left: [Float], right: [Float]) {
        let frames = left.count
        var outputLeft = [Float](repeating: .nan, count: frames)
        var outputRight = [Float](repeating: .nan, count: frames)
        let inputRight = right ?? left
        left.withUnsafeBufferPointer { inLeft in
            inputRight.withUnsafeBufferPointer { inRight in
                outputLeft.withUnsafeMutableBufferPointer { outLeft in
                    outputRight.withUnsafeMutableBufferPointer { outRight in
                        var offset = 0
                        while offset < frames {
                            let count = min(blockSize, frames - offset)
                            beforeBlock(offset, &kernel)
                            kernel.process(
                                left: inLeft.baseAddress! + offset, right: (right == nil ? inLeft : inRight).baseAddress! + offset,
                                outputLeft: outLeft.baseAddress! + offset, outputRight: outRight.baseAddress! + offset, frames: count)
                            offset += count
                        }
                    }
                }
            }
        }
        return (outputLeft, outputRight)
    }

    /// Renders through a new kernel with `parameters`.
    static func render(
        _ parameters: ReverbParameters, sampleRate: Double = 48000, left: [Float], right: [Float]? = nil, blockSize: Int = 253
    ) -> (left: [Float], right: [Float]) {
        var kernel = ReverbKernel(parameters: parameters, sampleRate: sampleRate)
        return render(&kernel, left: left, right: right, blockSize: blockSize)
    }

    /// The wet stereo impulse response (mix 1) of `parameters`, `seconds` long.
    static func impulseResponse(_ parameters: ReverbParameters, sampleRate: Double, seconds: Double) -> (left: [Float], right: [Float]) {
        var settings = parameters
        settings.mix = 1
        return render(settings, sampleRate: sampleRate, left: impulse(frames: Int(seconds * sampleRate)), blockSize: 1024)
    }

    static func impulse(frames: Int, at index: Int = 0) -> [Float] {
        var signal = [Float](repeating: 0, count: frames)
        signal[index] = 1
        return signal
    }

    /// RT60 in seconds by Schroeder backward integration of the summed energy of `channels`: a least-squares
    /// line through the decay curve between −5 and −35 dB (T30), extrapolated to 60 dB.
    static func reverberationTime(_ channels: [[Float]], sampleRate: Double) -> Double {
        let frames = channels[0].count
        var energy = [Double](repeating: 0, count: frames)
        for channel in channels { for frame in 0..<frames { energy[frame] += Double(channel[frame]) * Double(channel[frame]) } }
        var remaining = [Double](repeating: 0, count: frames)
        var sum = 0.0
        for frame in stride(from: frames - 1, through: 0, by: -1) {
            sum += energy[frame]
            remaining[frame] = sum
        }
        let total = remaining[0]
        var times: [Double] = [], levels: [Double] = []
        for frame in 0..<frames {
            let level = 10 * log10(remaining[frame] / total)
            if level <= -5 && level >= -35 {
                times.append(Double(frame) / sampleRate)
                levels.append(level)
            }
        }
        let meanTime = times.reduce(0, +) / Double(times.count)
        let meanLevel = levels.reduce(0, +) / Double(levels.count)
        var covariance = 0.0, variance = 0.0
        for index in times.indices {
            covariance += (times[index] - meanTime) * (levels[index] - meanLevel)
            variance += (times[index] - meanTime) * (times[index] - meanTime)
        }
        return -60 / (covariance / variance)
    }

    /// Normalised cross-correlation at lag 0.
    static func correlation(_ a: [Float], _ b: [Float]) -> Double {
        var ab = 0.0, aa = 0.0, bb = 0.0
        for index in a.indices {
            ab += Double(a[index]) * Double(b[index])
            aa += Double(a[index]) * Double(a[index])
            bb += Double(b[index]) * Double(b[index])
        }
        return ab / (aa * bb).squareRoot()
    }

    static func energy(_ signal: [Float]) -> Double { signal.reduce(0) { $0 + Double($1) * Double($1) } }

    /// `signal` through an RBJ band-pass (constant 0 dB peak) at `frequency` Hz with quality `q`.
    static func bandPass(_ signal: [Float], frequency: Double, q: Double, sampleRate: Double) -> [Float] {
        let omega = 2 * Double.pi * frequency / sampleRate
        let alpha = sin(omega) / (2 * q)
        let a0 = 1 + alpha
        return biquad(signal, b: [alpha / a0, 0, -alpha / a0], a: [-2 * cos(omega) / a0, (1 - alpha) / a0])
    }

    /// `signal` through an RBJ low-pass (Butterworth Q) at `frequency` Hz.
    static func lowPass(_ signal: [Float], frequency: Double, sampleRate: Double) -> [Float] {
        let omega = 2 * Double.pi * frequency / sampleRate
        let alpha = sin(omega) / (2 * 0.5.squareRoot())
        let a0 = 1 + alpha, cosine = cos(omega)
        return biquad(signal, b: [(1 - cosine) / 2 / a0, (1 - cosine) / a0, (1 - cosine) / 2 / a0], a: [-2 * cosine / a0, (1 - alpha) / a0])
    }

    private static func biquad(_ signal: [Float], b: [Double], a: [Double]) -> [Float] {
        var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
        return signal.map { sample in
            let x = Double(sample)
            let y = b[0] * x + b[1] * x1 + b[2] * x2 - a[0] * y1 - a[1] * y2
            x2 = x1; x1 = x; y2 = y1; y1 = y
            return Float(y)
        }
    }

    /// Abel & Huang's normalised echo density over `range`: the fraction of samples beyond one standard
    /// deviation of their window (`window` samples, centred), divided by Gaussian noise's 0.3173. Near 1
    /// for a diffuse tail, near 0 for sparse echoes.
    static func echoDensity(_ signal: [Float], range: Range<Int>, window: Int) -> Double {
        var total = 0.0
        var windows = 0
        for start in stride(from: range.lowerBound, to: range.upperBound - window, by: window / 2) {
            let slice = signal[start..<(start + window)]
            let deviation = (slice.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(window)).squareRoot()
            let outside = slice.filter { Double($0.magnitude) > deviation }.count
            total += Double(outside) / Double(window) / erfc(1 / 2.0.squareRoot())
            windows += 1
        }
        return total / Double(windows)
    }

    /// The largest |normalised autocorrelation| of `signal` over `lags`.
    static func strongestAutocorrelation(_ signal: [Float], lags: Range<Int>) -> Double {
        signal.withUnsafeBufferPointer { samples in
            let energy = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
            var strongest = 0.0
            for lag in lags {
                var sum: Float = 0
                for frame in 0..<(samples.count - lag) { sum += samples[frame] * samples[frame + lag] }
                strongest = max(strongest, abs(Double(sum) / energy))
            }
            return strongest
        }
    }

    /// Largest |x[n] − x[n−1]| from frame `start` on.
    static func largestStep(_ signal: [Float], from start: Int = 1) -> Float {
        var largest: Float = 0
        for frame in max(start, 1)..<signal.count { largest = max(largest, (signal[frame] - signal[frame - 1]).magnitude) }
        return largest
    }

    /// Index of the first sample that is not exactly 0.
    static func onset(_ signal: [Float]) -> Int? { signal.firstIndex { $0 != 0 } }
}
