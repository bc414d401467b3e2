// Tests the `foldback check` report: ports, units with defaults, levels, sends and connections. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import XCTest
@testable import FoldbackPresets

final class PresetReportTests: XCTestCase {
    func testReportShowsTheWholeResolvedChain() throws {
        let preset = try PresetLoader.parse(
            """
            [[bus]]
            name = "wedge"
            channels = 1
            gain_db = -144
            mute = true
            connect = [["system:playback_1", "rec:in"]]

            [[strip]]
            name = "gtr"
            gain_db = -2.25
            pan = -0.5
            solo = true
            enabled = false
            connect = ["system:capture_2"]
            unit = [{ type = "gain", bypass = true }, { type = "gain", id = "flip", polarity = "inverted", gain_db = 3 }]
            send = [{ bus = "wedge", gain_db = 24, pre_fader = true }]

            [[strip]]
            name = "keys"
            channels = 2
            pan = 1
            """,
            path: "r.toml"
        )
        let expected = """
            Preset      (unnamed)
            File        r.toml
            Client      mon: 3 input ports, 1 output port

            Strip 1  gtr  (mono)
              inputs    mon:gtr_in  <- system:capture_2
              units     1. gain  gain  gain_db=0 polarity=normal  [bypassed]
                        2. flip  gain  gain_db=3 polarity=inverted
              fader      -2.3 dB   pan L50   mute off   solo ON   DISABLED
              sends     -> wedge  +24.0 dB  pre-fader

            Strip 2  keys  (stereo)
              inputs    mon:keys_in_L  <- (not connected)
                        mon:keys_in_R  <- (not connected)
              units     (none)
              fader       0.0 dB   pan R100 (balance)   mute off   solo off   enabled
              sends     (none: not heard on any bus)

            Bus 1  wedge  (mono)
              outputs   mon:wedge  -> system:playback_1, rec:in
              gain       -inf dB   mute ON
              limiter   ceiling -1.0 dBFS   release 50 ms   lookahead 1.5 ms

            """
        XCTAssertEqual(PresetReport.render(preset, clientName: "mon"), expected)
    }

    func testReportUsesEnginePortNamesAndPresetTitle() throws {
        let preset = try PresetLoader.load(path: repositoryRoot + "/presets/vocal-monitor.toml")
        let report = PresetReport.render(preset)
        XCTAssertTrue(report.hasPrefix("Preset      Vocal monitor\n"))
        for port in ["foldback:vox_in", "foldback:backing_in_L", "foldback:backing_in_R",
                     "foldback:main_L", "foldback:main_R", "foldback:iem_vox_L", "foldback:iem_vox_R"] {
            XCTAssertTrue(report.contains(port), "report lacks \(port)")
        }
        XCTAssertTrue(report.contains("-> iem_vox   +3.0 dB  pre-fader"))
    }

    func testSuggestionsCatchTyposButNotUnrelatedWords() {
        XCTAssertEqual(Suggestion.closest(to: "gain_bd", in: ["name", "gain_db"]), "gain_db")
        XCTAssertEqual(Suggestion.closest(to: "Gain_DB", in: ["gain_db"]), "gain_db")
        XCTAssertEqual(Suggestion.closest(to: "prefader", in: ["bus", "gain_db", "pre_fader"]), "pre_fader")
        XCTAssertEqual(Suggestion.closest(to: "gain", in: ["name", "gain_db"]), "gain_db")
        XCTAssertNil(Suggestion.closest(to: "colour", in: ["name", "description"]))
        XCTAssertNil(Suggestion.closest(to: "mute", in: ["name"]))
        XCTAssertEqual(Suggestion.editDistance(Array("abcd".unicodeScalars), Array("acbd".unicodeScalars)), 1)
    }
}
