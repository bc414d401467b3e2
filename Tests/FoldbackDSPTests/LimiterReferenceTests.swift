// LimiterKernel against LimiterReferenceModel: bit-identical samples and reduction readings on engaging signals.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import XCTest

final class LimiterReferenceTests: XCTestCase {
    /// A speech-like signal: syllables (noise plus a 150 Hz buzz under a raised-cosine envelope, 4–9 per second,
    /// random levels whose loudest reach `loudest`) between short pauses.
    private func speechLike(_ frames: Int, sampleRate: Double, loudest: Float, seed: UInt64) -> [Float] {
        let hiss = Dynamics.noise(frames, amplitude: 1, seed: seed)
        let buzz = Dynamics.sine(frames, frequency: 150, amplitude: 1, sampleRate: sampleRate)
        let levels = Dynamics.noise(64, amplitude: 1, seed: seed ^ 0x9E37)
        var output = [Float](repeating: 0, count: frames)
        var start = 0, syllable = 0
        while start < frames {
            let length = Int(sampleRate * (0.11 + 0.06 * Double(abs(levels[syllable % 64]))))
            let level = loudest * (0.25 + 0.75 * abs(levels[(syllable * 7 + 3) % 64]))
            for index in start..<min(frames, start + length) {
                let envelope = Float(0.5 - 0.5 * cos(2 * Double.pi * Double(index - start) / Double(length)))
                output[index] = level * envelope * (0.6 * buzz[index] + 0.4 * hiss[index])
            }
            start += length + Int(sampleRate * 0.04 * Double(syllable % 3))
            syllable += 1
        }
        return output
    }

    /// Bursts 5 ms long at +6 dB over full scale at 60 and 150 ms, then −30 dBFS noise: tails that run out.
    private func bursty(_ frames: Int, sampleRate: Double, seed: UInt64) -> [Float] {
        var output = Dynamics.noise(frames, amplitude: 0.03, seed: seed)
        for start in [Dynamics.frames(0.06, sampleRate), Dynamics.frames(0.15, sampleRate)] {
            for index in start..<min(frames, start + Dynamics.frames(0.005, sampleRate)) { output[index] *= 66 }
        }
        return output
    }

    private struct Case {
        let name: String
        let ceilingDB: Float
        let releaseMs: Float
        /// Ceiling changes (frame, dB), applied before the block holding that frame.
        var changes: [(frame: Int, ceilingDB: Float)] = []
        let signal: (_ frames: Int, _ sampleRate: Double, _ seed: UInt64) -> [Float]
    }

    private var cases: [Case] {
        [
            Case(name: "speech −1 dB 50 ms", ceilingDB: -1, releaseMs: 50) { [self] in speechLike($0, sampleRate: $1, loudest: 1.8, seed: $2) },
            Case(name: "noise −6 dB 5 ms", ceilingDB: -6, releaseMs: 5) { frames, _, seed in Dynamics.noise(frames, amplitude: 0.7, seed: seed) },
            Case(name: "bursty 0 dB 50 ms", ceilingDB: 0, releaseMs: 50) { [self] in bursty($0, sampleRate: $1, seed: $2) },
            Case(name: "bursty −1 dB 500 ms", ceilingDB: -1, releaseMs: 500) { [self] in bursty($0, sampleRate: $1, seed: $2) },
            Case(name: "speech, ceiling moves, NaN/inf", ceilingDB: -3, releaseMs: 20, changes: [(9000, -9), (23000, -2), (30000, -4)]) {
                [self] frames, sampleRate, seed in
                var samples = speechLike(frames, sampleRate: sampleRate, loudest: 2.5, seed: seed)
                samples[frames / 5] = .nan
                samples[frames / 3] = .infinity
                samples[frames / 2] = -.infinity
                return samples
            },
        ]
    }

    /// Every case at 44.1, 48 and 96 kHz, mono and stereo, lookahead 0 and 1.5 ms, in blocks of 1, 7, 253 and
    /// 1024 (in place for 253): every output sample and every block's reduction reading is the reference's, bit for bit.
    func testKernelMatchesTheReferenceBitForBit() {
        for sampleRate in [44100.0, 48000, 96000] {
            let frames = Dynamics.frames(0.9, sampleRate)
            for item in cases {
                for channels in [1, 2] {
                    let signal = (0..<channels).map { item.signal(frames, sampleRate, 0x5EED + UInt64($0)) }
                    for lookaheadMs: Float in [0, 1.5] {
                        let label = "\(item.name), \(sampleRate) Hz, \(channels) ch, lookahead \(lookaheadMs) ms"
                        var expected = render(item, signal, sampleRate, lookaheadMs, blockSize: 1, reference: true)
                        XCTAssertGreaterThan(expected.readings.max()!, 1, "\(label): the limiter engages by more than 1 dB")
                        for blockSize in [1, 7, 253, 1024] {
                            if !item.changes.isEmpty {   // (where a change lands depends on the block size)
                                expected = render(item, signal, sampleRate, lookaheadMs, blockSize: blockSize, reference: true)
                            }
                            let actual = render(item, signal, sampleRate, lookaheadMs, blockSize: blockSize, reference: false)
                            for channel in 0..<channels {
                                let output = actual.output[channel], wanted = expected.output[channel]
                                let differing = output.indices.first { output[$0].bitPattern != wanted[$0].bitPattern }
                                XCTAssertNil(differing, "\(label), block \(blockSize), channel \(channel): first differing frame")
                            }
                            let depths = expected.depths   // the reference works frame by frame: its block readings are maxima
                            let readings = stride(from: 0, to: frames, by: blockSize).map {
                                LimiterReferenceModel.reading(depth: depths[$0..<min($0 + blockSize, frames)].max()!)
                            }
                            XCTAssertEqual(actual.readings.map(\.bitPattern), readings.map(\.bitPattern), "\(label), block \(blockSize): readings")
                        }
                    }
                }
            }
        }
    }

    /// The kernel's or the reference's output for `item`, in blocks of `blockSize` (the kernel in place for 253),
    /// with the reduction reading after each block and (the reference's) each frame's 1 − gain.
    private func render(
        _ item: Case, _ signal: [[Float]], _ sampleRate: Double, _ lookaheadMs: Float, blockSize: Int, reference: Bool
    ) -> (output: [[Float]], readings: [Float], depths: [Float]) {
        func run<Kernel: BlockKernel>(_ kernel: inout Kernel, update: (inout Kernel, Float) -> Void, reading: (Kernel) -> Float) -> ([[Float]], [Float]) {
            var readings: [Float] = [], pending = item.changes[...]   // (in frame order)
            let output = Dynamics.render(&kernel, signal, blockSize: blockSize, inPlace: !reference && blockSize == 253) { kernel, start in
                if start > 0 { readings.append(reading(kernel)) }
                if let change = pending.first, change.frame < start + blockSize {
                    update(&kernel, change.ceilingDB)
                    pending.removeFirst()
                }
            }
            return (output, readings + [reading(kernel)])
        }
        if reference {
            var model = LimiterReferenceModel(
                sampleRate: sampleRate, channels: signal.count, ceilingDB: item.ceilingDB, lookaheadMs: lookaheadMs, releaseMs: item.releaseMs)
            let (output, readings) = run(&model, update: { $0.update(ceilingDB: $1, releaseMs: item.releaseMs) }, reading: { $0.gainReductionDB })
            return (output, readings, model.depths)
        }
        var kernel = LimiterKernel(
            sampleRate: sampleRate, channels: signal.count, ceilingDB: item.ceilingDB, lookaheadMs: lookaheadMs, releaseMs: item.releaseMs)
        defer { kernel.deallocate() }
        let (output, readings) = run(&kernel, update: { $0.update(ceilingDB: $1, releaseMs: item.releaseMs) }, reading: { $0.gainReductionDB })
        return (output, readings, [])
    }
}
