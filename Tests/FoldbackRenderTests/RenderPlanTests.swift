// Tests of render planning: --input/--output pairs resolved against strips and buses, '{}' expanded per input set.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackRender
import Foundation
import XCTest

final class RenderPlanTests: XCTestCase {
    private let strips = ["vox", "gtr"], buses = ["main", "iem"]

    /// One set per name, '{}' replaced in inputs and outputs, fixed paths shared, order kept.
    func testEachNameIsOneInputSet() throws {
        let plan = try RenderPlan(strips: strips, buses: buses, inputs: ["vox=takes/{}.wav", "gtr=band.wav"],
                                  outputs: ["main=mix/{}.wav", "iem=iem/{}-iem.flac"], names: ["verse", "chorus", "bridge"])
        XCTAssertEqual(plan.sets.map(\.name), ["verse", "chorus", "bridge"])
        for set in plan.sets {
            let name = try XCTUnwrap(set.name)
            XCTAssertEqual(set.inputs.map(\.strip), ["vox", "gtr"])
            XCTAssertEqual(set.inputs.map(\.url.lastPathComponent), ["\(name).wav", "band.wav"])
            XCTAssertEqual(set.outputs.map(\.bus), ["main", "iem"])
            XCTAssertEqual(set.outputs.map { $0.url.path.hasSuffix("mix/\(name).wav") || $0.url.path.hasSuffix("iem/\(name)-iem.flac") }, [true, true])
            let request = set.request(format: .pcm24, tail: .seconds(2))
            XCTAssertEqual(request.outputs.map(\.url), set.outputs.map(\.url))
            XCTAssertEqual(request.format, .pcm24)
        }
    }

    /// A bare FILE names the only strip or bus; with several it must say which.
    func testBareFileNeedsASingleChoice() throws {
        let plan = try RenderPlan(strips: ["vox"], buses: ["main"], inputs: ["take.wav"], outputs: ["mix.wav"], names: [])
        XCTAssertEqual(plan.sets.count, 1)
        XCTAssertNil(plan.sets[0].name)
        XCTAssertEqual(plan.sets[0].inputs.map(\.strip), ["vox"])
        XCTAssertEqual(plan.sets[0].outputs.map(\.bus), ["main"])
        XCTAssertThrowsError(try RenderPlan(strips: strips, buses: ["main"], inputs: ["take.wav"], outputs: ["mix.wav"], names: [])) { error in
            XCTAssertEqual("\(error)", "--input 'take.wav': the preset has 2 strips (vox, gtr); say which as STRIP=FILE")
            XCTAssertTrue((error as? RenderError)?.isBadInput == true)
        }
    }

    /// Unknown names and '{}' misuse are the user's mistakes, each with its own message.
    func testMistakesAreBadInput() {
        let cases: [(inputs: [String], outputs: [String], names: [String], message: String)] = [
            (["drums=d.wav"], ["main=m.wav"], [], "the preset has no strip 'drums'; its strips are: vox, gtr"),
            (["vox=v.wav"], ["wedge=w.wav"], [], "the preset has no bus 'wedge'; its buses are: main, iem"),
            (["vox={}.wav"], ["main=m.wav"], [], "a path contains '{}' but no --each NAME or --each-from FILE says what to put there"),
            (["vox={}.wav"], ["main=m.wav"], ["a"], "with --each, every --output path needs '{}' (each set would overwrite the same file)"),
        ]
        for entry in cases {
            XCTAssertThrowsError(try RenderPlan(strips: strips, buses: buses, inputs: entry.inputs, outputs: entry.outputs, names: entry.names)) { error in
                XCTAssertEqual("\(error)", entry.message)
                XCTAssertTrue((error as? RenderError)?.isBadInput == true)
            }
        }
    }

    /// A list file gives one name per line, skipping blank lines and comments; a missing one is bad input.
    func testNamesFromFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-names-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: url) }
        try "verse\n\n# skipped\n  chorus  \r\nbridge".write(to: url, atomically: true, encoding: .utf8)
        XCTAssertEqual(try RenderPlan.names(fromFile: url.path), ["verse", "chorus", "bridge"])
        XCTAssertThrowsError(try RenderPlan.names(fromFile: url.path + ".missing"))
    }

    /// The render rate: the one asked for, else the first input's; a set without inputs cannot render.
    func testSampleRate() throws {
        let plan = try RenderPlan(strips: ["vox"], buses: ["main"], inputs: ["/nonexistent/take.wav"], outputs: ["mix.wav"], names: [])
        XCTAssertEqual(try plan.sets[0].sampleRate(44100), 44100)
        XCTAssertThrowsError(try plan.sets[0].sampleRate(nil)) { error in
            XCTAssertTrue("\(error)".hasPrefix("input for strip 'vox': "), "\(error)")
        }
        let empty = try RenderPlan(strips: ["vox"], buses: ["main"], inputs: [], outputs: ["mix.wav"], names: [])
        XCTAssertThrowsError(try empty.sets[0].sampleRate(48000)) { error in
            XCTAssertEqual("\(error)", "no input given; name one with --input STRIP=FILE")
        }
    }

    /// Formats go by their command-line names both ways.
    func testFormatOptionNames() {
        for format in AudioFileFormat.allCases { XCTAssertEqual(AudioFileFormat(optionName: format.optionName), format) }
        XCTAssertEqual(AudioFileFormat.allCases.map(\.optionName).sorted(), ["flac", "wav24", "wav32f"])
        XCTAssertNil(AudioFileFormat(optionName: "mp3"))
    }
}
