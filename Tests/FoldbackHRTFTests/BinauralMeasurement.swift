// Measurements for the binaural tests: rendering a click, ⅓-octave band levels, interaural time difference, notch depth.
// SPDX-License-Identifier: GPL-3.0-or-later
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

    /// Power spectrum of `signal` zero-padded to `size` (a power of two), bins 0…size/2.
    static func powerSpectrum(_ signal: ArraySlice<Float>, size: Int = 8192) -> [Double] {
        var real = [Double](repeating: 0, count: size), imaginary = real
        for (index, value) in signal.prefix(size).enumerated() { real[index] = Double(value) }
        fft(&real, &imaginary)
        return (0...(size / 2)).map { real[$0] * real[$0] + imaginary[$0] * imaginary[$0] }
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

    /// How far `signal`'s spectrum falls below the quietest of `neighbours`' at any frequency from 1 to 16 kHz, dB
    /// (0 or less: never below them all; a new notch shows as a positive value).
    static func deepestDip(_ signal: ArraySlice<Float>, below neighbours: [ArraySlice<Float>], sampleRate: Double) -> Double {
        let size = 1024
        let power = powerSpectrum(signal, size: size)
        let others = neighbours.map { powerSpectrum($0, size: size) }
        var deepest = -Double.infinity
        for bin in power.indices {
            let frequency = Double(bin) * sampleRate / Double(size)
            guard frequency >= 1000 && frequency <= 16000 else { continue }
            let quietest = others.map { $0[bin] }.min()!
            deepest = max(deepest, 10 * log10(quietest / power[bin]))
        }
        return deepest
    }

    /// In-place radix-2 FFT.
    static func fft(_ real: inout [Double], _ imaginary: inout [Double]) {
        let count = real.count
        var j = 0
        for i in 1..<count {
            var bit = count >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j { real.swapAt(i, j); imaginary.swapAt(i, j) }
        }
        var length = 2
        while length <= count {
            let angle = -2 * Double.pi / Double(length)
            for start in stride(from: 0, to: count, by: length) {
                for k in 0..<(length / 2) {
                    let (wr, wi) = (cos(angle * Double(k)), sin(angle * Double(k)))
                    let (a, b) = (start + k, start + k + length / 2)
                    let tr = real[b] * wr - imaginary[b] * wi, ti = real[b] * wi + imaginary[b] * wr
                    real[b] = real[a] - tr; imaginary[b] = imaginary[a] - ti
                    real[a] += tr; imaginary[a] += ti
                }
            }
            length <<= 1
        }
    }
}
