// Rendering on several threads: every output sample, meter and cue bit-identical to one thread, at awkward block sizes, with returns, talkback, delays and moving parameters.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackTeam
import FoldbackDSP
import FoldbackEngine
import Foundation
import XCTest

final class ParallelRenderTests: XCTestCase {
    /// Eight strips (mono and stereo; EQ, compressors with lookahead so sends are delay-aligned, reverb, a
    /// talkback, a disabled one) into two output buses, a stereo effect bus with a reverb returned by a mono
    /// and a stereo return, a second effect bus fed by a return, and the cue.
    /// Outputs: wedge L/R (0, 1), iem (2), main L/R (3, 4), cue L/R (5, 6); inputs 0…10.
    private func show() -> GraphDescription {
        func compressor(_ lookaheadMs: Float) -> CompressorUnit {
            CompressorUnit(values: ["lookahead_ms": lookaheadMs, "ratio": 4, "threshold_db": -24, "makeup_db": 3])
        }
        func eq() -> EQUnit { EQUnit(bands: [EQBand(type: .highShelf, frequency: 3000, gainDB: 4), EQBand(type: .peak, frequency: 400, gainDB: -3, q: 1.2)]) }
        var strips = [
            StripDescription(name: "vox", channels: 1, units: [eq(), compressor(2)], sends: [
                SendDescription(bus: 0, gainDB: -2), SendDescription(bus: 1, gainDB: -6, isPreFader: true), SendDescription(bus: 3, gainDB: -10),
                SendDescription(bus: 2),
            ], gainDB: -3, pan: -0.4),
            StripDescription(name: "keys", channels: 2, units: [EQUnit(bands: [EQBand(type: .lowShelf, frequency: 200, gainDB: 2)])], sends: [
                SendDescription(bus: 0, gainDB: -4), SendDescription(bus: 3), SendDescription(bus: 2, gainDB: -3),
            ], pan: 0.3),
            StripDescription(name: "gtr", channels: 1, units: [compressor(0)], sends: [
                SendDescription(bus: 0), SendDescription(bus: 1, gainDB: -12), SendDescription(bus: 2, gainDB: -8),
            ], gainDB: -6, pan: 0.7),
            StripDescription(name: "bass", channels: 1, units: [GainUnit(gainDB: 2)], sends: [SendDescription(bus: 1), SendDescription(bus: 3, gainDB: -1)]),
            StripDescription(name: "off", channels: 1, units: [GainUnit(gainDB: 2)], sends: [SendDescription(bus: 3)], isEnabled: false),
            StripDescription(name: "pads", channels: 2, units: [ReverbUnit()], sends: [SendDescription(bus: 0, gainDB: -9), SendDescription(bus: 3, gainDB: -6)]),
        ]
        var talk = StripDescription(name: "talk", channels: 1, sends: [SendDescription(bus: 0), SendDescription(bus: 1)])
        talk.isTalkback = true
        talk.trimDB = 4
        strips.append(talk)
        var monoReturn = StripDescription(name: "verb_mono", channels: 1, sends: [SendDescription(bus: 1, gainDB: -6), SendDescription(bus: 4)])
        monoReturn.returnBus = 2
        var stereoReturn = StripDescription(name: "verb_st", channels: 2, units: [GainUnit(gainDB: -1)], sends: [SendDescription(bus: 0, gainDB: -3), SendDescription(bus: 3, gainDB: -4)])
        stereoReturn.returnBus = 2
        var delayReturn = StripDescription(name: "echo_ret", channels: 1, sends: [SendDescription(bus: 3, gainDB: -6), SendDescription(bus: 0, gainDB: -12)])
        delayReturn.returnBus = 4
        strips += [monoReturn, stereoReturn, delayReturn]
        var graph = GraphDescription(strips: strips, buses: [
            BusDescription(name: "wedge", channels: 2, gainDB: 3, limiter: LimiterSettings(ceilingDB: -1), units: [eq()]),
            BusDescription(name: "iem", channels: 1, gainDB: -1, limiter: LimiterSettings(ceilingDB: -1, mode: .zeroLatency)),
            BusDescription(name: "verb", channels: 2, units: [ReverbUnit()], hasOutput: false),
            BusDescription(name: "main", channels: 2, limiter: LimiterSettings(ceilingDB: -0.5)),
            BusDescription(name: "echo", channels: 1, units: [DelayUnit(milliseconds: 3)], hasOutput: false),
        ])
        graph.cue = CueDescription(gainDB: -2)
        return graph
    }

    /// Parameter moves by cycle: faders, pans, mutes, a compensated trim, a send, cue selections and a talkback press.
    private let moves: [Int: [(ParameterAddress, Float)]] = [
        2: [(.cuePFL(strip: 0), 1), (.cueBus(bus: 3), 1), (.stripGain(strip: 1), -12)],
        5: [(.stripTrimCompensated(strip: 0), 6), (.talkback(strip: 6), 1), (.sendGain(strip: 2, send: 0), -20)],
        9: [(.stripMute(strip: 3), 1), (.cueAFL(strip: 2), 1), (.stripPan(strip: 2), -0.5), (.stripEnabled(strip: 4), 1)],
        14: [(.stripMute(strip: 3), 0), (.talkback(strip: 6), 0), (.busGain(bus: 0), -6), (.cueClear, 1)],
    ]

    private func inputs(frames: Int, sampleRate: Double) -> [[Float]] {
        (0..<11).map { (channel: Int) -> [Float] in
            if channel % 3 == 0 {
                return TestSignal.sine(frames: frames, frequency: 110 * Double(channel + 1), sampleRate: sampleRate, amplitude: 0.4)
            }
            return TestSignal.noise(frames: frames, seed: UInt32(channel + 1), amplitude: 0.2)
        }
    }

    private func render(threads: Int, sampleRate: Double, blockSize: Int, frames: Int) throws -> (output: [[Float]], meters: MeterSnapshot) {
        let host = OfflineEngine(maxFrames: 1024, inputs: 11, outputs: 7, renderThreads: threads)
        defer { host.engine.stopLocalWorkers() }
        let graph = try host.install(show(), sampleRate: sampleRate)
        XCTAssertEqual(graph.layout.outputPorts.count, 7)
        let output = try host.render(inputs(frames: frames, sampleRate: sampleRate), blockSize: blockSize) { cycle, _ in
            for (address, value) in moves[cycle] ?? [] { try host.engine.set(address, to: value) }
        }
        if threads > 1, let statistics = host.engine.renderTeamStatistics {
            XCTAssertEqual(statistics.itemsByLane.count, threads)
            XCTAssertGreaterThan(statistics.itemsByLane.reduce(0, +), 0)
        }
        return (output, host.engine.meters())
    }

    func testTwoAndThreeThreadsRenderBitIdenticalToOne() throws {
        fb_team_enable_ftz_daz()   // as every render thread has
        for (sampleRate, blockSize) in [(48000.0, 1), (44100, 7), (96000, 253), (48000, 1024), (44100, 1024)] {
            let frames = blockSize == 1 ? 1500 : 6000
            let reference = try render(threads: 1, sampleRate: sampleRate, blockSize: blockSize, frames: frames)
            assertFullyWritten(reference.output)
            XCTAssertGreaterThan(reference.output[5].map(abs).max() ?? 0, 0.001, "the cue carries signal")
            XCTAssertGreaterThan(reference.output[2].map(abs).max() ?? 0, 0.001, "the iem carries signal")
            for threads in [2, 3] {
                let parallel = try render(threads: threads, sampleRate: sampleRate, blockSize: blockSize, frames: frames)
                for channel in reference.output.indices {
                    let differing = zip(reference.output[channel], parallel.output[channel]).enumerated().first { $0.element.0.bitPattern != $0.element.1.bitPattern }
                    XCTAssertNil(differing, "\(threads) threads, \(sampleRate) Hz, block \(blockSize): output \(channel) differs at frame \(differing?.offset ?? -1)")
                }
                XCTAssertEqual(parallel.meters.strips.map(\.reading) + parallel.meters.buses.map(\.reading), reference.meters.strips.map(\.reading) + reference.meters.buses.map(\.reading), "\(threads) threads, block \(blockSize): meters bit-identical")
            }
        }
    }

    /// Rounds of `cycles` cycles of 64 frames (each paced to start one 48 kHz period after the last was due,
    /// as a JACK driver paces them, when `isPaced`), until `isDone(before, after)` holds for a round's
    /// statistics or `rounds` have run (a worker on a loaded machine may not be scheduled in every round).
    /// Returns whether a round was done, and the last round's statistics.
    private func renderRounds(
        of cycles: Int, isPaced: Bool, rounds: Int, until isDone: (RenderTeamStatistics, RenderTeamStatistics) -> Bool
    ) throws -> (isDone: Bool, before: RenderTeamStatistics, after: RenderTeamStatistics) {
        fb_team_enable_ftz_daz()
        let host = OfflineEngine(maxFrames: 1024, inputs: 11, outputs: 7, renderThreads: 2)
        defer { host.engine.stopLocalWorkers() }
        try host.install(show(), sampleRate: 48000)
        let input = inputs(frames: 64 * cycles, sampleRate: 48000)
        var before = try XCTUnwrap(host.engine.renderTeamStatistics)
        for _ in 0..<rounds {
            var due = Date()
            _ = host.render(input, blockSize: 64) { _, _ in
                guard isPaced else { return }
                due += 64.0 / 48000
                let wait = due.timeIntervalSinceNow
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            }
            let after = try XCTUnwrap(host.engine.renderTeamStatistics)
            if isDone(before, after) { return (true, before, after) }
            before = after
        }
        return (false, before, try XCTUnwrap(host.engine.renderTeamStatistics))
    }

    func testTheWorkIsSharedAndWorkersSleepBetweenCycles() throws {
        let result = try renderRounds(of: 400, isPaced: false, rounds: 20) { before, after in
            after.itemsByLane[1] > before.itemsByLane[1]
        }
        XCTAssertTrue(result.isDone, "the worker took items in a round of 400 cycles: \(result.after.itemsByLane)")
        XCTAssertEqual(result.after.cycles - result.before.cycles, 400)
        XCTAssertLessThanOrEqual(result.after.wakes - result.before.wakes, 400, "at most one futex wake per cycle")
    }

    /// Cycles that come at a steady period find the worker already awake: it wakes itself before the next
    /// cycle is due, so the callback rarely needs a futex wake. Workers that sleep through every gap need one
    /// per cycle (the base binary's `bench --live --threads 2`: 1.00 wakes per cycle at every strip count;
    /// this one's 0.00–0.03). This test paces cycles with `Thread.sleep`, which on a loaded machine jitters
    /// by more than the worker's 100 µs head start, so it passes on the first round of 100 cycles with at
    /// most 60 wakes and the worker at work. The test's worker is an ordinary thread (the live ones are
    /// realtime): on a machine busy enough that it never ran during a cycle of any round, there is nothing to
    /// judge and the test is skipped (seen with two compilers running on this 2-core VM: no wake, no item).
    func testWorkersAwakeBeforeASteadyCycleIsDue() throws {
        let result = try renderRounds(of: 100, isPaced: true, rounds: 30) { before, after in
            after.wakes - before.wakes <= 60 && after.itemsByLane[1] > before.itemsByLane[1]
        }
        if !result.isDone && result.after.itemsByLane[1] == 0 {
            throw XCTSkip("the worker thread never ran during a cycle in 30 rounds of 100 (a busy machine)")
        }
        XCTAssertTrue(
            result.isDone,
            "a round of 100 paced cycles with at most 60 futex wakes: last round \(result.after.wakes - result.before.wakes) wakes, items \(result.after.itemsByLane)")
    }

    func testWithoutItsWorkersTheCycleThreadRendersEverythingAlone() throws {
        fb_team_enable_ftz_daz()
        let reference = try render(threads: 1, sampleRate: 48000, blockSize: 253, frames: 3000)
        let host = OfflineEngine(maxFrames: 1024, inputs: 11, outputs: 7, renderThreads: 3)
        host.engine.stopLocalWorkers()
        try host.install(show(), sampleRate: 48000)
        let output = try host.render(inputs(frames: 3000, sampleRate: 48000), blockSize: 253) { cycle, _ in
            for (address, value) in moves[cycle] ?? [] { try host.engine.set(address, to: value) }
        }
        for channel in output.indices {
            XCTAssertEqual(output[channel].map(\.bitPattern), reference.output[channel].map(\.bitPattern), "output \(channel)")
        }
        let statistics = try XCTUnwrap(host.engine.renderTeamStatistics)
        XCTAssertEqual(statistics.itemsByLane[1] + statistics.itemsByLane[2], 0, "no worker ran: \(statistics.itemsByLane)")
    }
}
