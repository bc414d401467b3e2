// An offline render drives the feedback analysis itself: the same file renders bit-identically however fast, with the ring notched. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackFeedback
import FoldbackRender
import Foundation
import XCTest

final class OfflineRenderTests: XCTestCase {
    /// A 2 kHz tone swelling 100 dB/s from −80 dBFS (a ring building up), steady at −10 dBFS from 0.7 s, 2 s long.
    private func writeRing(sampleRate: Double) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-ring-\(UUID().uuidString).wav")
        let samples = (0..<Int(2 * sampleRate)).map { frame -> Float in
            let time = Double(frame) / sampleRate
            return Float(pow(10, (min(-80 + 100 * time, -10)) / 20) * sin(2 * Double.pi * 2000 * time))
        }
        let writer = try AudioFileWriter(url: url, sampleRate: Int(sampleRate), channelCount: 1, format: .float)
        try writer.write(planar: [samples])
        try writer.finish()
        return url
    }

    /// Renders `input` through a feedback unit on the mic strip, or `onBus` on the wedge bus (`[[bus.unit]]`).
    private func render(_ input: URL, sampleRate: Double, onBus: Bool = false) throws -> (output: [Float], notches: [Double]) {
        let unit = FeedbackUnit()                 // with its worker: the render must stop it and drive the analysis
        let graph = try EngineGraph(GraphDescription(
            strips: [StripDescription(name: "mic", channels: 1, units: onBus ? [] : [unit], unitIDs: onBus ? [] : ["fbx"], sends: [SendDescription(bus: 0)])],
            buses: [BusDescription(name: "wedge", channels: 1, units: onBus ? [unit] : [], unitIDs: onBus ? ["fbx"] : [])]),
            sampleRate: sampleRate, maxFrames: 256)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-ring-out-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: output) }
        _ = try OfflineRenderer(graph: graph, request: RenderRequest(inputs: [("mic", input)], outputs: [("wedge", output)])).run()
        return (try AudioFileReader(url: output).readAll()[0], unit.notches.map(\.frequency))
    }

    func testRendersAreIdenticalAndTheRingIsNotched() throws {
        let sampleRate = 48_000.0
        let input = try writeRing(sampleRate: sampleRate)
        defer { try? FileManager.default.removeItem(at: input) }
        let first = try render(input, sampleRate: sampleRate)
        let second = try render(input, sampleRate: sampleRate)
        XCTAssertEqual(first.output, second.output, "bit-identical")
        let onBus = try render(input, sampleRate: sampleRate, onBus: true)
        XCTAssertEqual(onBus.output, first.output, "a bus's unit is driven by the render just as a strip's")
        XCTAssertEqual(first.notches.count, 1)
        XCTAssertEqual(first.notches.first ?? 0, 2000, accuracy: 2)
        let tail = Array(first.output[Int(1.5 * sampleRate)...])
        let level = 10 * log10(tail.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(tail.count) * 2)
        print("offline render: notch at \(first.notches) Hz; the steady tone at \(level) dBFS (−10 dBFS in)")
        XCTAssertEqual(level, -10 - 12, accuracy: 1, "cut by max_depth_db")
    }
}
