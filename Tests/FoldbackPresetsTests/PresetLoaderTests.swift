// Tests that valid presets load into exactly the expected model, defaults applied. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import XCTest
@testable import FoldbackPresets

final class PresetLoaderTests: XCTestCase {
    func testEveryKeyIsReadIntoTheModel() throws {
        let text = """
            [preset]
            name = "Show"
            description = "Two mixes"

            [[bus]]
            name = "main"
            channels = 2
            gain_db = -3.5
            mute = true
            connect = ["system:playback_1", ["system:playback_2", "rec:in_2"]]

            [[bus]]
            name = "wedge"
            channels = 1
            gain_db = 6

            [[strip]]
            name = "vox"
            channels = 2
            gain_db = -6
            pan = -0.25
            mute = true
            solo = true
            enabled = false
            connect = ["system:capture_1"]

              [[strip.unit]]
              type = "gain"
              id = "trim"
              bypass = true
              gain_db = 12
              polarity = "inverted"

              [[strip.send]]
              bus = "wedge"
              gain_db = -10.5
              pre_fader = true
            """
        let preset = try PresetLoader.parse(text, path: "show.toml")
        XCTAssertEqual(preset.name, "Show")
        XCTAssertEqual(preset.description, "Two mixes")
        XCTAssertEqual(preset.path, "show.toml")
        XCTAssertEqual(preset.buses.map(\.name), ["main", "wedge"])

        let main = preset.buses[0]
        XCTAssertEqual(main.channels, 2)
        XCTAssertEqual(main.gainDB, -3.5)
        XCTAssertTrue(main.isMuted)
        XCTAssertEqual(main.connections, [["system:playback_1"], ["system:playback_2", "rec:in_2"]])
        XCTAssertEqual(main.location, SourceLocation(file: "show.toml", line: 5, column: 1))

        let wedge = preset.buses[1]
        XCTAssertEqual(wedge.channels, 1)
        XCTAssertEqual(wedge.gainDB, 6)  // an integer accepted as a number
        XCTAssertFalse(wedge.isMuted)
        XCTAssertEqual(wedge.connections, [[]])

        let vox = try XCTUnwrap(preset.strip(named: "vox"))
        XCTAssertEqual(vox.channels, 2)
        XCTAssertEqual(vox.gainDB, -6)
        XCTAssertEqual(vox.pan, -0.25)
        XCTAssertTrue(vox.isMuted)
        XCTAssertTrue(vox.isSoloed)
        XCTAssertFalse(vox.isEnabled)
        XCTAssertEqual(vox.connections, [["system:capture_1"], []])  // padded to the channel count
        XCTAssertEqual(vox.location.line, 17)

        XCTAssertEqual(vox.units.count, 1)
        let trim = vox.units[0]
        XCTAssertEqual(trim.type, "gain")
        XCTAssertEqual(trim.id, "trim")
        XCTAssertTrue(trim.isBypassed)
        XCTAssertEqual(trim.parameters, ["gain_db": 12, "polarity": 1])
        XCTAssertEqual(trim.location, SourceLocation(file: "show.toml", line: 27, column: 3))

        XCTAssertEqual(vox.sends.count, 1)
        XCTAssertEqual(vox.sends[0].busName, "wedge")
        XCTAssertEqual(vox.sends[0].gainDB, -10.5)
        XCTAssertTrue(vox.sends[0].isPreFader)
        XCTAssertEqual(vox.sends[0].location.line, 34)
    }

    func testDefaultsAreApplied() throws {
        let preset = try PresetLoader.parse(minimalBusAndStrip + "\n  [[strip.unit]]\n  type = \"gain\"\n", path: "defaults.toml")
        XCTAssertNil(preset.name)
        XCTAssertNil(preset.description)
        let bus = preset.buses[0]
        XCTAssertEqual(bus.channels, 2)
        XCTAssertEqual(bus.gainDB, 0)
        XCTAssertFalse(bus.isMuted)
        XCTAssertEqual(bus.connections, [[], []])
        let strip = preset.strips[0]
        XCTAssertEqual(strip.channels, 1)
        XCTAssertEqual(strip.gainDB, 0)
        XCTAssertEqual(strip.pan, 0)
        XCTAssertFalse(strip.isMuted)
        XCTAssertFalse(strip.isSoloed)
        XCTAssertTrue(strip.isEnabled)
        XCTAssertEqual(strip.units[0].id, "gain")
        XCTAssertFalse(strip.units[0].isBypassed)
        XCTAssertEqual(strip.units[0].parameters, ["gain_db": 0, "polarity": 0])
        XCTAssertEqual(strip.sends[0].gainDB, 0)
        XCTAssertFalse(strip.sends[0].isPreFader)
        XCTAssertTrue(preset.warnings.isEmpty)
    }

    func testRepeatedUnitsGetNumberedIDsAroundExplicitOnes() throws {
        let preset = try PresetLoader.parse(
            """
            [[bus]]
            name = "main"
            [[strip]]
            name = "s"
            unit = [{ type = "gain" }, { type = "gain", id = "gain_2" }, { type = "gain" }, { type = "gain" }]
            send = [{ bus = "main" }]
            """,
            path: "ids.toml"
        )
        XCTAssertEqual(preset.strips[0].units.map(\.id), ["gain", "gain_2", "gain_3", "gain_4"])
    }

    func testStripAndBusMayShareAName() throws {
        let preset = try PresetLoader.parse(
            "[[bus]]\nname = \"vox\"\n[[strip]]\nname = \"vox\"\nsend = [{ bus = \"vox\" }]\n", path: "same.toml"
        )
        XCTAssertEqual(preset.strips[0].sends[0].busName, "vox")
    }

    func testUnroutedStripsAndUnfedBusesWarn() throws {
        let preset = try PresetLoader.parse(
            "[[bus]]\nname = \"main\"\n\n[[strip]]\nname = \"lonely\"\n", path: "warn.toml"
        )
        XCTAssertEqual(preset.warnings.map(\.description), [
            "warn.toml:1:1: warning: bus 'main' receives no sends, so it outputs silence",
            "warn.toml:4:1: warning: strip 'lonely' has no sends, so it is not heard on any bus",
        ])
    }

    func testShippedPassthroughPreset() throws {
        let preset = try PresetLoader.load(path: repositoryRoot + "/presets/passthrough.toml")
        XCTAssertEqual(preset.strips.map(\.name), ["input"])
        XCTAssertEqual(preset.buses.map(\.name), ["main"])
        XCTAssertEqual(preset.strips[0].channels, 2)
        XCTAssertEqual(preset.buses[0].channels, 2)
        XCTAssertEqual(preset.strips[0].connections, [["system:capture_1"], ["system:capture_2"]])
        XCTAssertEqual(preset.buses[0].connections, [["system:playback_1"], ["system:playback_2"]])
        XCTAssertEqual(preset.strips[0].sends.map(\.busName), ["main"])
        XCTAssertEqual(preset.strips[0].sends[0].gainDB, 0)
        XCTAssertTrue(preset.warnings.isEmpty)
    }

    func testShippedVocalMonitorPreset() throws {
        let preset = try PresetLoader.load(path: repositoryRoot + "/presets/vocal-monitor.toml")
        XCTAssertEqual(preset.buses.map(\.name), ["main", "iem_vox"])
        XCTAssertEqual(preset.strips.map(\.name), ["vox", "backing"])
        let vox = preset.strips[0]
        XCTAssertEqual(vox.channels, 1)
        XCTAssertEqual(vox.units.map(\.id), ["trim", "eq", "compressor", "reverb"])
        XCTAssertEqual(vox.units.map(\.type), ["gain", "eq", "compressor", "reverb"], "the built-in EQ, compressor and reverb")
        XCTAssertEqual(vox.units[0].parameters["gain_db"], 6)
        XCTAssertEqual(vox.units[1].curve, "Vocal Presence")
        XCTAssertEqual(vox.units[2].parameters["threshold_db"], -18)
        XCTAssertEqual(vox.units[3].parameters["decay_s"], 1.4)
        XCTAssertEqual(preset.buses.map(\.limiter), [LimiterSettings(), LimiterSettings(mode: .zeroLatency)],
                       "front of house keeps the default lookahead limiter; the in-ear bus has the zero-latency one")
        XCTAssertEqual(preset.buses.map(\.isInEar), [false, true])
        let voxToIEM = try XCTUnwrap(vox.sends.first { $0.busName == "iem_vox" })
        let backingToIEM = try XCTUnwrap(preset.strips[1].sends.first { $0.busName == "iem_vox" })
        XCTAssertTrue(voxToIEM.isPreFader)
        XCTAssertGreaterThan(voxToIEM.gainDB, backingToIEM.gainDB)  // more vox in the in-ear
        XCTAssertTrue(preset.warnings.isEmpty)
    }

    func testTheDocumentedExampleLoads() throws {
        let markdown = try String(contentsOfFile: repositoryRoot + "/docs/presets.md", encoding: .utf8)
        let start = try XCTUnwrap(markdown.range(of: "```toml\n"))
        let end = try XCTUnwrap(markdown.range(of: "\n```", range: start.upperBound..<markdown.endIndex))
        let preset = try PresetLoader.parse(String(markdown[start.upperBound..<end.lowerBound]), path: "presets.md")
        XCTAssertEqual(preset.strips.map(\.name), ["vox", "backing"])
        XCTAssertEqual(preset.buses[1].connections, [["system:playback_3"], ["system:playback_4", "recorder:in_2"]])
    }

    func testEveryTruncationOfAPresetFailsCleanlyOrLoads() throws {
        let text = try String(contentsOfFile: repositoryRoot + "/presets/vocal-monitor.toml", encoding: .utf8)
        let scalars = Array(text.unicodeScalars)
        let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
        for length in stride(from: 0, through: scalars.count, by: 3) {
            var prefix = String.UnicodeScalarView()
            prefix.append(contentsOf: scalars[0..<length])
            do {
                _ = try PresetLoader.parse(String(prefix), path: "cut.toml")
            } catch {
                XCTAssertFalse(error.diagnostics.isEmpty)
                for diagnostic in error.diagnostics {
                    XCTAssertTrue((1...lineCount).contains(diagnostic.location.line), "\(diagnostic) at length \(length)")
                    XCTAssertGreaterThanOrEqual(diagnostic.location.column, 1)
                }
            }
        }
    }

    func testAMissingFileNamesThePathAndTheReason() {
        do {
            _ = try PresetLoader.load(path: "/nonexistent/show.toml")
            XCTFail("loaded a missing file")
        } catch {
            XCTAssertEqual(
                error.description,
                "/nonexistent/show.toml: error: cannot read preset '/nonexistent/show.toml': No such file or directory"
            )
        }
    }
}
