// Tests that a stretched or shifted file source renders every frame of its file: the 10 ms envelope from the first window to the last. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackRender
import FoldbackTestSupport
import Foundation
import XCTest

final class StretchedSourceRenderTests: XCTestCase {
    /// The settings: four tempos, three shifts, and the report's 0.85 with −2 semitones.
    static let settings = EnvelopeTestSignal.stretchSettings.map { TimePitch(tempo: $0.tempo, semitones: $0.semitones) }
    /// Seconds of the test file.
    static let seconds = 1.5
    /// How far (source time) either side of a level step the stretcher's window smears it: not judged for level.
    static let stepMargin = 0.03

    /// Renders `signal` written at `fileRate` once through one strip per setting, each into its own bus, at 48 kHz.
    private func render(_ signal: EnvelopeTestSignal, fileRate: Int) throws -> (source: [Float], outputs: [[Float]]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-stretch-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = signal.samples(rate: Double(fileRate), seconds: Self.seconds)
        let input = directory.appendingPathComponent("source.wav")
        let writer = try AudioFileWriter(url: input, sampleRate: fileRate, channelCount: 1, format: .float)
        try writer.write(planar: [source])
        try writer.finish()
        let names = Self.settings.indices.map { "s\($0)" }
        let strips = names.enumerated().map { index, name in
            var strip = StripDescription(name: name, channels: 1, sends: [SendDescription(bus: index)])
            strip.isFileSource = true
            return strip
        }
        let buses = names.map { name in
            var bus = BusDescription(name: "\(name)_out", channels: 1)
            bus.limiter = nil
            return bus
        }
        let graph = try EngineGraph(GraphDescription(strips: strips, buses: buses), sampleRate: 48_000, maxFrames: 253)
        var request = RenderRequest(inputs: [], outputs: names.map { ("\($0)_out", directory.appendingPathComponent("\($0).wav")) }, format: .float)
        request.sources = zip(names, Self.settings).map { RenderSource(strip: $0, url: input, timePitch: $1) }
        _ = try OfflineRenderer(graph: graph, request: request).run()
        let outputs = try names.map { try AudioFileReader(url: directory.appendingPathComponent("\($0).wav")).readAll()[0] }
        return (source, outputs)
    }

    func testEveryWindowOfAStretchedOrShiftedSourceIsHeardInARender() throws {
        for signal in EnvelopeTestSignal.allCases {
            for fileRate in [48_000, 44_100] {
                let (source, outputs) = try render(signal, fileRate: fileRate)
                for (setting, output) in zip(Self.settings, outputs) {
                    let comparison = EnvelopeComparison(
                        output: output, outputRate: 48_000, reference: source, referenceRate: Double(fileRate), tempo: setting.tempo,
                        steps: signal.steps(seconds: Self.seconds), margin: Self.stepMargin)
                    Self.assertPlaysEveryWindow(comparison, "render \(signal) \(fileRate) Hz, \(setting.summary)")
                }
            }
        }
    }

    /// No silent window; every judged window, the first and the last included, within 1 dB of the source's level.
    static func assertPlaysEveryWindow(_ comparison: EnvelopeComparison, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        print("envelope \(what): \(comparison)")
        XCTAssertEqual(comparison.silentWindows, [], "\(what): windows of exact zeros", file: file, line: line)
        XCTAssertNotNil(comparison.first, "\(what): the first window is judged", file: file, line: line)
        XCTAssertNotNil(comparison.last, "\(what): the last window is judged", file: file, line: line)
        let (index, deviation) = comparison.worst
        XCTAssertLessThanOrEqual(abs(deviation), 1, "\(what): window \(index) of \(comparison.windowCount) is \(deviation) dB off", file: file, line: line)
    }
}
