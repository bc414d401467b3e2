// Tests of the file-player source: sample-exact loops, a long file streamed whole, resampling, start and stop.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackRender
import Foundation
import XCTest

final class FilePlayerStreamTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-player-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func writeFile(_ name: String, rate: Int, channels: [[Float]]) throws -> URL {
        let url = directory.appendingPathComponent(name)
        let writer = try AudioFileWriter(url: url, sampleRate: rate, channelCount: channels.count)
        try writer.write(planar: channels)
        try writer.finish()
        return url
    }

    /// A strip `backing` (file source, `channels`) at `faderDB` into a bus of the same width, rendered
    /// in cycles of 1, 7, 253 and 1024 frames; the test paces the render to the disk thread as a realtime clock would.
    func play(
        _ player: FilePlayerStream, channels: Int = 1, faderDB: Float = 0, frames: Int, rate: Double = 48_000,
        beforeCycle: (Int) -> Void = { _ in }
    ) throws -> [[Float]] {
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 1024))
        var strip = StripDescription(name: "backing", channels: channels, sends: [SendDescription(bus: 0)], gainDB: faderDB)
        strip.isFileSource = true
        let graph = try EngineGraph(
            GraphDescription(strips: [strip], buses: [BusDescription(name: "main", channels: channels)]), sampleRate: rate, maxFrames: 1024)
        XCTAssertTrue(graph.layout.inputPorts.isEmpty, "a file-source strip has no input port")
        try player.attach(to: graph, strip: "backing")
        try engine.install(graph, crossfade: .none)
        let outputs = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 1024) }
        defer { outputs.forEach { $0.deallocate() } }
        for channel in 0..<channels { engine.io.pointee.outputs[channel] = outputs[channel] }
        engine.io.pointee.outputCount = channels
        var result = [[Float]](repeating: [], count: channels)
        var done = 0, cycle = 0
        let blockSizes = [1, 7, 253, 1024]
        while done < frames {
            let count = min(blockSizes[cycle % 4], frames - done)
            beforeCycle(done)
            let deadline = Date().addingTimeInterval(5)
            while player.bufferedFrames < count && Date() < deadline { usleep(200) }
            engine.renderCycle(frames: count)
            for channel in 0..<channels { result[channel].append(contentsOf: UnsafeBufferPointer(start: outputs[channel], count: count)) }
            done += count
            cycle += 1
        }
        return result
    }

    func testALoopedRampPlaysAsTheExactPeriodicSequence() throws {
        let period = 1_000
        let ramp = (0..<period).map { Float($0 + 1) / Float(period) }
        let url = try writeFile("ramp.wav", rate: 48_000, channels: [ramp])
        let player = try FilePlayerStream(url: url, channels: 1, loops: true, gainDB: 0)
        defer { player.close() }
        let output = try play(player, frames: 150_000)[0]
        let mismatches = output.indices.filter { output[$0] != ramp[$0 % period] }
        XCTAssertEqual(mismatches.count, 0, "first mismatch at frame \(mismatches.first ?? -1)")
        XCTAssertEqual(player.underrunCount, 0)
    }

    /// 20 s (far more than the ring and the read-ahead hold) streams through a stereo strip at −6 dB, then silence.
    func testALongFileStreamsWholeThroughTheStripThenStops() throws {
        let frames = 960_000
        let left = (0..<frames).map { Float(sin(Double($0) * 0.0123)) * 0.5 }
        let right = (0..<frames).map { Float(($0 * 7919) % 2001 - 1000) / 2000 }
        let url = try writeFile("long.wav", rate: 48_000, channels: [left, right])
        let player = try FilePlayerStream(url: url, channels: 2, loops: false, gainDB: -6)
        defer { player.close() }
        let output = try play(player, channels: 2, faderDB: -3, frames: frames + 4_800)
        let gain = powf(10, -6 / 20) * powf(10, -3 / 20)
        var worst: Float = 0
        for frame in 0..<frames {
            worst = max(worst, abs(output[0][frame] - left[frame] * gain), abs(output[1][frame] - right[frame] * gain))
        }
        XCTAssertLessThanOrEqual(worst, 1e-6, "file × gain_db × fader, frame for frame")
        XCTAssertEqual(output[0][frames...].map(abs).max(), 0, "silence after the end")
        XCTAssertFalse(player.isPlaying)
        XCTAssertEqual(player.underrunCount, 0)
    }

    /// A 44.1 kHz file at 48 kHz: same duration, same pitch.
    func testAResampledFileKeepsItsPitchAndLength() throws {
        let fileFrames = 88_200   // 2 s
        let tone = (0..<fileFrames).map { Float(sin(2 * Double.pi * 1000 * Double($0) / 44_100)) * 0.5 }
        let url = try writeFile("tone-44k1.wav", rate: 44_100, channels: [tone])
        let player = try FilePlayerStream(url: url, channels: 1, loops: false, gainDB: 0)
        defer { player.close() }
        XCTAssertEqual(player.fileRate, 44_100)
        let output = try play(player, frames: 100_000)[0]
        let lastSounding = try XCTUnwrap(output.lastIndex { abs($0) > 0.01 })
        XCTAssertEqual(Double(lastSounding), 96_000, accuracy: 100, "2 s of file = 96000 frames at 48 kHz")
        var crossings: [Int] = []
        for frame in 24_000..<72_000 where output[frame - 1] < 0 && output[frame] >= 0 { crossings.append(frame) }
        let frequency = Double(crossings.count - 1) * 48_000 / Double(crossings.last! - crossings.first!)
        XCTAssertEqual(frequency, 1000, accuracy: 0.5, "pitch")
        XCTAssertEqual(output[24_000..<72_000].map(abs).max() ?? 0, 0.5, accuracy: 0.01, "level")
        XCTAssertEqual(player.underrunCount, 0)
    }

    /// Stop silences the strip at the next cycle; start plays again from the first frame.
    func testStopSilencesAndStartRestartsFromTheFirstFrame() throws {
        let period = 500
        let ramp = (0..<period).map { Float($0 + 1) / Float(period) }
        let url = try writeFile("ramp.wav", rate: 48_000, channels: [ramp])
        let player = try FilePlayerStream(url: url, channels: 1, loops: true, gainDB: 0)
        defer { player.close() }
        var stopAt = -1, startAt = -1
        let output = try play(player, frames: 60_000) { done in
            if stopAt < 0, done >= 20_000 { player.stop(); stopAt = done }
            if startAt < 0, done >= 40_000 { player.start(); startAt = done }
        }[0]
        XCTAssertEqual(Array(output[0..<stopAt]), (0..<stopAt).map { ramp[$0 % period] })
        XCTAssertEqual(output[stopAt..<startAt].map(abs).max(), 0, "silent while stopped")
        XCTAssertEqual(Array(output[startAt...]), (startAt..<60_000).map { ramp[($0 - startAt) % period] }, "restarted at frame 0")
        XCTAssertEqual(player.underrunCount, 0, "the new state is queued before the next cycle reads")
    }
}
