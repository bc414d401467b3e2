// Test helpers for the EQ: run an EQKernel over whole signals in blocks, and measure spectra with an FFT.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import Foundation

enum EQMeasurement {
    /// Runs `kernel` over `channels` (one array per kernel channel, equal lengths) in blocks of `blockSize`;
    /// `beforeBlock(startFrame)` may change parameters first.
    static func render(
        _ kernel: inout EQKernel, _ channels: [[Float]], blockSize: Int, beforeBlock: (inout EQKernel, Int) -> Void = { _, _ in }
    ) -> [[Float]] {
        let frames = channels[0].count
        let inputs = channels.map { samples -> UnsafeMutablePointer<Float> in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(frames, 1))
            buffer.initialize(from: samples, count: frames)
            return buffer
        }
        let outputs = channels.map { _ in UnsafeMutablePointer<Float>.allocate(capacity: max(frames, 1)) }
        defer {
            inputs.forEach { $0.deallocate() }
            outputs.forEach { $0.deallocate() }
        }
        var inputPointers = inputs.map { UnsafePointer($0) }
        var outputPointers = outputs
        var offset = 0
        while offset < frames {
            let count = min(blockSize, frames - offset)
            beforeBlock(&kernel, offset)
            for channel in channels.indices {
                inputPointers[channel] = UnsafePointer(inputs[channel] + offset)
                outputPointers[channel] = outputs[channel] + offset
            }
            inputPointers.withUnsafeBufferPointer { ins in
                outputPointers.withUnsafeBufferPointer { outs in
                    kernel.process(inputs: ins.baseAddress!, outputs: outs.baseAddress!, frames: count)
                }
            }
            offset += count
        }
        return outputs.map { Array(UnsafeBufferPointer(start: $0, count: frames)) }
    }

    /// The mono impulse response of `bands` at `sampleRate`, `length` samples long.
    static func impulseResponse(_ bands: [EQBand], sampleRate: Double, length: Int, outputGainDB: Double = 0) -> [Float] {
        var kernel = EQKernel(bands: bands, outputGainDB: outputGainDB, channels: 1, sampleRate: sampleRate)
        var impulse = [Float](repeating: 0, count: length)
        impulse[0] = 1
        return render(&kernel, [impulse], blockSize: 1024)[0]
    }

    /// |X[k]| for k = 0 … N/2 of a real signal whose length N is a power of two (iterative radix-2 FFT).
    static func magnitudeSpectrum(_ signal: [Float]) -> [Double] {
        let count = signal.count
        precondition(count > 1 && count & (count - 1) == 0, "FFT length must be a power of two")
        var real = signal.map(Double.init)
        var imaginary = [Double](repeating: 0, count: count)
        real.withUnsafeMutableBufferPointer { re in
            imaginary.withUnsafeMutableBufferPointer { im in
                var j = 0
                for i in 1..<count {          // bit-reversal permutation
                    var bit = count >> 1
                    while j & bit != 0 { j ^= bit; bit >>= 1 }
                    j |= bit
                    if i < j { re.swapAt(i, j); im.swapAt(i, j) }
                }
                var size = 2
                while size <= count {
                    let angle = -2 * Double.pi / Double(size)
                    let (stepRe, stepIm) = (cos(angle), sin(angle))
                    var start = 0
                    while start < count {
                        var (wRe, wIm) = (1.0, 0.0)
                        for k in 0..<(size / 2) {
                            let a = start + k, b = a + size / 2
                            let tRe = re[b] * wRe - im[b] * wIm
                            let tIm = re[b] * wIm + im[b] * wRe
                            re[b] = re[a] - tRe; im[b] = im[a] - tIm
                            re[a] += tRe; im[a] += tIm
                            (wRe, wIm) = (wRe * stepRe - wIm * stepIm, wRe * stepIm + wIm * stepRe)
                        }
                        start += size
                    }
                    size *= 2
                }
            }
        }
        return (0...(count / 2)).map { (real[$0] * real[$0] + imaginary[$0] * imaginary[$0]).squareRoot() }
    }

    /// The largest |x[n] − x[n−1]|.
    static func largestStep(_ signal: [Float]) -> Float {
        zip(signal.dropFirst(), signal).map { abs($0 - $1) }.max() ?? 0
    }

    /// A sine of `frequency` Hz and `amplitude`.
    static func sine(frequency: Double, sampleRate: Double, frames: Int, amplitude: Float = 0.5) -> [Float] {
        (0..<frames).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / sampleRate)) }
    }

    /// Reproducible white noise in ±`amplitude`.
    static func noise(frames: Int, seed: UInt64 = 1, amplitude: Float = 0.5) -> [Float] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<frames).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return amplitude * (Float(state >> 40) / Float(1 << 24) * 2 - 1)
        }
    }

    /// The RMS level of `signal` in dB.
    static func rmsDB(_ signal: ArraySlice<Float>) -> Double {
        let power = signal.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(signal.count, 1))
        return 10 * log10(power)
    }
}
