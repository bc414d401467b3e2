// Silence gating around the units: silent strips' sends, delayed sends, return strips, bus limiters and meters, and the units gated since the first stage (geq, de-esser, RMS and lookahead compressors), gated vs not, bit for bit.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackTeam
import FoldbackDSP
import FoldbackEngine
import XCTest

final class SilenceGatingChainTests: XCTestCase {
    /// Strips: a mono vocal (lookahead compressor, de-esser: the other strips' sends are delayed to match), stereo
    /// keys (RMS compressor, EQ, echo) and a return of the effect bus. Buses: stereo main (lookahead limiter, no units),
    /// a mono wedge (geq, zero-latency limiter), an effect bus (reverb, no output). With `quickTails`, without the
    /// units whose tails take longer than a gap to reach exact zero (the de-esser, the echo, the geq), so the whole graph rests.
    private func chain(gating: Bool, quickTails: Bool = false) -> GraphDescription {
        var lookahead = CompressorSettings()
        lookahead.lookaheadMs = 2
        lookahead.thresholdDB = -24
        var rms = CompressorSettings()
        rms.detection = .rms
        rms.thresholdDB = -30
        rms.makeupDB = 3
        let cuts = [Double](repeating: 0, count: 24) + [-6, 0, -9, 0, 0, 0, 0]   // 2.5 kHz and 4 kHz: short tails
        var effectReturn = StripDescription(
            name: "ret", channels: 2, units: [EQUnit(bands: [EQBand(type: .highPass, frequency: 200, q: 0.7)])],
            sends: [SendDescription(bus: 0, gainDB: -4), SendDescription(bus: 1, gainDB: -12, isPreFader: true)])
        effectReturn.returnBus = 2
        var graph = GraphDescription(
            strips: [
                StripDescription(
                    name: "vox", channels: 1,
                    units: [CompressorUnit(settings: lookahead)] + (quickTails ? [] : [DeesserUnit(settings: DeesserParameters(release: 20))]),
                    sends: [SendDescription(bus: 0, pan: -0.3), SendDescription(bus: 1, isPreFader: true), SendDescription(bus: 2, gainDB: -6)]),
                StripDescription(
                    name: "keys", channels: 2,
                    units: [CompressorUnit(settings: rms), EQUnit(bands: [EQBand(type: .peak, frequency: 900, gainDB: -4, q: 1)])]
                        + (quickTails ? [] : [EchoUnit(settings: EchoParameters(time: 60, feedback: 10))]),
                    sends: [SendDescription(bus: 0, gainDB: -2), SendDescription(bus: 1, gainDB: -10, isPreFader: true), SendDescription(bus: 2, gainDB: -12)]),
                effectReturn,
            ],
            buses: [
                BusDescription(name: "main", channels: 2, limiter: LimiterSettings(ceilingDB: -6)),
                BusDescription(name: "wedge", channels: 1, limiter: LimiterSettings(ceilingDB: -3, mode: .zeroLatency), units: quickTails ? [] : [GraphicEQUnit(faders: cuts)]),
                BusDescription(name: "fx", channels: 2, units: [ReverbUnit(settings: ReverbParameters(decay: 0.4, predelay: 10, size: 0.3, mix: 1))], hasOutput: false),
            ])
        graph.isGatingEnabled = gating
        return graph
    }

    /// Noise bursts `burstSeconds` long, each followed by `gapSeconds` of exact zeros, into the vocal and the
    /// keys (theirs start later, so one strip sounds while the other is silent).
    private func bursts(sampleRate: Double, count: Int, burstSeconds: Double, gapSeconds: Double) -> [[Float]] {
        let burst = Int(burstSeconds * sampleRate), gap = Int(gapSeconds * sampleRate)
        var generator = SeededGenerator(seed: 11)
        let noise = (0..<burst).map { _ in Float.random(in: -0.7...0.7, using: &generator) }
        var vox: [Float] = [], keys: [Float] = []
        for index in 0..<count {
            vox += noise + [Float](repeating: 0, count: gap)
            let lag = min(gap / 2, 2000 + 53 * index)
            keys += [Float](repeating: 0, count: lag) + noise.map { $0 * 0.4 } + [Float](repeating: 0, count: gap - lag)
        }
        return [vox, keys, keys.map { $0 == 0 ? 0 : -$0 }]   // +0.0 in the gaps
    }

    private struct Rendered {
        var output: [[Float]]
        var meters: [UInt32]
        var gatedUnits: [Int]
        var gatedLimiters: [Int]
        var silentStrips: [Int]
        var restChunks: Int
    }

    /// Renders `input` through the chain; `changes(cycle, engine)` may set parameters before each cycle, and at
    /// cycle `swapAt` a new graph of the same chain, continuing the running one's units (the echo), replaces it.
    private func render(
        gating: Bool, quickTails: Bool = false, input: [[Float]], sampleRate: Double, blockSize: Int, swapAt: Int? = nil,
        changes: (Int, Engine) throws -> Void = { _, _ in }
    ) throws -> Rendered {
        fb_team_enable_ftz_daz()   // as on the audio thread: decaying states reach exact zero
        let host = OfflineEngine(maxFrames: 1024, inputs: 3, outputs: 3)
        let graph = try host.install(chain(gating: gating, quickTails: quickTails), sampleRate: sampleRate)
        var meters: [UInt32] = []
        func readMeters() {
            let snapshot = host.engine.meters()
            meters += ((snapshot.strips + snapshot.buses).flatMap { [$0.reading.peak, $0.reading.rms] }
                + snapshot.units.flatMap { $0.readings.map(\.value) }).map(\.bitPattern)
        }
        var installed = [graph]
        let every = max(1, 2048 / blockSize)
        let output = try host.render(input, blockSize: blockSize) { cycle, _ in
            try changes(cycle, host.engine)
            if cycle == swapAt {
                let next = try EngineGraph(chain(gating: gating, quickTails: quickTails), sampleRate: sampleRate, maxFrames: 1024, continuing: graph)
                try host.engine.install(next, crossfade: .quick)
                installed.append(next)
            }
            if cycle % every == 0 { readMeters() }
        }
        readMeters()
        let around = graph.gatedAroundUnits
        return Rendered(output: output, meters: meters, gatedUnits: graph.gatedUnitChunks, gatedLimiters: around.limiters, silentStrips: around.silentStrips,
                        restChunks: installed.map(\.restChunks).reduce(0, +))
    }

    private func assertIdentical(_ gated: Rendered, _ plain: Rendered, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        for channel in 0..<3 {
            let differing = zip(gated.output[channel], plain.output[channel]).enumerated().first { $0.element.0.bitPattern != $0.element.1.bitPattern }
            XCTAssertNil(differing, "output \(channel) differs at frame \(differing?.offset ?? -1), \(label)", file: file, line: line)
            XCTAssertGreaterThan(plain.output[channel].map(abs).max() ?? 0, 0.01, "output \(channel) carries the bursts, \(label)", file: file, line: line)
        }
        XCTAssertEqual(gated.meters.count, plain.meters.count, label, file: file, line: line)
        let meter = zip(gated.meters, plain.meters).enumerated().first { $0.element.0 != $0.element.1 }
        XCTAssertNil(meter, "meter reading \(meter?.offset ?? -1) differs, \(label)", file: file, line: line)
        XCTAssertEqual(plain.gatedUnits.reduce(0, +) + plain.gatedLimiters.reduce(0, +) + plain.silentStrips.reduce(0, +) + plain.restChunks, 0,
                       "gating = false skips nothing, \(label)", file: file, line: line)
    }

    func testSilentStripsBusesAndLimitersRenderBitIdenticallyGatedAndNot() throws {
        let cases = [(48000.0, 1), (48000, 7), (48000, 253), (48000, 1024), (44100, 7), (44100, 253), (44100, 1024)]
        for (sampleRate, blockSize) in cases {
            let input = bursts(sampleRate: sampleRate, count: 2, burstSeconds: 0.25, gapSeconds: 6)
            let label = "\(sampleRate) Hz, block \(blockSize)"
            let gated = try render(gating: true, input: input, sampleRate: sampleRate, blockSize: blockSize)
            assertIdentical(gated, try render(gating: false, input: input, sampleRate: sampleRate, blockSize: blockSize), label)
            // Run-list order: wedge geq, fx reverb; vox compressor (lookahead), de-esser; keys compressor
            // (RMS), EQ, echo; return EQ. Each rests in the gaps (the echo once its loop has rung out to its floor
            // and its line has run empty), both output limiters too, and every strip falls silent.
            for (index, count) in gated.gatedUnits.enumerated() {
                XCTAssertGreaterThan(count, 0, "unit \(index) gated, \(label): \(gated.gatedUnits)")
            }
            for (index, count) in gated.gatedLimiters.enumerated() where index < 2 {
                XCTAssertGreaterThan(count, 0, "limiter of bus \(index) skipped, \(label): \(gated.gatedLimiters)")
            }
            for (index, count) in gated.silentStrips.enumerated() { XCTAssertGreaterThan(count, 0, "strip \(index) silent, \(label)") }
            // Most of each 6 s gap is skipped: the vocal and the keys (not the reverb's return) are silent in more
            // than half of all chunks.
            let chunks = (input[0].count + blockSize - 1) / blockSize
            XCTAssertGreaterThan(min(gated.silentStrips[0], gated.silentStrips[1]), chunks / 2, label)
        }
    }

    /// Without the long tails, the whole graph rests in the gaps once the reverb has rung out and the limiters' lines
    /// drained: most of each gap's chunks skip everything but the clocks, meters and output ports, still bit-identical.
    func testAGraphAtRestSkipsWholeChunksBitIdentically() throws {
        for (sampleRate, blockSize) in [(48000.0, 7), (48000, 253), (48000, 1024), (44100, 253)] {
            let input = bursts(sampleRate: sampleRate, count: 2, burstSeconds: 0.25, gapSeconds: 6)
            let label = "\(sampleRate) Hz, block \(blockSize)"
            let gated = try render(gating: true, quickTails: true, input: input, sampleRate: sampleRate, blockSize: blockSize)
            assertIdentical(gated, try render(gating: false, quickTails: true, input: input, sampleRate: sampleRate, blockSize: blockSize), label)
            let chunks = (input[0].count + blockSize - 1) / blockSize
            XCTAssertGreaterThan(gated.restChunks, chunks / 3, label)
        }
    }

    /// Faders, send levels, pans, bus gains, mutes and a unit parameter moved while the strips are silent (their
    /// ramps run over skipped chunks) and while they sound, and a graph continuing the echo swapped in during a gap
    /// (units owe their clocks the skipped chunks until something reaches them): still bit-identical.
    func testMovesDuringSilenceRenderBitIdentically() throws {
        let sampleRate = 48000.0
        for blockSize in [7, 253] {
            let input = bursts(sampleRate: sampleRate, count: 3, burstSeconds: 0.2, gapSeconds: 2)
            let gap = Int(1.5 * sampleRate) / blockSize   // a cycle in the middle of the first gap
            var quickTails = false   // without the geq, the wedge's unit parameter is not there to move
            let changes: (Int, Engine) throws -> Void = { cycle, engine in
                switch cycle {
                case gap: try engine.set(.stripGain(strip: 0), to: -8)
                case gap + 1: try engine.set(.sendGain(strip: 1, send: 0), to: -20)
                case gap + 2: try engine.set(.sendPan(strip: 0, send: 0), to: 0.6)
                case gap + 3: try engine.set(.busGain(bus: 0), to: -5)
                case gap + 5: try engine.set(.stripMute(strip: 1), to: 1)
                case 2 * gap: try engine.set(.stripMute(strip: 1), to: 0)
                case 2 * gap + 1 where !quickTails: try engine.set(.busUnitParameter(bus: 1, unit: 0, parameter: 5), to: -12)
                case 3 * gap: try engine.set(.busMute(bus: 1), to: 1)
                case 3 * gap + 4: try engine.set(.busMute(bus: 1), to: 0)
                default: break
                }
            }
            for tails in [false, true] {
                quickTails = tails
                let label = "moves, block \(blockSize)\(quickTails ? ", the whole graph at rest" : "")"
                let gated = try render(gating: true, quickTails: quickTails, input: input, sampleRate: sampleRate, blockSize: blockSize, swapAt: 2 * gap + 3, changes: changes)
                let plain = try render(gating: false, quickTails: quickTails, input: input, sampleRate: sampleRate, blockSize: blockSize, swapAt: 2 * gap + 3, changes: changes)
                assertIdentical(gated, plain, label)
                XCTAssertGreaterThan(min(gated.silentStrips[0], gated.silentStrips[1]), 0, label)
                if quickTails { XCTAssertGreaterThan(gated.restChunks, 0, label) }
            }
        }
    }
}
