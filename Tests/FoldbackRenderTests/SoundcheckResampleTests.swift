// A sound-check take recorded at 44.1 kHz played into a 48 kHz engine: resampled on the disk thread, tones at their frequency, strips aligned. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackRender
import Foundation
import XCTest

final class SoundcheckResampleTests: XCTestCase {
    private var directory: URL!
    private let takeRate = 44_100
    private let engineRate = 48_000
    private let frequencies = [441.0, 997.0, 1_500.0, 3_001.0]
    private let amplitude: Float = 0.4

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-resample-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// A 3 s take at 44.1 kHz: strip `s<k>` carries a sine at `frequencies[k]` starting at phase 0 on frame 0.
    private func writeTake() throws {
        for (strip, frequency) in frequencies.enumerated() {
            let url = directory.appendingPathComponent("20260101-000000-input-s\(strip).wav")
            let writer = try AudioFileWriter(url: url, sampleRate: takeRate, channelCount: 1)
            let tone = (0..<takeRate * 3).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / Double(takeRate))) }
            try writer.write(planar: [tone])
            try writer.finish()
        }
    }

    /// Each strip into a mono bus of its own, so each output is one strip.
    private func graph() throws -> EngineGraph {
        try EngineGraph(GraphDescription(
            strips: frequencies.indices.map { StripDescription(name: "s\($0)", channels: 1, sends: [SendDescription(bus: $0)]) },
            buses: frequencies.indices.map { BusDescription(name: "b\($0)", channels: 1) }), sampleRate: Double(engineRate), maxFrames: 1024)
    }

    /// Renders `total` frames in cycles of 1, 7, 253 and 1024 with the live inputs silent; each cycle waits for the take.
    private func render(_ graph: EngineGraph, player: TakePlayer, total: Int) throws -> [[Float]] {
        let count = frequencies.count
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 1024))
        let inputs = (0..<count).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 1024) }
        let outputs = (0..<count).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 1024) }
        defer { (inputs + outputs).forEach { $0.deallocate() } }
        inputs.forEach { $0.initialize(repeating: 0, count: 1024) }
        try engine.install(graph, crossfade: .none)
        for channel in 0..<count {
            engine.io.pointee.inputs[channel] = UnsafePointer(inputs[channel])
            engine.io.pointee.outputs[channel] = outputs[channel]
        }
        engine.io.pointee.inputCount = count
        engine.io.pointee.outputCount = count
        var heard = [[Float]](repeating: [], count: count)
        let blocks = [1, 7, 253, 1024]
        var frame = 0, cycle = 0
        while frame < total {
            let frames = min(blocks[cycle % blocks.count], total - frame)
            while player.source.ring.availableFrames < frames && player.isPlaying { usleep(200) }
            engine.renderCycle(frames: frames)
            for channel in 0..<count { heard[channel].append(contentsOf: UnsafeBufferPointer(start: outputs[channel], count: frames)) }
            frame += frames
            cycle += 1
        }
        return heard
    }

    /// The frequency of `samples` from its first and last rising zero crossings (interpolated), Hz.
    private func frequency(of samples: ArraySlice<Float>) -> Double {
        var crossings: [Double] = []
        for index in samples.indices.dropFirst() where samples[index - 1] < 0 && samples[index] >= 0 {
            let fraction = Double(-samples[index - 1]) / Double(samples[index] - samples[index - 1])
            crossings.append(Double(index - 1) + fraction)
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) / (last - first) * Double(engineRate)
    }

    /// How late (in engine frames) `samples` carries a sine of `frequency` that starts at phase 0 on frame 0.
    private func delay(of samples: ArraySlice<Float>, frequency: Double) -> Double {
        let omega = 2 * Double.pi * frequency / Double(engineRate)
        var sine = 0.0, cosine = 0.0
        for index in samples.indices {
            sine += Double(samples[index]) * sin(omega * Double(index))
            cosine += Double(samples[index]) * cos(omega * Double(index))
        }
        return -atan2(cosine, sine) / omega
    }

    func testATakeAt44kHzPlaysInto48kHzAtItsFrequencyWithTheStripsAligned() throws {
        try writeTake()
        let take = try SoundcheckTake(at: directory)
        let player = try TakePlayer(take: take, strips: frequencies.indices.map { ("s\($0)", 1) }, maxFrames: 1024)
        defer { player.close() }
        XCTAssertEqual(player.sampleRate, takeRate, "without an engine rate the take plays at its own")
        try player.setOutputRate(engineRate)   // as attaching to a 48 kHz show does
        XCTAssertEqual(player.sampleRate, engineRate)
        XCTAssertEqual(player.takeSampleRate, takeRate)
        XCTAssertEqual(player.frameCount, engineRate * 3, "3 s of take counted at the engine's rate")
        let graph = try graph()
        try graph.attachTake(player.source)
        let heard = try render(graph, player: player, total: engineRate * 5 / 2)
        XCTAssertEqual(player.source.ring.underrunCount, 0)

        let window = engineRate / 2..<engineRate * 2   // past the converter's start
        var delays: [Double] = []
        for (strip, expected) in frequencies.enumerated() {
            let samples = heard[strip][window]
            let measured = frequency(of: samples)
            XCTAssertEqual(measured / expected, 1, accuracy: 0.001, "s\(strip): \(measured) Hz for \(expected) Hz")
            let peak = samples.map { abs($0) }.max() ?? 0
            XCTAssertEqual(20 * log10(Double(peak / amplitude)), 0, accuracy: 0.1, "s\(strip) at its recorded level")
            delays.append(delay(of: samples, frequency: expected))
        }
        for first in delays.indices {
            for second in delays.indices where second > first {
                XCTAssertLessThanOrEqual(abs(delays[first] - delays[second]), 1, "s\(first) and s\(second) aligned within a sample: \(delays)")
            }
        }
        XCTAssertLessThanOrEqual(delays.map(abs).max() ?? 1, 1, "the take starts on the show's first frame: \(delays)")
    }

    func testLocateAndLoopKeepTheirTimeAcrossARateChange() throws {
        try writeTake()
        let player = try TakePlayer(take: try SoundcheckTake(at: directory), strips: [("s0", 1)], maxFrames: 1024, isPlaying: false)
        defer { player.close() }
        player.setLoop(takeRate / 2..<takeRate)
        try player.setOutputRate(engineRate)
        XCTAssertEqual(player.loop, engineRate / 2..<engineRate, "0.5–1 s at either rate")
    }
}
