// The analyser's one selectable tap: each point copies its own place in the chain, off copies nothing, a graph not selected copies nothing. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import Foundation
import XCTest

final class AnalyserTapTests: XCTestCase {
    /// `vox` (mono: a −6 dB gain unit, fader −10 dB) sends at unity to the stereo bus `wedge` (centre pan: −3 dB a side).
    private func graph() throws -> EngineGraph {
        try EngineGraph(
            GraphDescription(
                strips: [StripDescription(name: "vox", channels: 1, units: [GainUnit(gainDB: -6)], sends: [SendDescription(bus: 0)], gainDB: -10)],
                buses: [BusDescription(name: "wedge", channels: 2)]),
            sampleRate: 48_000, maxFrames: 256)
    }

    /// Renders `cycles` 256-frame cycles of a 0.5-peak 1 kHz sine into `vox`.
    private func render(_ engine: Engine, cycles: Int) {
        let input = UnsafeMutablePointer<Float>.allocate(capacity: 256)
        let outputs = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 256) }
        defer { input.deallocate(); outputs.forEach { $0.deallocate() } }
        for cycle in 0..<cycles {
            for frame in 0..<256 { input[frame] = 0.5 * Float(sin(2 * Double.pi * 1_000 * Double(cycle * 256 + frame) / 48_000)) }
            engine.io.pointee.inputs[0] = UnsafePointer(input)
            for channel in 0..<2 { engine.io.pointee.outputs[channel] = outputs[channel] }
            engine.io.pointee.inputCount = 1
            engine.io.pointee.outputCount = 2
            engine.renderCycle(frames: 256)
        }
    }

    /// The frames waiting in the tap's ring and their peak (both channels), dBFS.
    private func drain(_ tap: AnalyserTap) -> (frames: Int, peakDB: Float) {
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 2 * tap.ring.capacity)
        defer { buffer.deallocate() }
        let frames = tap.ring.drain(into: buffer, maxFrames: tap.ring.capacity)
        var peak: Float = 0
        for index in 0..<(2 * frames) { peak = max(peak, abs(buffer[index])) }
        return (frames, 20 * log10(max(peak, 1e-12)))
    }

    func testEachPointCopiesItsPlaceAndOffCopiesNothing() throws {
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 256))
        let graph = try self.graph()
        let tap = AnalyserTap(frames: 8_192)
        graph.attachAnalyserTap(tap)
        try engine.install(graph, crossfade: .none)
        render(engine, cycles: 4)
        XCTAssertEqual(drain(tap).frames, 0, "nothing selected: nothing copied")

        let peak0 = 20 * log10(Float(0.5))
        for (point, expected) in [(AnalyserPoint.stripPre("vox"), peak0), (.stripPost("vox"), peak0 - 6), (.bus("wedge"), peak0 - 16 - 3.01)] {
            try tap.select(point, in: graph)
            render(engine, cycles: 8)
            let (frames, peak) = drain(tap)
            XCTAssertEqual(frames, 8 * 256, "\(point)")
            XCTAssertEqual(peak, expected, accuracy: 0.05, "\(point): before the units, after them (pre-fader), the bus output")
        }
        XCTAssertThrowsError(try tap.select(.stripPost("nobody"), in: graph))
        XCTAssertEqual(AnalyserPoint("strip/vox/pre"), .stripPre("vox"))
        XCTAssertEqual(AnalyserPoint("bus/wedge")?.description, "bus/wedge")
        XCTAssertNil(AnalyserPoint("strip/vox"))
        XCTAssertNil(AnalyserPoint("bus/"))

        tap.deselect()
        render(engine, cycles: 4)
        XCTAssertEqual(drain(tap).frames, 0, "deselected")

        let other = try self.graph()   // attached but not selected: the selection names the first graph
        let replaced = try self.graph()
        other.attachAnalyserTap(tap)
        try tap.select(.bus("wedge"), in: graph)
        replaced.attachAnalyserTap(tap)
        try engine.install(replaced, crossfade: .none)
        render(engine, cycles: 4)
        XCTAssertEqual(drain(tap).frames, 0, "a selection of another graph copies nothing")
    }
}
