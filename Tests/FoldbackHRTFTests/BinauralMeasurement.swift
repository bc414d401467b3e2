// Measurements for the binaural tests: rendering a click, ⅓-octave band levels, interaural time difference, notch depth.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFFTW
import FoldbackDSP
import FoldbackHRTF
import Foundation

enum BinauralMeasurement {
    /// The Debian KEMAR set's path.
    static let kemar = SOFALoader.defaultPath

    /// The ⅓-octave band centres from 100 Hz to 16 kHz.
    static let bandCentres: [Double] = (-10...12).map { 1000 * pow(2, Double($0) / 3) }

    /// `source`'s response to a unit click, `frames` long: (left, right).
    static func click(through source: inout BinauralSource, frames: Int) -> (left: [Float], right: [Float]) {
        var input = [Float](repeating: 0, count: frames)
        input[0] = 1
        return render(&source, input: input, blockSize: frames)
    }

    /// `input` through `source` in blocks of `blockSize`, calling `between(frame, &source)` before each block.
    static func render(
        _ source: inout BinauralSource, input: [Float], blockSize: Int, between: (Int, inout BinauralSource) -> Void = { _, _ in }
    ) -> (left: [Float], right: [Float]) {
        var left = [Float](repeating: 0, count: input.count), right = left
        var frame = 0
        while frame < input.count {
            let count = min(blockSize, input.count - frame)
            between(frame, &source)
            input.withUnsafeBufferPointer { inputs in
                left.withUnsafeMutableBufferPointer { l in
                    right.withUnsafeMutableBufferPointer { r in
                        source.process(input: inputs.baseAddress! + frame, left: l.baseAddress! + frame, right: r.baseAddress! + frame, frames: count)
                    }
                }
            }
            frame += count
        }
        return (left, right)
    }

    /// Power spectrum of `signal` zero-padded to `size`, bins 0…size/2 (FFTW).
    static func powerSpectrum(_ signal: ArraySlice<Float>, size: Int = 8192) -> [Double] {
        let input = fftwf_alloc_real(size)!, output = fftwf_alloc_complex(size / 2 + 1)!
        defer {
            fftwf_free(input)
            fftwf_free(output)
        }
        let plan = fftwf_plan_dft_r2c_1d(Int32(size), input, output, UInt32(FFTW_ESTIMATE))
        defer { fftwf_destroy_plan(plan) }
        for index in 0..<size { input[index] = index < signal.count ? signal[signal.startIndex + index] : 0 }
        fftwf_execute(plan)
        return (0...(size / 2)).map { Double(output[$0].0 * output[$0].0 + output[$0].1 * output[$0].1) }
    }

    /// ⅓-octave band levels of `signal`, dB, at ``bandCentres``.
    static func bandLevels(_ signal: ArraySlice<Float>, sampleRate: Double, size: Int = 8192) -> [Double] {
        let power = powerSpectrum(signal, size: size)
        return bandCentres.map { centre in
            let low = centre * pow(2, -1.0 / 6), high = centre * pow(2, 1.0 / 6)
            var sum = 0.0
            for bin in power.indices {
                let frequency = Double(bin) * sampleRate / Double(size)
                if frequency >= low && frequency < high { sum += power[bin] }
            }
            return 10 * log10(sum + 1e-30)
        }
    }

    /// The lag (right − left, seconds; positive when the left ear leads) of the interaural cross-correlation peak,
    /// within ±1 ms, refined by a parabola through the peak and its neighbours.
    static func itd(left: ArraySlice<Float>, right: ArraySlice<Float>, sampleRate: Double) -> Double {
        let l = Array(left).map(Double.init), r = Array(right).map(Double.init)
        let maxLag = Int(0.001 * sampleRate)
        func correlation(_ lag: Int) -> Double {
            var sum = 0.0
            for index in l.indices where index + lag >= 0 && index + lag < r.count { sum += l[index] * r[index + lag] }
            return sum
        }
        let values = (-maxLag...maxLag).map(correlation)
        let peak = values.indices.max { values[$0] < values[$1] }!
        var offset = 0.0
        if peak > 0 && peak < values.count - 1 {
            let (a, b, c) = (values[peak - 1], values[peak], values[peak + 1])
            let denominator = a - 2 * b + c
            if denominator != 0 { offset = 0.5 * (a - c) / denominator }
        }
        return (Double(peak - maxLag) + offset) / sampleRate
    }

    /// The deepest point of `signal`'s spectrum between 1 and 16 kHz relative to its mean level there, dB (≤ 0).
    static func deepestNotch(_ signal: ArraySlice<Float>, sampleRate: Double) -> Double {
        let size = 1024
        let power = powerSpectrum(signal, size: size)
        let bins = power.indices.filter { bin in
            let frequency = Double(bin) * sampleRate / Double(size)
            return frequency >= 1000 && frequency <= 16000
        }
        let mean = bins.reduce(0.0) { $0 + power[$1] } / Double(bins.count)
        return 10 * log10(bins.map { power[$0] }.min()! / mean)
    }
}
