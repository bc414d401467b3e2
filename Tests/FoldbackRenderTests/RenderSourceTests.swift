// Tests of file sources in an offline render: played once at their tempo and key, the length and pitch exact.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackRender
import Foundation
import XCTest

final class RenderSourceTests: XCTestCase {
    func testARenderPlaysAFileSourceAtItsTempoAndKey() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-render-source-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("tone.wav"), output = directory.appendingPathComponent("out.wav")
        let writer = try AudioFileWriter(url: input, sampleRate: 44_100, channelCount: 1, format: .float)
        try writer.write(planar: [ToneMeasure.sine(hz: 440, rate: 44_100, frames: 441_000)])
        try writer.finish()
        var strip = StripDescription(name: "backing", channels: 1, sends: [SendDescription(bus: 0)])
        strip.isFileSource = true
        var bus = BusDescription(name: "main", channels: 1)
        bus.limiter = nil
        let graph = try EngineGraph(GraphDescription(strips: [strip], buses: [bus]), sampleRate: 48_000, maxFrames: 253)
        var request = RenderRequest(inputs: [], outputs: [("main", output)], format: .float)
        request.sources = [RenderSource(strip: "backing", url: input, timePitch: TimePitch(tempo: 0.85, semitones: -2))]
        let summary = try OfflineRenderer(graph: graph, request: request).run()
        XCTAssertEqual(Double(summary.inputFrames) / 48_000, 10 / 0.85, accuracy: 0.010)
        let reader = try AudioFileReader(url: output)
        var rendered = [Float](repeating: 0, count: reader.frameCount)
        _ = try rendered.withUnsafeMutableBufferPointer { buffer throws(AudioFileError) in try reader.read(interleavedInto: buffer) }
        XCTAssertEqual(ToneMeasure.frequency(rendered, channels: 1, channel: 0, rate: 48_000), 440 * pow(2, -2.0 / 12), accuracy: 0.392)
    }
}
