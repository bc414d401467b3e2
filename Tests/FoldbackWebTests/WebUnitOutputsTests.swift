// An LV2 plugin's control outputs on the web: described in the state with lilv's names and ranges, valued on each meter tick, following the signal. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine
@testable import FoldbackWeb
import Foundation
import XCTest

final class WebUnitOutputsTests: XCTestCase {
    private static let darc = "http://gareus.org/oss/lv2/darc#mono"

    /// x42 darc (a compressor) on the vocal: its outputs `gain_min`, `gain_max` and `rms` (Signal Level, −80…10 dB). In
    /// Foldback's process: the cycles run here as fast as they can, faster than a live sandbox's deadlines allow (a
    /// sandboxed plugin's meters: SandboxedUnitTests, and live in ConsolePageBrowserTests).
    func testAPluginsControlOutputsAreMetersThatFollowTheSignal() throws {
        let target = try WebTestTarget(text: """
            [[bus]]
            name = "main"
            [[strip]]
            name = "vox"
            send = [{ bus = "main" }]
              [[strip.unit]]
              type = "lv2"
              id = "darc"
              uri = "\(Self.darc)"
              isolation = "none"
              controls = { threshold = -30.0 }
            """)
        let state = WebState.read(target, setlist: nil)
        let rms = try XCTUnwrap(state.outputs.first { $0.path == "strip/vox/unit/darc/rms" }, "\(state.outputs)")
        XCTAssertEqual(rms.label, "Signal Level")
        XCTAssertEqual(rms.min, -80)
        XCTAssertEqual(rms.max, 10)
        XCTAssertTrue(state.outputs.contains { $0.path == "strip/vox/unit/darc/gain_min" })
        XCTAssertFalse(state.parameters.contains { $0.path == rms.path }, "read-only: not a parameter anyone sets")

        let graph = try XCTUnwrap(target.engine.graph)
        func level(after amplitude: Float) throws -> Float {
            let input = UnsafeMutablePointer<Float>.allocate(capacity: 64), output = UnsafeMutablePointer<Float>.allocate(capacity: 64)
            defer { input.deallocate(); output.deallocate() }
            target.engine.io.pointee.inputCount = 1
            target.engine.io.pointee.outputCount = 1
            target.engine.io.pointee.inputs[0] = UnsafePointer(input)
            target.engine.io.pointee.outputs[0] = output
            for cycle in 0..<1500 {   // 2 s of a 1 kHz tone
                for frame in 0..<64 { input[frame] = amplitude * sin(2 * Float.pi * 1000 * Float(cycle * 64 + frame) / 48000) }
                target.engine.renderCycle(frames: 64)
            }
            var meters = WebMeters(target.engine.meters(), load: 0, xruns: 0)
            meters.outputs = WebUnitOutput.values(target.engine.meters(), graph: graph)
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(meters.jsonText().utf8)) as? [String: Any])
            let outputs = try XCTUnwrap(json["outputs"] as? [String: Double], "\(json)")
            return Float(try XCTUnwrap(outputs[rms.path], "\(outputs)"))
        }
        let quiet = try level(after: 0), loud = try level(after: 0.5)
        print("darc Signal Level: silence \(quiet) dB, a −6 dBFS tone \(loud) dB")
        XCTAssertLessThan(quiet, -60, "silence reads near the bottom")
        XCTAssertGreaterThan(loud, quiet + 40, "the tone lifts the plugin's level output")
    }
}
