// An eq band's type changed live over OSC: the measured response follows the new type, the switch neither clicks nor goes NaN, and a save keeps it. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackDSP
import FoldbackEngine
import FoldbackPresets
import Foundation
import XCTest

final class EQBandTypeControlTests: XCTestCase {
    private let preset = """
        [[bus]]
        name = "main"
        [[strip]]
        name = "vox"
          [[strip.unit]]
          type = "eq"
          id = "eq"
            [[strip.unit.band]]
            type = "peak"
            freq_hz = 1000
            gain_db = 6
            q = 1
          [[strip.send]]
          bus = "main"
        """
    private let rate = 48000.0

    /// A sine at `frequency` through the strip: the level before the switch, after it, and the largest
    /// sample-to-sample step in the steady stretch before and around the switch.
    private func measure(frequency: Double, type: String) throws -> (before: Double, after: Double, steadyStep: Float, switchStep: Float, target: OfflineTarget) {
        let target = try OfflineTarget(text: preset)
        let router = ControlRouter(target: target)
        let peer = try XCTUnwrap(OSCPeer(host: "127.0.0.1", port: 9999))
        let frames = 256, amplitude: Float = 0.25
        let input = UnsafeMutablePointer<Float>.allocate(capacity: frames), output = UnsafeMutablePointer<Float>.allocate(capacity: frames)
        defer { input.deallocate(); output.deallocate() }
        target.engine.io.pointee.inputCount = 1
        target.engine.io.pointee.outputCount = 1
        target.engine.io.pointee.inputs[0] = UnsafePointer(input)
        target.engine.io.pointee.outputs[0] = output
        var phase = 0, samples: [Float] = []
        func run(_ cycles: Int) {
            for _ in 0..<cycles {
                for frame in 0..<frames { input[frame] = amplitude * Float(sin(2 * Double.pi * frequency * Double(phase + frame) / rate)) }
                phase += frames
                target.engine.renderCycle(frames: frames)
                samples += UnsafeBufferPointer(start: output, count: frames)
            }
        }
        run(100)   // ½ s: the band settled
        let switchAt = samples.count
        XCTAssertEqual(router.handle(OSCMessage("/foldback/strip/vox/unit/eq/band1_type", [.string(type)]), from: peer), [])
        run(100)
        func rms(_ slice: ArraySlice<Float>) -> Double { 10 * log10(slice.reduce(0) { $0 + Double($1 * $1) } / Double(slice.count)) }
        func largestStep(_ range: Range<Int>) -> Float { range.dropFirst().map { abs(samples[$0] - samples[$0 - 1]) }.max() ?? 0 }
        XCTAssertTrue(samples.allSatisfy(\.isFinite), "no NaN or infinity through the switch")
        let tail = samples.count - 12000
        return (rms(samples[(switchAt - 12000)..<switchAt]), rms(samples[tail...]),
                max(largestStep((switchAt - 12000)..<switchAt), largestStep(tail..<samples.count)),
                largestStep(switchAt..<(switchAt + 4800)), target)
    }

    func testABellSwitchedToAHighShelfOverOSCMeasuresAsAHighShelf() throws {
        let bell = EQBand(type: .peak, frequency: 1000, gainDB: 6, q: 1)
        var shelf = bell
        shelf.type = .highShelf
        for frequency in [250.0, 6000.0] {
            let measured = try measure(frequency: frequency, type: "high_shelf")
            let predicted = EQResponse.magnitudeDB(bands: [shelf], sampleRate: rate, frequency: frequency)
                - EQResponse.magnitudeDB(bands: [bell], sampleRate: rate, frequency: frequency)
            print("bell → high shelf at \(Int(frequency)) Hz: measured \(measured.after - measured.before) dB, predicted \(predicted) dB;"
                  + " largest step at the switch \(measured.switchStep), steady \(measured.steadyStep)")
            XCTAssertEqual(measured.after - measured.before, predicted, accuracy: 0.2, "\(frequency) Hz")
            XCTAssertLessThanOrEqual(measured.switchStep, measured.steadyStep * 1.05, "\(frequency) Hz: the switch steps no more than the tone does")
            let reply = ControlRouter(target: measured.target).handle(OSCMessage("/foldback/strip/vox/unit/eq/band1_type/get"),
                                                                     from: try XCTUnwrap(OSCPeer(host: "127.0.0.1", port: 9999)))
            XCTAssertEqual(reply.first?.arguments.first?.number, EQBandType.highShelf.choiceValue)
        }
    }

    func testTheSwitchedTypeIsSavedAndTheNameOrOutOfRangeIsRefused() throws {
        let measured = try measure(frequency: 1000, type: "low_pass")
        let target = measured.target
        let graph = try XCTUnwrap(target.engine.graph)
        let saved = target.currentPreset.applying(target.engine.changedValues, graph: graph)
        XCTAssertEqual(saved.skipped, [])
        let path = try ControlFixtures.write(PresetWriter.text(for: saved.preset), name: "switched.toml")
        let reloaded = try PresetLoader.load(path: path)
        XCTAssertEqual(reloaded.strips[0].units[0].bands.map(\.band.type), [.lowPass])
        let router = ControlRouter(target: target)
        let peer = try XCTUnwrap(OSCPeer(host: "127.0.0.1", port: 9999))
        for wrong in [OSCMessage("/foldback/strip/vox/unit/eq/band1_type", [.float(9)]), OSCMessage("/foldback/strip/vox/unit/eq/band1_type", [.string("wobble")])] {
            XCTAssertEqual(router.handle(wrong, from: peer).first?.path, OSCServer.errorPath, "\(wrong)")
        }
    }
}
