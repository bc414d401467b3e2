// The bus loudness monitor on a real engine: analysis taps, mono layouts, the in-ear dose and its warning, preset switches. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackAnalysis
import FoldbackEngine
import Foundation
import Synchronization
import XCTest

final class BusLoudnessMonitorTests: XCTestCase {
    private let rate = 48_000.0

    /// One mono strip sent at unity to a mono in-ear bus and a mono wedge, no limiters.
    private func description() -> GraphDescription {
        GraphDescription(
            strips: [StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0), SendDescription(bus: 1)])],
            buses: [BusDescription(name: "iem", channels: 1), BusDescription(name: "wedge", channels: 1)])
    }

    private let buses = [LoudnessBus(name: "iem", channels: 1, isInEar: true), LoudnessBus(name: "wedge", channels: 1, isInEar: false)]

    /// Renders `seconds` of a −23 dBFS 1 kHz sine (digital silence with `isSilent`) in `block`-frame cycles,
    /// polling the monitor every 8,192 frames.
    private func play(_ engine: Engine, monitor: BusLoudnessMonitor, seconds: Double, block: Int, startFrame: Int = 0, isSilent: Bool = false) {
        let frames = Int(seconds * rate)
        let input = UnsafeMutablePointer<Float>.allocate(capacity: block)
        let outputs = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        defer {
            input.deallocate()
            outputs.forEach { $0.deallocate() }
        }
        let amplitude = isSilent ? 0 : Float(pow(10, -23.0 / 20))
        var done = 0
        var sincePoll = 0
        while done < frames {
            let count = min(block, frames - done)
            for frame in 0..<count {
                input[frame] = amplitude * Float(sin(2 * .pi * 1_000 * Double(startFrame + done + frame) / rate))
            }
            engine.io.pointee.inputs[0] = UnsafePointer(input)
            for channel in 0..<2 { engine.io.pointee.outputs[channel] = outputs[channel] }
            engine.io.pointee.inputCount = 1
            engine.io.pointee.outputCount = 2
            engine.renderCycle(frames: count)
            done += count
            sincePoll += count
            if sincePoll >= 8_192 {
                monitor.poll()
                sincePoll = 0
            }
        }
        monitor.poll()
    }

    /// The in-ear bus (dual mono) reads −23.0 LUFS and the wedge −26.0 within ±0.1 LU; only the in-ear bus
    /// has a dose, 5 s at an estimated 89 dB SPL (within 5 %: the first momentary window fills up), and its
    /// projection to an 8-hour show passes 100 %, which warns once. After a preset switch to a new graph
    /// the bus keeps its ring and its dose, which goes on growing.
    func testLoudnessDoseWarningAndPresetSwitch() throws {
        for block in [1, 253, 1_024] {
            let warnings = Mutex<[String]>([])
            let monitor = BusLoudnessMonitor(showSeconds: 8 * 3600, runsWorker: false) { line in warnings.withLock { $0.append(line) } }
            let engine = Engine(configuration: EngineConfiguration(maxFrames: 1_024))
            let graph = try EngineGraph(description(), sampleRate: rate, maxFrames: 1_024)
            try monitor.attach(to: graph, buses: buses)
            try engine.install(graph, crossfade: .none)
            play(engine, monitor: monitor, seconds: 5, block: block)

            let figures = Dictionary(uniqueKeysWithValues: monitor.snapshot().map { ($0.name, $0) })
            let iem = try XCTUnwrap(figures["iem"]), wedge = try XCTUnwrap(figures["wedge"])
            XCTAssertEqual(iem.reading.momentaryLUFS, -23, accuracy: 0.1, "block \(block)")
            XCTAssertEqual(iem.reading.shortTermLUFS, -23, accuracy: 0.1, "block \(block)")
            XCTAssertEqual(wedge.reading.momentaryLUFS, -26.01, accuracy: 0.1, "block \(block)")
            XCTAssertEqual(wedge.reading.maximumTruePeakDBTP, -23, accuracy: 0.2, "block \(block)")
            XCTAssertNil(wedge.dosePercent)
            let expected = EarDose.percent(levelDB: -23 + EarDose.defaultEarSPLOffsetDB, seconds: 5)
            let dose = try XCTUnwrap(iem.dosePercent)
            XCTAssertEqual(dose, expected, accuracy: expected * 0.05, "block \(block)")
            XCTAssertGreaterThan(try XCTUnwrap(iem.projectedDosePercent), 100)
            XCTAssertEqual(warnings.withLock { $0.count }, 1, "block \(block)")
            XCTAssertTrue(warnings.withLock { $0.first?.contains("in-ear bus 'iem'") ?? false })

            let next = try EngineGraph(description(), sampleRate: rate, maxFrames: 1_024)
            try monitor.attach(to: next, buses: buses)
            try engine.install(next, crossfade: .quick)
            play(engine, monitor: monitor, seconds: 2, block: block, startFrame: Int(5 * rate))
            engine.collectGarbage()
            let after = try XCTUnwrap(monitor.snapshot().first { $0.name == "iem" })
            XCTAssertEqual(after.reading.momentaryLUFS, -23, accuracy: 0.1, "block \(block) after the switch")
            XCTAssertEqual(try XCTUnwrap(after.dosePercent), expected * 7 / 5, accuracy: expected * 0.1, "the dose carried on")
            XCTAssertEqual(warnings.withLock { $0.count }, 1, "no second warning while the projection stays high")
        }
    }

    /// Digital silence: after 3.5 s of zeros the monitor stops feeding its meters, yet the readings are those of
    /// silence (momentary, short-term and the last true peak −∞, integrated kept) and stay put, as does the dose;
    /// when the sine comes back every figure, the integrated loudness over sine, silence and sine included,
    /// equals within 0.05 LU that of a meter fed every sample.
    func testDigitalSilenceIsSkippedWithoutChangingTheFigures() throws {
        let monitor = BusLoudnessMonitor(showSeconds: 3600, runsWorker: false) { _ in }
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 1_024))
        let graph = try EngineGraph(description(), sampleRate: rate, maxFrames: 1_024)
        try monitor.attach(to: graph, buses: buses)
        try engine.install(graph, crossfade: .none)
        play(engine, monitor: monitor, seconds: 4, block: 256)
        play(engine, monitor: monitor, seconds: 10, block: 256, startFrame: Int(4 * rate), isSilent: true)
        let first = try XCTUnwrap(monitor.snapshot().first { $0.name == "wedge" })
        let dose = try XCTUnwrap(monitor.snapshot().first?.dosePercent)
        play(engine, monitor: monitor, seconds: 10, block: 256, startFrame: Int(14 * rate), isSilent: true)
        let silent = try XCTUnwrap(monitor.snapshot().first { $0.name == "wedge" })
        XCTAssertEqual(silent.reading, first.reading)
        XCTAssertEqual(silent.reading.momentaryLUFS, -.infinity)
        XCTAssertEqual(silent.reading.shortTermLUFS, -.infinity)
        XCTAssertEqual(silent.reading.truePeakDBTP, -.infinity)
        XCTAssertEqual(silent.reading.maximumTruePeakDBTP, -23, accuracy: 0.2)
        XCTAssertEqual(try XCTUnwrap(monitor.snapshot().first?.dosePercent), dose, "silence adds no dose")
        play(engine, monitor: monitor, seconds: 4, block: 256, startFrame: Int(24 * rate))
        let back = try XCTUnwrap(monitor.snapshot().first { $0.name == "wedge" })

        let reference = try XCTUnwrap(LoudnessMeter(channels: 1, sampleRate: Int(rate), layout: .mono))
        let amplitude = Float(pow(10, -23.0 / 20))
        var samples = (0..<Int(28 * rate)).map { amplitude * Float(sin(2 * .pi * 1_000 * Double($0) / rate)) }
        for index in Int(4 * rate)..<Int(24 * rate) { samples[index] = 0 }
        samples.withUnsafeBufferPointer { reference.add(interleaved: $0.baseAddress!, frames: $0.count) }
        let expected = reference.read()
        XCTAssertEqual(back.reading.momentaryLUFS, expected.momentaryLUFS, accuracy: 0.05)
        XCTAssertEqual(back.reading.shortTermLUFS, expected.shortTermLUFS, accuracy: 0.05)
        XCTAssertEqual(back.reading.integratedLUFS, expected.integratedLUFS, accuracy: 0.05)
        XCTAssertEqual(back.reading.maximumTruePeakDBTP, expected.maximumTruePeakDBTP, accuracy: 0.05)
    }

    /// A bus nobody hears directly (an effect bus) measures sample peaks: a 1 kHz sine's peak, where the true
    /// peak of the same bus would be the same within 0.2 dB; the loudness is unchanged.
    func testABusWithoutTruePeakReportsItsSamplePeak() throws {
        let monitor = BusLoudnessMonitor(runsWorker: false) { _ in }
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 1_024))
        let graph = try EngineGraph(description(), sampleRate: rate, maxFrames: 1_024)
        try monitor.attach(to: graph, buses: [
            LoudnessBus(name: "iem", channels: 1, isInEar: true), LoudnessBus(name: "wedge", channels: 1, isInEar: false, measuresTruePeak: false),
        ])
        try engine.install(graph, crossfade: .none)
        play(engine, monitor: monitor, seconds: 4, block: 256)
        let wedge = try XCTUnwrap(monitor.snapshot().first { $0.name == "wedge" })
        XCTAssertEqual(wedge.reading.maximumTruePeakDBTP, -23, accuracy: 0.2)
        XCTAssertEqual(wedge.reading.momentaryLUFS, -26.01, accuracy: 0.1)
    }
}
