// Silence gating: bursts separated by gaps of exact silence render bit-identically gated and not, and gating skips units.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class SilenceGatingTests: XCTestCase {
    /// Two strips (a mono vocal: EQ, compressor, gain; a stereo keys strip: reverb, echo) into two buses
    /// (stereo main: EQ, reverb, limiter; mono wedge: compressor, gain, limiter). Units are new for each call.
    private func chain(gating: Bool) -> GraphDescription {
        let eq = { EQUnit(bands: [EQBand(type: .peak, frequency: 2500, gainDB: 6, q: 1.2), EQBand(type: .highPass, frequency: 90, q: 0.7)]) }
        let short = ReverbParameters(decay: 0.4, predelay: 10, size: 0.3, mix: 0.3)
        var graph = GraphDescription(
            strips: [
                StripDescription(
                    name: "vox", channels: 1, units: [eq(), CompressorUnit(), GainUnit(gainDB: -3)],
                    sends: [SendDescription(bus: 0), SendDescription(bus: 1, gainDB: -6)]),
                StripDescription(
                    name: "keys", channels: 2, units: [ReverbUnit(settings: short), EchoUnit(settings: EchoParameters(time: 60, feedback: 10))],
                    sends: [SendDescription(bus: 0), SendDescription(bus: 1, gainDB: -6)]),
            ],
            buses: [
                BusDescription(name: "main", channels: 2, limiter: LimiterSettings(ceilingDB: -6), units: [eq(), ReverbUnit(settings: short)]),
                BusDescription(name: "wedge", channels: 1, limiter: LimiterSettings(ceilingDB: -3), units: [CompressorUnit(), GainUnit(gainDB: 2)]),
            ])
        graph.isGatingEnabled = gating
        return graph
    }

    /// Bursts of noise `burstSeconds` long, each followed by `gapSeconds` of exact zeros (both strips play; the
    /// keys strip's bursts start later, so one strip sounds while the other is silent).
    private func bursts(sampleRate: Double, bursts: Int, burstSeconds: Double, gapSeconds: Double) -> [[Float]] {
        let burst = TestSignal.frames(seconds: burstSeconds, sampleRate: sampleRate)
        let gap = TestSignal.frames(seconds: gapSeconds, sampleRate: sampleRate)
        let noise = TestSignal.noise(frames: burst, seed: 7, amplitude: 0.6)
        var vox: [Float] = [], keys: [Float] = []
        for index in 0..<bursts {
            vox += noise + [Float](repeating: 0, count: gap)
            let lag = min(gap / 2, 1000 + 37 * index)
            keys += [Float](repeating: 0, count: lag) + noise.map { $0 * 0.5 } + [Float](repeating: 0, count: gap - lag)
        }
        return [vox, keys, keys.map { $0 == 0 ? 0 : -$0 }]   // +0.0 in the gaps: −0.0 counts as sound
    }

    private func render(gating: Bool, input: [[Float]], sampleRate: Double, blockSize: Int) throws -> (output: [[Float]], meters: [Float], gated: [Int]) {
        let host = OfflineEngine(maxFrames: 1024, inputs: 3, outputs: 3)
        let graph = try host.install(chain(gating: gating), sampleRate: sampleRate)
        var meters: [Float] = []
        func readMeters() {
            let snapshot = host.engine.meters()
            meters += (snapshot.strips + snapshot.buses).flatMap { [$0.reading.peak, $0.reading.rms] }
                + snapshot.units.flatMap { $0.readings.map(\.value) }
        }
        let every = max(1, 4096 / blockSize)   // the meters as a page would read them, every ~85 ms
        let output = host.render(input, blockSize: blockSize) { cycle, _ in
            if cycle % every == 0 { readMeters() }
        }
        readMeters()
        return (output, meters, graph.gatedUnitChunks)
    }

    func testBurstsAndSilenceRenderBitIdenticallyGatedAndNot() throws {
        for sampleRate in [48000.0, 44100] {
            for blockSize in [1, 7, 253, 1024] where !(blockSize == 1 && sampleRate != 48000) {
                let input = bursts(sampleRate: sampleRate, bursts: 3, burstSeconds: 0.3, gapSeconds: 9)
                let gated = try render(gating: true, input: input, sampleRate: sampleRate, blockSize: blockSize)
                let plain = try render(gating: false, input: input, sampleRate: sampleRate, blockSize: blockSize)
                let label = "\(sampleRate) Hz, block \(blockSize)"
                XCTAssertEqual(plain.gated.reduce(0, +), 0, "gating = false skips nothing, \(label)")
                for channel in 0..<3 {
                    let differing = zip(gated.output[channel], plain.output[channel]).enumerated().first { $0.element.0.bitPattern != $0.element.1.bitPattern }
                    XCTAssertNil(differing, "output \(channel) differs at frame \(differing?.offset ?? -1), \(label)")
                    XCTAssertGreaterThan(plain.output[channel].map(abs).max() ?? 0, 0.01, "output \(channel) carries the bursts, \(label)")
                }
                XCTAssertEqual(gated.meters.map(\.bitPattern), plain.meters.map(\.bitPattern), "meters, \(label)")
                // Units skipped during the gaps (run-list order: main EQ, reverb; wedge compressor, gain; vox EQ,
                // compressor, gain; keys reverb, echo): all but the echo, whose loop filter and ducker take longer than
                // a gap to reach exact zero at some block sizes (it gates when they do; its output is identical either way).
                let skipped = gated.gated
                for (index, count) in skipped.enumerated().dropLast() { XCTAssertGreaterThan(count, 0, "unit \(index) gated, \(label): \(skipped)") }
            }
        }
    }

    /// A strip at rest is skipped in every chunk of a long silence, and the first non-zero sample, even the last
    /// of a chunk, is processed in that chunk: a lone impulse after the silence comes out the same gated and not.
    func testAStripAtRestSkipsItsUnitsAndWakesOnTheFirstSample() throws {
        let sampleRate = 48000.0
        for blockSize in [7, 253, 1024] {
            let silent = blockSize * 40
            var vox = [Float](repeating: 0, count: silent + max(blockSize * 4, 4800))
            vox[silent + blockSize - 1] = 0.5
            let input = [vox, [Float](repeating: 0, count: vox.count), [Float](repeating: 0, count: vox.count)]
            let gated = try render(gating: true, input: input, sampleRate: sampleRate, blockSize: blockSize)
            let plain = try render(gating: false, input: input, sampleRate: sampleRate, blockSize: blockSize)
            for channel in 0..<3 {
                XCTAssertEqual(gated.output[channel].map(\.bitPattern), plain.output[channel].map(\.bitPattern), "output \(channel), block \(blockSize)")
            }
            XCTAssertGreaterThan(plain.output[0].map(abs).max() ?? 0, 0, "the impulse comes out")
            // Every unit runs on nothing but zeros for the first 40 chunks: skipped in all but an EQ's first (it plans
            // its sections then).
            XCTAssertEqual(gated.gated.map { min($0, 40) }, [39, 40, 40, 40, 39, 40, 40, 40, 40], "block \(blockSize)")
        }
    }
}
