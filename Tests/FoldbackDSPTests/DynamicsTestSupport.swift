// Test harness for the dynamics kernels (compressor, limiter): block rendering, test signals, level helpers.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import XCTest

/// A kernel with the house process signature that owns memory.
protocol BlockKernel {
    mutating func process(
        inputs: UnsafePointer<UnsafePointer<Float>>, outputs: UnsafePointer<UnsafeMutablePointer<Float>>, channels: Int, frames: Int)
    func deallocate()
}

extension CompressorKernel: BlockKernel {}
extension LimiterKernel: BlockKernel {}

enum Dynamics {
    /// Runs `kernel` over `input` (one array per channel) in blocks of `blockSize` frames, in place when
    /// `inPlace`; `beforeBlock(&kernel, startFrame)` runs before each block (to change parameters).
    static func render<Kernel: BlockKernel>(
        _ kernel: inout Kernel, _ input: [[Float]], blockSize: Int, inPlace: Bool = false,
        beforeBlock: (inout Kernel, Int) -> Void = { _, _ in }
    ) -> [[Float]] {
        let channels = input.count
        let frames = input[0].count
        let sources = input.map { samples -> UnsafeMutablePointer<Float> in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(frames, 1))
            buffer.initialize(from: samples, count: frames)
            return buffer
        }
        let destinations = inPlace ? sources : input.map { _ in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(frames, 1))
            buffer.initialize(repeating: .nan, count: max(frames, 1))
            return buffer
        }
        let sourceTable = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: channels)
        let destinationTable = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: channels)
        defer {
            sources.forEach { $0.deallocate() }
            if !inPlace { destinations.forEach { $0.deallocate() } }
            sourceTable.deallocate()
            destinationTable.deallocate()
        }
        var start = 0
        while start < frames {
            let count = min(blockSize, frames - start)
            beforeBlock(&kernel, start)
            for channel in 0..<channels {
                sourceTable[channel] = UnsafePointer(sources[channel] + start)
                destinationTable[channel] = destinations[channel] + start
            }
            kernel.process(inputs: sourceTable, outputs: destinationTable, channels: channels, frames: count)
            start += count
        }
        return destinations.map { Array(UnsafeBufferPointer(start: $0, count: frames)) }
    }

    /// Fails unless fresh kernels from `make(channels)` give the same output (within 1e-6) in blocks of 1, 7,
    /// 253 and 1024 frames, in place or not, as in blocks of 1024, for `input` in mono (its first channel) and as given.
    static func assertBlockSizeInvariance<Kernel: BlockKernel>(
        _ input: [[Float]], file: StaticString = #filePath, line: UInt = #line, make: (_ channels: Int) -> Kernel
    ) {
        for channels in Set([1, input.count]).sorted() {
            let signal = Array(input.prefix(channels))
            var reference = make(channels)
            defer { reference.deallocate() }
            let expected = render(&reference, signal, blockSize: 1024)
            for blockSize in [1, 7, 253, 1024] {
                for inPlace in [false, true] {
                    var kernel = make(channels)
                    defer { kernel.deallocate() }
                    let output = render(&kernel, signal, blockSize: blockSize, inPlace: inPlace)
                    for channel in 0..<channels {
                        let worst = zip(output[channel], expected[channel]).map { abs($0 - $1) }.max()!
                        XCTAssertLessThanOrEqual(worst, 1e-6, "\(channels) ch, block \(blockSize), in place \(inPlace)", file: file, line: line)
                    }
                }
            }
        }
    }

    /// `frames` frames of a sine of `amplitude` at `frequency` Hz, starting at phase 0.
    static func sine(_ frames: Int, frequency: Double = 997, amplitude: Float = 1, sampleRate: Double = 48000) -> [Float] {
        (0..<frames).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / sampleRate)) }
    }

    /// A square wave of `amplitude` at `frequency` Hz.
    static func square(_ frames: Int, frequency: Double, amplitude: Float, sampleRate: Double) -> [Float] {
        (0..<frames).map { (Double($0) * frequency / sampleRate).truncatingRemainder(dividingBy: 1) < 0.5 ? amplitude : -amplitude }
    }

    /// Deterministic uniform white noise in −amplitude…amplitude.
    static func noise(_ frames: Int, amplitude: Float = 1, seed: UInt64 = 0x2545_F491_4F6C_DD1D) -> [Float] {
        var state = seed
        return (0..<frames).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return amplitude * (Float(state >> 40) / Float(1 << 23) - 1)
        }
    }

    /// Seconds → frames at `sampleRate`.
    static func frames(_ seconds: Double, _ sampleRate: Double) -> Int { Int((seconds * sampleRate).rounded()) }

    /// Amplitude → dB (−∞ for 0).
    static func dB(_ amplitude: Float) -> Float { 20 * log10(amplitude) }

    /// The largest magnitude of `samples`.
    static func peak<Samples: Collection<Float>>(_ samples: Samples) -> Float { samples.reduce(0) { max($0, abs($1)) } }

    /// The largest |x[n] − x[n−1]| of `samples`.
    static func largestStep(_ samples: [Float]) -> Float {
        zip(samples.dropFirst(), samples).reduce(0) { max($0, abs($1.0 - $1.1)) }
    }
}
