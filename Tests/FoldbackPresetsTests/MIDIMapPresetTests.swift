// The `[midi]` section: mappings, defaults, curves and the errors bad entries get, with their positions. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import XCTest
@testable import FoldbackPresets

final class MIDIMapPresetTests: XCTestCase {
    private let routing = """
        [[bus]]
        name = "main"
        [[strip]]
        name = "vox"
          [[strip.unit]]
          type = "eq"
          id = "tone"
          [[strip.unit]]
          type = "compressor"
          [[strip.send]]
          bus = "main"

        """

    func testMappingsLoadWithTheirTargetsAndTheTargetsDefaults() throws {
        let preset = try PresetLoader.parse(routing + """
            [midi]
            channel = 3
            program_change = false
              [[midi.cc]]
              cc = 7
              target = "strip.vox.gain_db"
              [[midi.cc]]
              channel = 1
              cc = 74
              target = "strip.vox.unit.compressor.threshold_db"
              min = -40
              max = 0
              curve = "linear"
              [[midi.cc]]
              cc = 80
              target = "strip.vox.unit.tone.bypass"
              mode = "toggle"
              [[midi.cc]]
              cc = 11
              target = "strip.vox.send.main.gain_db"
              [[midi.cc]]
              cc = 12
              target = "bus.main.mute"
            """, path: "test.toml")
        let midi = preset.midi
        XCTAssertFalse(midi.respondsToProgramChange)
        XCTAssertEqual(midi.controls.count, 5)
        XCTAssertEqual(midi.control(channel: 3, controller: 7),
                       MIDIControlSpec(channel: 3, controller: 7, target: .strip("vox", key: "gain_db"), minimum: -60, maximum: 6, curve: .db))
        XCTAssertEqual(midi.control(channel: 1, controller: 74)?.target, .unit(strip: "vox", unit: "compressor", key: "threshold_db"))
        XCTAssertEqual(midi.control(channel: 3, controller: 80)?.mode, .toggle)
        XCTAssertEqual(midi.control(channel: 3, controller: 11)?.target, .send(strip: "vox", bus: "main"))
        XCTAssertEqual(midi.control(channel: 3, controller: 12)?.target, .bus("main", key: "mute"))
    }

    func testTheCurvesMapControllerTravelAsDocumented() {
        // linear: evenly; db: linear in amplitude; log: equal ratios.
        XCTAssertEqual(MIDICurve.linear.value(at: 0.25, from: -1, to: 1), -0.5, accuracy: 1e-6)
        XCTAssertEqual(MIDICurve.db.value(at: 0, from: -60, to: 6), -60, accuracy: 1e-4)
        XCTAssertEqual(MIDICurve.db.value(at: 1, from: -60, to: 6), 6, accuracy: 1e-4)
        let halfway = (powf(10, -3) + powf(10, 0.3)) / 2
        XCTAssertEqual(MIDICurve.db.value(at: 0.5, from: -60, to: 6), 20 * log10f(halfway), accuracy: 1e-4)
        XCTAssertEqual(MIDICurve.log.value(at: 0.5, from: 20, to: 20_000), sqrtf(20 * 20_000), accuracy: 0.05)
        let spec = MIDIControlSpec(channel: 1, controller: 1, target: .bus("main", key: "gain_db"), minimum: 100, maximum: 10_000, curve: .log)
        XCTAssertEqual(spec.parameterValue(forControllerValue: 127), 10_000, accuracy: 0.1)
        XCTAssertEqual(spec.parameterValue(forControllerValue: 0), 100, accuracy: 1e-3)
    }

    func testAnUnknownTargetNamesTheLineAndSuggestsTheSpelling() {
        assertSingleError(minimalBusAndStrip + """

            [midi]
              [[midi.cc]]
              cc = 7
              target = "strip.sx.gain_db"
            """, line: 11, column: 12, contains: ["no strip 'sx'", "did you mean 's'"])
        // An inline array of tables is located too.
        assertSingleError(minimalBusAndStrip + """

            [midi]
            cc = [{ cc = 1, target = "strip.s.volume" }]
            """, line: 9, column: 26, contains: ["no strip key 'volume'", "gain_db, pan, mute, solo"])
    }

    func testBadValuesAreReportedAtTheirKeys() {
        assertSingleError(minimalBusAndStrip + """

            [midi]
              [[midi.cc]]
              cc = 128
              target = "strip.s.gain_db"
            """, line: 10, column: 8, contains: ["'cc' = 128 is out of range", "0 to 127"])
        assertSingleError(minimalBusAndStrip + """

            [midi]
              [[midi.cc]]
              cc = 1
              target = "strip.s.pan"
              curve = "lineer"
            """, line: 12, column: 11, contains: ["'curve' = \"lineer\"", "did you mean \"linear\""])
        assertSingleError(minimalBusAndStrip + """

            [midi]
              [[midi.cc]]
              cc = 1
              target = "strip.s.pan"
              curve = "log"
            """, line: 12, column: 11, contains: ["curve \"log\" needs 'min' and 'max' above 0"])
        assertSingleError(minimalBusAndStrip + """

            [midi]
              [[midi.cc]]
              cc = 1
              target = "strip.s.pan"
              [[midi.cc]]
              cc = 1
              target = "strip.s.gain_db"
            """, line: 13, column: 8, contains: ["duplicate mapping of 'channel 1 CC 1'"])
        assertSingleError(minimalBusAndStrip + """

            [midi]
              [[midi.cc]]
              cc = 1
              target = "s.gain_db"
            """, line: 11, column: 12, contains: ["is not a parameter path", "strip.<name>.gain_db"])
    }
}

extension MIDIMapPresetTests {
    func testCheckReportsListTheMappings() throws {
        let preset = try PresetLoader.parse(routing + """
            [midi]
            program_channel = 2
              [[midi.cc]]
              cc = 7
              target = "strip.vox.gain_db"
              [[midi.cc]]
              cc = 64
              target = "strip.vox.mute"
              mode = "toggle"
            """, path: "test.toml")
        let report = PresetReport.render(preset)
        XCTAssertTrue(report.hasSuffix("""
            MIDI  (midi_in)
              ch 1  CC 7   -> strip.vox.gain_db  -60 to 6, db
              ch 1  CC 64  -> strip.vox.mute  toggle
              program change  selects setlist entries (channel 2)

            """), report)
    }

    /// A press target (`tempo.tap`) shows how it is pressed, not a switch mode that means nothing there.
    func testCheckReportsAPressAsAPress() throws {
        let preset = try PresetLoader.parse(routing + """
            [midi]
              [[midi.cc]]
              cc = 80
              target = "tempo.tap"
              [[midi.note]]
              note = 60
              target = "tempo.tap"
            """, path: "test.toml")
        let report = PresetReport.render(preset)
        XCTAssertTrue(report.contains("ch 1  CC 80    -> tempo.tap  press (rising through 64)\n"), report)
        XCTAssertTrue(report.contains("ch 1  note 60  -> tempo.tap  press (note-on)\n"), report)
    }
}
