// The `echo` and `deesser` unit types in presets: schemas against the units, note values and modes by name, range errors, the tree, saving, and presets/vocal-echo.toml.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class EchoDeesserPresetTests: XCTestCase {
    private func presetText(unit: String) -> String {
        minimalBusAndStrip + "\n  [[strip.unit]]\n" + unit
    }

    func testSchemasAreTheUnitsDeclarations() throws {
        for (type, descriptors) in [("echo", EchoUnit.liveParameters), ("deesser", DeesserUnit.liveParameters)] {
            let schema = try XCTUnwrap(UnitSchema.named(type))
            XCTAssertEqual(schema.parameters.map(\.key), descriptors.map(\.key))
            XCTAssertEqual(schema.parameters.map(\.defaultValue), descriptors.map(\.defaultValue))
            XCTAssertTrue(schema.parameters.allSatisfy { !$0.summary.isEmpty })
        }
    }

    /// `sync = "1/8."` at `tempo_bpm = 96` loads as the dotted eighth; the unit made from it runs 468.75 ms.
    func testAnEchoLoadsItsNoteValueModeAndTempoByName() throws {
        let preset = try PresetLoader.parse(presetText(unit: """
              type = "echo"
              sync = "1/8."
              tempo_bpm = 96
              mode = "ping_pong"
              time_change = "glide"
              feedback = 40
              freeze = false
            """), path: "echo.toml")
        let spec = try XCTUnwrap(preset.strips.first?.units.first)
        let unit = try XCTUnwrap(UnitFactory.makeUnit(spec) as? EchoUnit)
        XCTAssertEqual(unit.settings.sync.name, "1/8.")
        XCTAssertEqual(unit.settings.mode.name, "ping_pong")
        XCTAssertEqual(unit.settings.timeChange.name, "glide")
        XCTAssertEqual(unit.settings.tempo, 96)
        XCTAssertEqual(unit.settings.seconds, 0.46875, accuracy: 1e-9)
        XCTAssertEqual(unit.settings.feedback, 40)
        XCTAssertEqual(spec.parameters["mix"], 0.25, "absent keys take their defaults")

        let tree = ParameterTree(preset: preset)
        let sync = try XCTUnwrap(tree.node(at: "strip/s/unit/echo/sync"))
        XCTAssertEqual(sync.address, .unitParameter(strip: 0, unit: 0, parameter: 1))
        XCTAssertEqual(sync.descriptor.choices.map(\.name).prefix(6), ["off", "1/1", "1/2", "1/2.", "1/2t", "1/4"])
        XCTAssertEqual(tree.node(at: "strip/s/unit/echo/tempo_bpm")?.address, .unitParameter(strip: 0, unit: 0, parameter: Int(EchoUnit.tempoParameter)))

        let saved = try PresetLoader.parse(PresetWriter.text(for: preset), path: "saved.toml")
        XCTAssertEqual(saved.strips[0].units[0].parameters, spec.parameters, "saving writes every key back")
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 256)
        XCTAssertEqual(graph.layout.inputPorts.map(\.name), ["s_in"], "a mono strip: the echo adds no port, only the bus is stereo")
    }

    func testBadValuesAreErrorsNamingTheValue() {
        assertSingleError(presetText(unit: "  type = \"echo\"\n  sync = \"1/5\""), line: 10, column: 10, contains: ["sync", "1/5"])
        assertSingleError(presetText(unit: "  type = \"echo\"\n  feedback = 99"), line: 10, column: 14, contains: ["feedback", "99", "95"])
        assertSingleError(presetText(unit: "  type = \"deesser\"\n  frequency_hz = 2000"), line: 10, column: 18, contains: ["frequency_hz", "2000", "3000"])
    }

    func testADeesserLoadsAndPublishesItsReduction() throws {
        let preset = try PresetLoader.parse(presetText(unit: """
              type = "deesser"
              frequency_hz = 7000
              key = "high_pass"
              range_db = 10
              wide = true
            """), path: "deess.toml")
        let spec = try XCTUnwrap(preset.strips.first?.units.first)
        let unit = try XCTUnwrap(UnitFactory.makeUnit(spec) as? DeesserUnit)
        XCTAssertEqual(unit.settings.frequency, 7000)
        XCTAssertEqual(unit.settings.key.name, "high_pass")
        XCTAssertEqual(unit.settings.range, 10)
        XCTAssertTrue(unit.settings.isWide)
        XCTAssertEqual(ParameterTree(preset: preset).node(at: "strip/s/unit/deesser/listen")?.descriptor.type, .toggle)
    }

    /// The shipped vocal-echo preset: a de-esser on the voice, a synced ping-pong echo on an effect bus that
    /// only the in-ear mix hears.
    func testTheVocalEchoPresetLoads() throws {
        let preset = try PresetLoader.load(path: "presets/vocal-echo.toml")
        let vox = try XCTUnwrap(preset.strips.first { $0.name == "vox" })
        XCTAssertTrue(vox.units.contains { $0.type == "deesser" })
        let echoBus = try XCTUnwrap(preset.buses.first { $0.name == "echo" })
        let echo = try XCTUnwrap(echoBus.units.first { $0.type == "echo" })
        XCTAssertEqual(echo.parameters["sync"], Float(EchoNoteValue.dottedEighth.rawValue))
        let ret = try XCTUnwrap(preset.strips.first { $0.name == "echo_ret" })
        XCTAssertEqual(ret.sends.map(\.busName), ["iem_vox"])
        _ = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 256)
    }
}
