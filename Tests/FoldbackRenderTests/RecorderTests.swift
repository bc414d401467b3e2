// Tests of the record taps and the Recorder: nothing lost, content equal to the tapped signal, overruns counted.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackRender
import Foundation
import Synchronization
import XCTest

final class RecorderTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-recorder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A mono strip at −6 dB and a stereo strip into a limited stereo bus (the limiter must be recorded too).
    private func description() -> GraphDescription {
        GraphDescription(
            strips: [
                StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0)], gainDB: -6, pan: -0.3),
                StripDescription(name: "keys", channels: 2, sends: [SendDescription(bus: 0, gainDB: -3)]),
            ],
            buses: [BusDescription(name: "main", channels: 2, gainDB: 4, limiter: LimiterSettings(ceilingDB: -3))])
    }

    /// Noise, seeded, in −1…1.
    private func noise(seed: UInt64, frames: Int) -> [Float] {
        var state = seed &* 6364136223846793005 &+ 1442695040888963407
        return (0..<frames).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(bitPattern: state >> 11) % 2_000_000) / 2_000_000
        }
    }

    private func readPlanar(_ url: URL) throws -> [[Float]] { try AudioFileReader(url: url).readAll() }

    /// 60 s at 48 kHz, rendered faster than realtime in cycles of 1, 7, 253 and 1024 frames while the disk
    /// thread writes: every processed frame is in the files, bit for bit the bus output and the strip's post-fader signal.
    func testSixtySecondsAreRecordedWithoutLossAndEqualTheBusOutputAndThePostFaderStrip() throws {
        let rate = 48_000, seconds = 60
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 1024))
        let graph = try EngineGraph(description(), sampleRate: Double(rate), maxFrames: 1024)
        let recorder = Recorder(
            directory: directory, points: [(.bus("main"), 2), (.strip("vox"), graph.tapChannels(at: .strip("vox"))!)],
            format: .wav, maxSampleRate: Double(rate), ringSeconds: 2, onMessage: { XCTFail($0) })
        defer { recorder.close() }
        try recorder.attach(to: graph)
        try engine.install(graph, crossfade: .none)

        let blockSizes = [1, 7, 253, 1024]
        let period = 48_000   // the inputs repeat every second: 60 s of distinct noise would need 11 MB per channel
        let inputs = [noise(seed: 1, frames: period), noise(seed: 2, frames: period), noise(seed: 3, frames: period)]
        let scratch = (0..<3).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 1024) }
        let outputs = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 1024) }
        defer { (scratch + outputs).forEach { $0.deallocate() } }
        for channel in 0..<3 { engine.io.pointee.inputs[channel] = UnsafePointer(scratch[channel]) }
        for channel in 0..<2 { engine.io.pointee.outputs[channel] = outputs[channel] }
        engine.io.pointee.inputCount = 3
        engine.io.pointee.outputCount = 2

        var busOutput: [[Float]] = [[], []]
        busOutput[0].reserveCapacity(rate * seconds)
        busOutput[1].reserveCapacity(rate * seconds)
        let urls = try recorder.start(sampleRate: rate)
        var frame = 0, cycle = 0
        while frame < rate * seconds {
            let count = min(blockSizes[cycle % blockSizes.count], rate * seconds - frame)
            for channel in 0..<3 {
                for offset in 0..<count { scratch[channel][offset] = inputs[channel][(frame + offset) % period] }
            }
            engine.renderCycle(frames: count)
            for channel in 0..<2 { busOutput[channel].append(contentsOf: UnsafeBufferPointer(start: outputs[channel], count: count)) }
            frame += count
            cycle += 1
            while recorder.pendingFrames > rate { usleep(1_000) }   // stand in for realtime pacing: never overrun the 2 s ring
        }
        recorder.control.request(on: false)
        engine.renderCycle(frames: 64)   // the audio thread takes the stop; this cycle is not recorded
        let reports = recorder.stop()

        XCTAssertEqual(reports.count, 2)
        for report in reports {
            XCTAssertEqual(report.framesProcessed, rate * seconds, "\(report)")
            XCTAssertEqual(report.framesWritten, report.framesProcessed, "\(report)")
            XCTAssertEqual(report.overruns, 0)
        }
        let bus = try readPlanar(urls[0])
        XCTAssertEqual(bus.count, 2)
        XCTAssertEqual(bus[0].count, rate * seconds)
        XCTAssertTrue(bus[0] == busOutput[0] && bus[1] == busOutput[1], "the recorded bus differs from the bus output")
        XCTAssertGreaterThan(busOutput[0].map(abs).max() ?? 0, 0.3, "the bus carried signal")

        let vox = try readPlanar(urls[1])
        XCTAssertEqual(vox.count, 1)
        XCTAssertEqual(vox[0].count, rate * seconds)
        let fader = Float(pow(10, -6.0 / 20))
        var worst: Float = 0
        for index in stride(from: 0, to: rate * seconds, by: 1) { worst = max(worst, abs(vox[0][index] - inputs[0][index % period] * fader)) }
        XCTAssertLessThanOrEqual(worst, 1e-6, "vox post-fader tap = input × −6 dB")
    }

    /// A disk that cannot keep up (a ring of 10 ms never drained while rendering) drops whole blocks and
    /// counts them; the audio side never waits and written + dropped = processed.
    func testAnOverrunIsCountedAndReportedAndNeverBlocks() throws {
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 256))
        let graph = try EngineGraph(description(), sampleRate: 48_000, maxFrames: 256)
        let messages = Mutex<[String]>([])
        let recorder = Recorder(
            directory: directory, points: [(.bus("main"), 2)], format: .w64, maxSampleRate: 48_000, ringSeconds: 0.01,
            onMessage: { message in messages.withLock { $0.append(message) } })
        defer { recorder.close() }
        try recorder.attach(to: graph)
        try engine.install(graph, crossfade: .none)
        try recorder.start(sampleRate: 48_000)
        for _ in 0..<2_000 { engine.renderCycle(frames: 256) }   // 10 s in far less: the disk thread falls behind
        recorder.control.request(on: false)
        engine.renderCycle(frames: 256)
        let report = try XCTUnwrap(recorder.stop().first)
        XCTAssertEqual(report.framesProcessed, 2_000 * 256)
        XCTAssertGreaterThan(report.overruns, 0)
        XCTAssertEqual(report.framesWritten + report.framesDropped, report.framesProcessed)
        XCTAssertEqual(try AudioFileReader(url: report.url).frameCount, report.framesWritten)
        XCTAssertTrue(messages.withLock { $0.contains { $0.contains("overrun") } }, "a warning names the overrun")
    }

    /// A preset reload mid-take (a 10 ms crossfade to a new graph with the same taps) neither doubles nor drops
    /// frames: the graph fading out stops tapping, the incoming one carries on.
    func testAGraphSwapMidTakeKeepsOneFramePerProcessedFrame() throws {
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 256))
        let recorder = Recorder(directory: directory, points: [(.bus("main"), 2), (.strip("vox"), 1)], format: .wav, onMessage: { XCTFail($0) })
        defer { recorder.close() }
        let first = try EngineGraph(description(), sampleRate: 48_000, maxFrames: 256)
        try recorder.attach(to: first)
        try engine.install(first, crossfade: .none)
        try recorder.start(sampleRate: 48_000)
        var rendered = 0
        for cycle in 0..<400 {
            if cycle == 100 {
                let second = try EngineGraph(description(), sampleRate: 48_000, maxFrames: 256)
                try recorder.attach(to: second)
                try engine.install(second, crossfade: .quick)
            }
            engine.renderCycle(frames: 253)
            rendered += 253
            engine.collectGarbage()
        }
        recorder.control.request(on: false)
        engine.renderCycle(frames: 253)
        for report in recorder.stop() {
            XCTAssertEqual(report.framesProcessed, rendered, "\(report)")
            XCTAssertEqual(report.framesWritten, rendered, "\(report)")
        }
        XCTAssertEqual(engine.liveGraphCount, 1, "the first graph was retired")
    }
}
