// The virtual sound check offline: 8 strips' raw inputs recorded in one take, played back through the same strips (null, alignment, live ↔ take crossfade, same bus output). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackRender
import Foundation
import XCTest

final class SoundcheckTakeTests: XCTestCase {
    private var directory: URL!
    private let rate = 48_000
    /// The take's length: the 30 s for the null test; the crossfade test needs 6 s of it.
    private var seconds = 30
    private let strips = 8

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-soundcheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// Eight mono strips into a stereo bus, each with its own pan and send gain (so the bus mix tells them apart).
    private func description() -> GraphDescription {
        GraphDescription(
            strips: (0..<strips).map { index in
                StripDescription(
                    name: "s\(index)", channels: 1, sends: [SendDescription(bus: 0, gainDB: -Float(index))], pan: Float(index) / 4 - 0.9)
            },
            buses: [BusDescription(name: "main", channels: 2)])
    }

    /// Strip `strip`'s input at `frame`: a tone of its own plus seeded noise of its own.
    private func signal(_ strip: Int, _ frame: Int) -> Float {
        var hash = UInt64(frame) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(strip + 1) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 31
        hash = hash &* 0x94D0_49BB_1331_11EB
        let noise = Float(Int64(bitPattern: hash >> 1) % 1_000_000) / 1_000_000
        return 0.3 * sinf(2 * .pi * Float(97 + 131 * strip) * Float(frame) / Float(rate)) + 0.05 * noise
    }

    /// An engine running `graph` with 8 live inputs and a stereo output; `input(strip, frame)` feeds the ports.
    private final class Rig {
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 1024))
        let inputs = (0..<8).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 1024) }
        let outputs = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 1024) }
        var bus: [[Float]] = [[], []]

        init(graph: EngineGraph) throws {
            try engine.install(graph, crossfade: .none)
            for channel in 0..<8 { engine.io.pointee.inputs[channel] = UnsafePointer(inputs[channel]) }
            for channel in 0..<2 { engine.io.pointee.outputs[channel] = outputs[channel] }
            engine.io.pointee.inputCount = 8
            engine.io.pointee.outputCount = 2
        }

        deinit { (inputs + outputs).forEach { $0.deallocate() } }

        /// Renders `total` frames in cycles of 1, 7, 253 and 1024, calling `between` after each.
        func run(total: Int, input: (Int, Int) -> Float, between: (Int) -> Void = { _ in }) {
            let blocks = [1, 7, 253, 1024]
            var frame = 0, cycle = 0
            while frame < total {
                let count = min(blocks[cycle % blocks.count], total - frame)
                for strip in 0..<8 { for offset in 0..<count { inputs[strip][offset] = input(strip, frame + offset) } }
                engine.renderCycle(frames: count)
                for channel in 0..<2 { bus[channel].append(contentsOf: UnsafeBufferPointer(start: outputs[channel], count: count)) }
                frame += count
                cycle += 1
                between(frame)
            }
        }
    }

    /// Records the inputs of a live run; returns the live bus output.
    private func recordLive() throws -> [[Float]] {
        let graph = try EngineGraph(description(), sampleRate: Double(rate), maxFrames: 1024)
        let recorder = Recorder(
            directory: directory, points: (0..<strips).map { (.stripInput("s\($0)"), 1) }, format: .wav,
            maxSampleRate: Double(rate), ringSeconds: 4, onMessage: { XCTFail($0) })
        defer { recorder.close() }
        try recorder.attach(to: graph)
        let rig = try Rig(graph: graph)
        try recorder.start(sampleRate: rate)
        rig.run(total: rate * seconds, input: signal) { _ in while recorder.pendingFrames > self.rate { usleep(1_000) } }
        for report in recorder.stop() {
            XCTAssertEqual(report.framesWritten, rate * seconds, "\(report)")
            XCTAssertEqual(report.framesDropped, 0, "\(report)")
        }
        return rig.bus
    }

    /// A graph playing the take found in the directory, with its strips' post-fader signal (= input at 0 dB) recorded.
    private func playback() throws -> (graph: EngineGraph, player: TakePlayer, taps: Recorder) {
        let graph = try EngineGraph(description(), sampleRate: Double(rate), maxFrames: 1024)
        let take = try SoundcheckTake(at: directory)
        XCTAssertEqual(take.files.count, strips)
        let player = try TakePlayer(take: take, strips: (0..<strips).map { ("s\($0)", 1) }, maxFrames: 1024)
        try graph.attachTake(player.source)
        let played = directory.appendingPathComponent("played")
        try FileManager.default.createDirectory(at: played, withIntermediateDirectories: true)
        let taps = Recorder(
            directory: played, points: (0..<strips).map { (.strip("s\($0)"), 1) }, format: .wav,
            maxSampleRate: Double(rate), ringSeconds: 4, onMessage: { XCTFail($0) })
        try taps.attach(to: graph)
        return (graph, player, taps)
    }

    /// Waits until the player has queued what the next cycles read and the taps' disk thread has caught up to
    /// within a second (stands in for realtime pacing: the render runs far faster than the disk threads' periods).
    private func pace(_ player: TakePlayer, _ taps: Recorder) {
        while player.source.ring.availableFrames < 2_048 && player.isPlaying { usleep(200) }
        while taps.pendingFrames > rate { usleep(1_000) }
    }

    private func peakDB(_ a: [Float], _ b: [Float]) -> Double {
        let peak = zip(a, b).map { abs(Double($0) - Double($1)) }.max() ?? 0
        return 20 * log10(max(peak, 1e-30))
    }

    func testAPlayedTakeNullsPerStripKeepsTheStripsAlignedAndRendersTheLiveBusOutput() throws {
        let live = try recordLive()
        let (graph, player, taps) = try playback()
        defer { player.close(); taps.close() }
        let rig = try Rig(graph: graph)
        let urls = try taps.start(sampleRate: rate)
        rig.run(total: rate * seconds, input: { _, _ in 0 }) { _ in self.pace(player, taps) }   // live ports silent: only the take sounds
        taps.stop()
        for strip in 0..<strips {
            let heard = try AudioFileReader(url: urls[strip]).readAll()[0]
            XCTAssertEqual(heard.count, rate * seconds)
            let sent = (0..<heard.count).map { signal(strip, $0) }
            XCTAssertLessThanOrEqual(peakDB(heard, sent), -120, "strip s\(strip) at offset 0: every strip keeps its offset")
        }
        for channel in 0..<2 { XCTAssertLessThanOrEqual(peakDB(rig.bus[channel], live[channel]), -100, "bus channel \(channel)") }
        XCTAssertEqual(player.source.ring.underrunCount, 0)
    }

    /// Strip s0 moves from the take to a different live signal and back mid-take: each move is a 20 ms linear
    /// crossfade, so no step between frames exceeds the larger of the two signals' own steps plus the gap
    /// between them over the crossfade's 960 frames.
    func testALiveTakeSwitchMidTakeIsAClickFreeCrossfade() throws {
        seconds = 6
        _ = try recordLive()
        let (graph, player, taps) = try playback()
        defer { player.close(); taps.close() }
        let rig = try Rig(graph: graph)
        let urls = try taps.start(sampleRate: rate)
        let liveSignal: (Int, Int) -> Float = { strip, frame in strip == 0 ? -0.4 * cosf(2 * .pi * 1_234 * Float(frame) / 48_000) : 0 }
        let switches = [rate * 2 + 333: false, rate * 4 + 17: true]
        var switched: [Int] = []
        rig.run(total: rate * 6, input: liveSignal) { frame in
            for (at, onTake) in switches where frame >= at && !switched.contains(at) {
                player.source.setOnTake(onTake, strip: "s0")
                switched.append(at)
            }
            self.pace(player, taps)
        }
        taps.stop()
        let heard = try AudioFileReader(url: urls[0]).readAll()[0]
        let fadeFrames = Int(TakeSource.crossfadeSeconds * Double(rate))
        var worstExcess = 0.0
        for frame in 1..<heard.count {
            let take = (signal(0, frame), signal(0, frame - 1)), live = (liveSignal(0, frame), liveSignal(0, frame - 1))
            let own = max(abs(Double(take.0 - take.1)), abs(Double(live.0 - live.1)))
            let bound = own + 1.0 / Double(fadeFrames) * 2 + 1e-6   // |take − live| ≤ 0.75 + 0.4 < 2
            worstExcess = max(worstExcess, abs(Double(heard[frame] - heard[frame - 1])) - bound)
        }
        XCTAssertLessThanOrEqual(worstExcess, 0, "a step above the crossfade's bound")
        let middle = rate * 3
        XCTAssertEqual(heard[middle], liveSignal(0, middle), accuracy: 1e-6, "live between the switches")
        XCTAssertEqual(heard[rate * 5], signal(0, rate * 5), accuracy: 1e-6, "back on the take")
    }
}
