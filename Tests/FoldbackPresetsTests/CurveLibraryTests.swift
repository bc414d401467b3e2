// The factory EQ curves: every file loads, lookups are forgiving, bad curve files are reported with positions.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import Foundation
import XCTest
@testable import FoldbackPresets

final class CurveLibraryTests: XCTestCase {
    private let factoryDirectory = repositoryRoot + "/presets/curves"

    static let iPodNames = [
        "Acoustic", "Bass Booster", "Bass Reducer", "Classical", "Dance", "Deep", "Electronic", "Flat", "Hip-Hop", "Jazz",
        "Latin", "Loudness", "Lounge", "Piano", "Pop", "R&B", "Rock", "Small Speakers", "Spoken Word", "Treble Booster",
        "Treble Reducer", "Vocal Booster",
    ]
    static let liveVocalNames = ["Vocal Presence", "De-Mud", "Air", "Warmth", "Telephone"]

    func testEveryFactoryCurveLoads() throws {
        let library = try CurveLibrary.load(directory: factoryDirectory)
        XCTAssertEqual(library.problems, [], library.problems.map(\.description).joined(separator: "\n"))
        XCTAssertGreaterThanOrEqual(library.curves.count, 24)
        for name in Self.iPodNames + Self.liveVocalNames {
            XCTAssertEqual(library.curve(named: name)?.name, name)
        }
        let frequencies = EQResponse.thirdOctaveCentres.map(\.frequency)
        for curve in library.curves {
            XCTAssertFalse(curve.bands.isEmpty, curve.name)
            XCTAssertFalse(curve.summary.isEmpty, curve.name)
            let response = EQResponse.magnitudeDB(bands: curve.bands.map(\.band), sampleRate: 48000, frequencies: frequencies)
            XCTAssertLessThanOrEqual(response.max() ?? 0, 12, "\(curve.name): no curve boosts anything by more than 12 dB")
        }
        let flat = try XCTUnwrap(library.curve(named: "Flat"))
        for level in EQResponse.magnitudeDB(bands: flat.bands.map(\.band), sampleRate: 48000, frequencies: frequencies) {
            XCTAssertEqual(level, 0, accuracy: 1e-9)
        }
    }

    func testNamesMatchIgnoringCaseSpacesPunctuationOrByFileName() throws {
        let library = try CurveLibrary.load(directory: factoryDirectory)
        XCTAssertEqual(library.curve(named: "vocal booster")?.name, "Vocal Booster")
        XCTAssertEqual(library.curve(named: "VOCAL-BOOSTER")?.name, "Vocal Booster")
        XCTAssertEqual(library.curve(named: "hiphop")?.name, "Hip-Hop")
        XCTAssertEqual(library.curve(named: "r&b")?.name, "R&B")
        XCTAssertEqual(library.curve(named: "r-and-b")?.name, "R&B", "the file name works too")
        XCTAssertNil(library.curve(named: "Polka"))
        XCTAssertEqual(library.unknownCurveMessage("Vocal Boster"), "unknown curve 'Vocal Boster'; did you mean 'Vocal Booster'?")
        XCTAssertEqual(library.unknownCurveMessage("Zydeco"), "unknown curve 'Zydeco'; the closest are 'Deep', 'Dance', 'Piano'")
    }

    func testTheDefaultDirectoryIsFoundAndTheEnvironmentOverridesIt() throws {
        let found = try XCTUnwrap(CurveLibrary.defaultDirectory())
        XCTAssertTrue(found.hasSuffix("presets/curves"), found)
        setenv(CurveLibrary.directoryVariable, "/nonexistent/curves", 1)
        defer { unsetenv(CurveLibrary.directoryVariable) }
        XCTAssertEqual(CurveLibrary.searchedDirectories(), ["/nonexistent/curves"])
        XCTAssertThrowsError(try CurveLibrary.loadDefault()) { error in
            XCTAssertTrue("\(error)".contains("FOLDBACK_CURVES_DIR"), "\(error)")
        }
    }

    func testBrokenCurveFilesAreReportedWithPositions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-curves-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let good = "[curve]\nname = \"Good\"\ndescription = \"fine\"\n[[band]]\ntype = \"peak\"\nfreq_hz = 1000\ngain_db = 2\n"
        try good.write(toFile: directory + "/good.toml", atomically: true, encoding: .utf8)
        try good.write(toFile: directory + "/again.toml", atomically: true, encoding: .utf8)
        let broken = "[curve]\nname = \"Broken\"\n[[band]]\ntype = \"bell\"\nfreq_hz = 1000\n[[band]]\ntype = \"peak\"\nfreq = 200\n"
        try broken.write(toFile: directory + "/broken.toml", atomically: true, encoding: .utf8)
        try "[curve\n".write(toFile: directory + "/syntax.toml", atomically: true, encoding: .utf8)

        let library = try CurveLibrary.load(directory: directory)
        XCTAssertEqual(library.curves.map(\.name), ["Good"])
        let problems = library.problems.map(\.description)
        XCTAssertTrue(problems.contains("\(directory)/good.toml: error: curve name 'Good' is already used by \(directory)/again.toml"), "\(problems)")
        XCTAssertTrue(problems.contains("\(directory)/broken.toml:1:2: error: [curve] is missing required key 'description'"), "\(problems)")
        XCTAssertTrue(problems.contains { $0.hasPrefix("\(directory)/broken.toml:4:8: error: 'type' = \"bell\" is not one of") }, "\(problems)")
        XCTAssertTrue(problems.contains("\(directory)/broken.toml:8:1: error: unknown key 'freq' in [[band]]; did you mean 'freq_hz'?"), "\(problems)")
        XCTAssertTrue(problems.contains { $0.hasPrefix("\(directory)/syntax.toml:1:") && $0.contains("TOML syntax error") }, "\(problems)")
        XCTAssertTrue(library.unknownCurveMessage("Brokn").hasSuffix("(some curve files did not load; 'foldback curves' says why)"))
        XCTAssertThrowsError(try CurveLibrary.load(directory: directory + "/missing"))
    }
}
