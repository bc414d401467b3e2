// Input trim: it feeds the units; compensated, it leaves every bus still (within 0.1 dB during the ramp); uncompensated, the buses follow it.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class TrimTests: XCTestCase {
    private let cases: [(sampleRate: Double, blockSize: Int)] = [(44100, 1), (48000, 7), (96000, 253), (48000, 1024)]

    /// A mono strip through linear units (a high shelf and a gain; with `latency`, also a 2 ms lookahead
    /// compressor that never engages, so the units delay the signal) with a pre-fader send, a post-fader send
    /// and a post-fader send into a stereo bus (pan law), fader at −6 dB.
    private func graph(trimDB: Float = 0, latency: Bool = false) -> GraphDescription {
        var lookahead = CompressorSettings()
        lookahead.thresholdDB = 0
        lookahead.lookaheadMs = 2
        let delay: [any EngineUnit] = latency ? [CompressorUnit(settings: lookahead)] : []
        var strip = StripDescription(
            name: "vox", channels: 1,
            units: [EQUnit(bands: [EQBand(type: .highShelf, frequency: 2000, gainDB: 6)])] + delay + [GainUnit(gainDB: -3)],
            sends: [SendDescription(bus: 0, gainDB: -3, isPreFader: true), SendDescription(bus: 1), SendDescription(bus: 2, gainDB: -2)],
            gainDB: -6, pan: 0.3)
        strip.trimDB = trimDB
        return GraphDescription(strips: [strip], buses: [
            BusDescription(name: "wedge", channels: 1), BusDescription(name: "iem", channels: 1), BusDescription(name: "side", channels: 2),
        ])
    }

    /// Renders a steady sine with `move` set at frame `changeAt` (nil: no move), one output per bus channel.
    private func render(
        sampleRate: Double, blockSize: Int, frames: Int, changeAt: Int, move: (ParameterAddress, Float)?, latency: Bool = false
    ) throws -> [[Float]] {
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 4)
        try host.install(graph(latency: latency), sampleRate: sampleRate)
        let input = TestSignal.sine(frames: frames, frequency: 1500, sampleRate: sampleRate, amplitude: 0.1)
        return try host.render([input], blockSize: blockSize) { _, start in
            if let move, start <= changeAt, changeAt < start + blockSize { try host.engine.set(move.0, to: move.1) }
        }
    }

    /// The level of `signal` against `reference` in windows of `window` frames, dB (windows the reference
    /// has not reached yet, behind the units' latency, left out).
    private func windowRatios(_ signal: [Float], _ reference: [Float], window: Int) -> [Double] {
        stride(from: window, to: signal.count - window, by: window).map { start in
            TestSignal.rmsDB(signal[start..<start + window]) - TestSignal.rmsDB(reference[start..<start + window])
        }
    }

    func testCompensatedTrimOfTwelveDecibelsLeavesEveryBusWithinATenthOfADecibel() throws {
        for (sampleRate, blockSize) in cases {
            try assertCompensatedMoveKeepsBusesStill(sampleRate: sampleRate, blockSize: blockSize, latency: false)
        }
    }

    func testTheCompensationWaitsForTheUnitsLatency() throws {
        for (sampleRate, blockSize) in cases {
            try assertCompensatedMoveKeepsBusesStill(sampleRate: sampleRate, blockSize: blockSize, latency: true)
        }
    }

    private func assertCompensatedMoveKeepsBusesStill(sampleRate: Double, blockSize: Int, latency: Bool) throws {
        let frames = Int(sampleRate * 0.3), changeAt = Int(sampleRate * 0.1)
        let still = try render(sampleRate: sampleRate, blockSize: blockSize, frames: frames, changeAt: changeAt, move: nil, latency: latency)
        let moved = try render(
            sampleRate: sampleRate, blockSize: blockSize, frames: frames, changeAt: changeAt, move: (.stripTrimCompensated(strip: 0), 12), latency: latency)
        let window = Int(sampleRate * 0.002)
        for channel in 0..<4 {
            let ratios = windowRatios(moved[channel], still[channel], window: window)
            let worst = ratios.map(abs).max() ?? .infinity
            XCTAssertLessThan(worst, 0.1, "bus channel \(channel) moved \(worst) dB at \(sampleRate) Hz, block \(blockSize), latency \(latency)")
            XCTAssertLessThan(abs(ratios.last ?? .infinity), 0.01, "settled")
        }
    }

    func testUncompensatedTrimMovesEveryBusByTheTrim() throws {
        for (sampleRate, blockSize) in cases {
            let frames = Int(sampleRate * 0.3), changeAt = Int(sampleRate * 0.1)
            let still = try render(sampleRate: sampleRate, blockSize: blockSize, frames: frames, changeAt: changeAt, move: nil)
            let moved = try render(sampleRate: sampleRate, blockSize: blockSize, frames: frames, changeAt: changeAt, move: (.stripTrim(strip: 0), 12))
            let settled = changeAt + TestSignal.frames(seconds: 0.03, sampleRate: sampleRate)
            let moveStart = changeAt / blockSize * blockSize   // set before the cycle holding `changeAt`
            for channel in 0..<4 {
                XCTAssertEqual(TestSignal.rmsDB(moved[channel][..<moveStart]) - TestSignal.rmsDB(still[channel][..<moveStart]), 0, accuracy: 1e-4)
                XCTAssertEqual(TestSignal.rmsDB(moved[channel][settled...]) - TestSignal.rmsDB(still[channel][settled...]), 12, accuracy: 0.01,
                               "bus channel \(channel) follows the trim at \(sampleRate) Hz")
                XCTAssertLessThanOrEqual(TestSignal.largestStep(moved[channel]), TestSignal.largestStep(still[channel]) * 4.2, "no click")
            }
        }
    }

    func testCompensatedTrimDrivesTheUnitsAndLaterUncompensatedMovesStillMoveTheBuses() throws {
        let sampleRate = 48000.0, frames = 48000
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 4)
        try host.install(graph(trimDB: -6), sampleRate: sampleRate)
        let input = TestSignal.sine(frames: frames, frequency: 1500, sampleRate: sampleRate, amplitude: 0.1)
        var stripLevels: [Float] = []
        let output = try host.render([input], blockSize: 256) { _, start in
            if start == 256 * 40 {
                stripLevels.append(20 * log10(host.engine.meters().strips[0].reading.peak))
                try host.engine.set(.stripTrimCompensated(strip: 0), to: 6)
            }
            if start == 256 * 100 {
                stripLevels.append(20 * log10(host.engine.meters().strips[0].reading.peak))
                try host.engine.set(.stripTrim(strip: 0), to: 0)
            }
        }
        XCTAssertEqual(stripLevels[1] - stripLevels[0], 12, accuracy: 0.05, "the units hear the trim")
        XCTAssertEqual(host.engine.value(at: .stripTrim(strip: 0)), 0)
        XCTAssertEqual(host.engine.value(at: .stripTrimCompensation(strip: 0)), -12)
        for channel in 0..<4 {
            let before = TestSignal.rmsDB(output[channel][(256 * 20)..<(256 * 40)])
            let compensated = TestSignal.rmsDB(output[channel][(256 * 80)..<(256 * 100)])
            let after = TestSignal.rmsDB(output[channel][(256 * 140)...])
            XCTAssertEqual(compensated - before, 0, accuracy: 0.01, "channel \(channel)")
            XCTAssertEqual(after - before, -6, accuracy: 0.01, "channel \(channel): the uncompensated move from +6 to 0 dB")
        }
    }
}
