// The analyser frame a page gets: its bars and line as measured, with the source's geq faders and feedback notches read from the engine. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackAnalysis
import FoldbackControl
import FoldbackEngine
import FoldbackGraph
import FoldbackPresets
@testable import FoldbackWeb
import Foundation
import XCTest

final class WebSpectrumTests: XCTestCase {
    /// A wedge bus with a `geq` (2.5 kHz at −9 dB) and a `feedback` unit with a saved ring-out notch (2537 Hz, −9 dB),
    /// over an offline engine.
    private final class Target: LiveControlTarget, @unchecked Sendable {
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 64))
        let currentPreset: Preset

        init() throws {
            currentPreset = try PresetLoader.parse("""
                [[bus]]
                name = "wedge"
                channels = 1
                unit = [
                  { type = "geq", id = "ring_out", g2k5 = -9.0, g160 = 4.5 },
                  { type = "feedback", id = "fbx", band = [{ type = "peak", freq_hz = 2537, gain_db = -9, q = 16 }] },
                ]
                [[strip]]
                name = "vox"
                send = [{ bus = "wedge" }]
                """, path: "/tmp/web-spectrum.toml")
            try engine.install(PresetGraphBuilder.graph(for: currentPreset, sampleRate: 48_000, maxFrames: 64), crossfade: .none)
        }

        func switchPreset(toPath path: String) throws(ControlError) -> String { throw .failed("no preset switches in this test") }
    }

    func testTheFrameCarriesTheBusGraphicEQAndItsNotches() throws {
        let target = try Target()
        let output = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        defer { output.deallocate() }
        target.engine.io.pointee.outputs[0] = output
        target.engine.io.pointee.outputCount = 1
        for _ in 0..<1_000 { target.engine.renderCycle(frames: 64) }   // the notch's depth ramps in on the audio thread
        try target.engine.set(.busUnitParameter(bus: 0, unit: 0, parameter: 10), to: -3)   // g160, moved live
        let frame = SpectrumFrame(
            source: "bus/wedge", bands: Array(repeating: -60, count: 31), line: Array(repeating: -80, count: SpectrumAnalysis.linePoints),
            hold: Array(repeating: -70, count: SpectrumAnalysis.linePoints), peakHz: 2_537.04, peakDB: -20.04, frames: 8_192)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(WebSpectrum(frame, target: target).jsonText().utf8)) as? [String: Any])
        XCTAssertEqual(json["type"] as? String, "spectrum")
        XCTAssertEqual(json["source"] as? String, "bus/wedge")
        XCTAssertEqual(json["peak_hz"] as? Double ?? 0, 2_537, accuracy: 0.05)
        XCTAssertEqual((json["bands_hz"] as? [Double])?[21] ?? 0, 2_511.9, accuracy: 0.05, "IEC base-10 centres")
        XCTAssertEqual((json["line"] as? [Double])?.count, SpectrumAnalysis.linePoints)
        let geq = try XCTUnwrap((json["geq"] as? [[String: Any]])?.first)
        XCTAssertEqual(geq["unit"] as? String, "ring_out")
        let faders = try XCTUnwrap(geq["bands_db"] as? [Double])
        XCTAssertEqual(faders.count, 31)
        XCTAssertEqual(faders[21], -9, accuracy: 0.05, "the preset's 2.5 kHz fader")
        XCTAssertEqual(faders[9], -3, accuracy: 0.05, "the 160 Hz fader as moved live, from the engine")
        let notch = try XCTUnwrap((json["notches"] as? [[String: Any]])?.first, "\(json["notches"] ?? "none")")
        XCTAssertEqual(notch["unit"] as? String, "fbx")
        XCTAssertEqual(notch["freq_hz"] as? Double ?? 0, 2_537, accuracy: 0.5)
        XCTAssertEqual(notch["depth_db"] as? Double ?? 0, -9, accuracy: 0.05)
        let strip = WebSpectrum(SpectrumFrame(source: "strip/vox/pre", bands: frame.bands, line: frame.line, hold: frame.hold, peakHz: 0, peakDB: -140, frames: 0),
                                target: target).jsonText()
        XCTAssertTrue(strip.contains(#""geq":[]"#) && strip.contains(#""notches":[]"#), "a strip without those units: no overlays")
    }

    /// The geq editor's curve (`GET /response`): the engine's response of the unit's live faders; nothing for
    /// a unit that is no eq or geq, or for no unit at all.
    func testTheResponseFollowsTheGraphicEQsLiveFaders() throws {
        let target = try Target()
        func level(at frequency: Double) throws -> Double {
            let json = try XCTUnwrap(WebResponse.json(target, unit: "bus/wedge/unit/ring_out"))
            let points = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [Double]])
            let hz = try XCTUnwrap(points["hz"]), db = try XCTUnwrap(points["db"])
            XCTAssertEqual(hz.count, WebResponse.pointCount)
            let nearest = try XCTUnwrap(hz.indices.min { abs(log(hz[$0] / frequency)) < abs(log(hz[$1] / frequency)) })
            return db[nearest]
        }
        XCTAssertEqual(try level(at: 2_500), -9, accuracy: 0.5, "the preset's 2.5 kHz fader")
        XCTAssertEqual(try level(at: 1_000), 0, accuracy: 0.5)
        try target.engine.set(.busUnitParameter(bus: 0, unit: 0, parameter: 22), to: -3)   // g2k5, moved live
        XCTAssertEqual(try level(at: 2_500), -3, accuracy: 0.5, "the live fader")
        XCTAssertNil(WebResponse.json(target, unit: "bus/wedge/unit/fbx"), "a feedback unit has no curve here")
        XCTAssertNil(WebResponse.json(target, unit: "bus/wedge/unit/nothing"))
        XCTAssertNil(WebResponse.json(target, unit: "strip/vox"))
    }
}
