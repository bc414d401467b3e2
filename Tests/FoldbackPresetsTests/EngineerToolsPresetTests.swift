// Preset keys for trim (trim_db, trim_compensate) and talkback (talkback, talk_to, dim_db): reading, building, errors, writing. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class EngineerToolsPresetTests: XCTestCase {
    private let text = """
        [[bus]]
        name = "main"
        [[bus]]
        name = "iem"

        [[strip]]
        name = "vox"
        trim_db = -4.5
        trim_compensate = true
        send = [{ bus = "main" }]

        [[strip]]
        name = "tb"
        talkback = true
        talk_to = ["iem", "main"]
        dim_db = -18
        gain_db = -6
        """

    func testTrimAndTalkbackKeysReachTheGraph() throws {
        let preset = try PresetLoader.parse(text, path: "tools.toml")
        XCTAssertEqual(preset.strips[0].trimDB, -4.5)
        XCTAssertTrue(preset.strips[0].trimCompensates)
        XCTAssertEqual(preset.strips[1].talkback, TalkbackSpec(busNames: ["iem", "main"], dimDB: -18))
        XCTAssertEqual(preset.warnings.map(\.message), [], "a talkback's talk_to counts as its sends")
        XCTAssertNil(preset.strips[0].talkback)
        let description = try PresetGraphBuilder.description(for: preset)
        XCTAssertEqual(description.strips[0].trimDB, -4.5)
        XCTAssertTrue(description.strips[1].isTalkback)
        XCTAssertEqual(description.strips[1].talkbackDimDB, -18)
        XCTAssertEqual(description.strips[1].sends.map(\.bus), [1, 0], "talk_to becomes post-fader 0 dB sends")
        XCTAssertTrue(description.strips[1].sends.allSatisfy { $0.gainDB == 0 && !$0.isPreFader })
    }

    func testTheDefaultDimIsMinusTwelveDecibels() throws {
        let preset = try PresetLoader.parse(presetText(sendsToMain: false, stripLines: "talkback = true\ntalk_to = [\"main\"]\n"), path: "tb.toml")
        XCTAssertEqual(preset.strips[0].talkback?.dimDB, -12)
    }

    func testBrokenTrimAndTalkbackKeysAreLocated() {
        assertSingleError(presetText(stripLines: "trim_db = 30\n"), line: 6, column: 11, contains: ["trim_db", "30"])
        assertSingleError(presetText(stripLines: "talk_to = [\"main\"]\n"), line: 6, column: 1, contains: ["'talk_to'", "talkback = true"])
        assertSingleError(presetText(stripLines: "dim_db = -6\n"), line: 6, column: 1, contains: ["'dim_db'", "talkback = true"])
        assertSingleError(presetText(sendsToMain: false, stripLines: "talkback = true\n"), line: 3, column: 1, contains: ["needs 'talk_to'"])
        assertSingleError(
            presetText(sendsToMain: false, stripLines: "talkback = true\ntalk_to = [\"mian\"]\n"), line: 6, column: 12,
            contains: ["unknown bus 'mian'", "did you mean 'main'?"])
        assertSingleError(
            presetText(stripLines: "talkback = true\ntalk_to = [\"main\"]\n"), line: 5, column: 1, contains: ["cannot have [[strip.send]]"])
        assertSingleError(
            presetText(sendsToMain: false, stripLines: "talkback = true\ntalk_to = [\"main\", \"main\"]\n"), line: 6, column: 20, contains: ["twice"])
        assertSingleError(
            presetText(sendsToMain: false, stripLines: "talkback = true\ntalk_to = [\"main\"]\ndim_db = 3\n"), line: 7, column: 10, contains: ["dim_db"])
    }

    func testTheWriterKeepsTrimAndTalkback() throws {
        let preset = try PresetLoader.parse(text, path: "tools.toml")
        let again = try PresetLoader.parse(PresetWriter.text(for: preset), path: "tools.toml")
        XCTAssertEqual(again.strips[0].trimDB, -4.5)
        XCTAssertTrue(again.strips[0].trimCompensates)
        XCTAssertEqual(again.strips[1].talkback, preset.strips[1].talkback)
    }

    func testSavingFoldsACompensatedTrimIntoTheSendLevels() throws {
        let preset = try PresetLoader.parse(text, path: "tools.toml")
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 64)
        let (saved, skipped) = preset.applying(
            [.stripTrim(strip: 0): 7.5, .stripTrimCompensation(strip: 0): -12, .sendGain(strip: 0, send: 0): -2, .talkback(strip: 1): 1], graph: graph)
        XCTAssertEqual(skipped, [])
        XCTAssertEqual(saved.strips[0].trimDB, 7.5)
        XCTAssertEqual(saved.strips[0].sends[0].gainDB, -14, "the send as set live, less the compensation")
    }
}

final class CuePresetTests: XCTestCase {
    func testTheCueSectionBuildsACueOutputAndIsWrittenBack() throws {
        let text = "[cue]\ngain_db = -4\nlimiter_ceiling_db = -3\nconnect = [\"system:playback_1\", \"system:playback_2\"]\n" + minimalBusAndStrip
        let preset = try PresetLoader.parse(text, path: "cue.toml")
        XCTAssertEqual(preset.cue?.gainDB, -4)
        XCTAssertEqual(preset.cue?.limiter, LimiterSettings(ceilingDB: -3, releaseMs: 50, mode: .zeroLatency), "zero-latency by default")
        let description = try PresetGraphBuilder.description(for: preset)
        XCTAssertEqual(description.cue, CueDescription(gainDB: -4, limiter: LimiterSettings(ceilingDB: -3, releaseMs: 50, mode: .zeroLatency)))
        XCTAssertEqual(PresetGraphBuilder.connectionPlan(for: preset)["cue_R"], ["system:playback_2"])
        XCTAssertEqual(try PresetGraphBuilder.layout(for: preset).outputPorts.map(\.name), ["main_L", "main_R", "cue_L", "cue_R"])
        let again = try PresetLoader.parse(PresetWriter.text(for: preset), path: "cue.toml")
        XCTAssertEqual(again.cue, preset.cue)
        XCTAssertNil(try PresetLoader.parse(minimalBusAndStrip, path: "plain.toml").cue)
    }

    func testABusTakingTheCuePortNamesAndBadCueKeysAreLocated() {
        assertSingleError("[cue]\n[[bus]]\nname = \"cue\"\n[[strip]]\nname = \"s\"\nsend = [{ bus = \"cue\" }]\n", line: 2, column: 1, contains: ["'cue_L'", "rename the bus"])
        assertSingleError("[cue]\ngain_db = 40\n" + minimalBusAndStrip, line: 2, column: 11, contains: ["gain_db"])
        assertSingleError("[cue]\nlimiter = false\n" + minimalBusAndStrip, line: 2, column: 1, contains: ["unknown key 'limiter'"])
    }
}

final class EngineerToolsReportTests: XCTestCase {
    func testCheckShowsTrimTalkbackAndCue() throws {
        let text = """
            [cue]
            gain_db = -6
            [[bus]]
            name = "iem"
            [[strip]]
            name = "vox"
            trim_db = 6
            trim_compensate = true
            send = [{ bus = "iem" }]
            [[strip]]
            name = "tb"
            talkback = true
            talk_to = ["iem"]
            """
        let report = PresetReport.render(try PresetLoader.parse(text, path: "tools.toml"))
        XCTAssertTrue(report.contains("foldback: 2 input ports, 4 output ports"), report)
        XCTAssertTrue(report.contains("live moves compensated"), report)
        XCTAssertTrue(report.contains("-> iem while pressed, dimming them -12.0 dB"), report)
        XCTAssertTrue(report.contains("foldback:cue_L"), report)
        XCTAssertFalse(report.contains("not heard on any bus"), report)
    }
}
