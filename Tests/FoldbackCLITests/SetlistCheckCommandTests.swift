// `foldback check SETLIST` checks every song before doors; `foldback run --setlist` refuses broken songs unless --allow-broken-songs. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import XCTest

final class SetlistCheckCommandTests: XCTestCase {
    /// A setlist of a good song (the shipped vocal monitor) and a broken one (two errors), in a fresh folder.
    private func showFolder(setlistExtra: String = "") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-setlist-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let good = FoldbackProcess.repositoryRoot.appendingPathComponent("presets/vocal-monitor.toml").path
        try "[[bus]]\nname = \"main\"\n[[strip]]\nname = \"vox\"\ngain_db = \"loud\"\nsend = [{ bus = \"mian\" }]\n"
            .write(toFile: folder + "/ballad.toml", atomically: true, encoding: .utf8)
        try "[setlist]\nname = \"Friday\"\n\(setlistExtra)[[song]]\nname = \"Opener\"\npreset = \"\(good)\"\n[[song]]\nname = \"Ballad\"\npreset = \"ballad.toml\"\n"
            .write(toFile: folder + "/friday.toml", atomically: true, encoding: .utf8)
        return folder
    }

    func testCheckingASetlistReportsEverySongsErrorsWithTheSongAndASummaryEach() throws {
        let folder = try showFolder()
        let run = try FoldbackProcess.run(["check", folder + "/friday.toml"])
        XCTAssertEqual(run.status, 2, run.standardError)
        XCTAssertTrue(run.standardError.contains("\(folder)/ballad.toml:5:11: error: 'gain_db': expected a number, found a string \"loud\" [song 2/2 'Ballad']"), run.standardError)
        XCTAssertTrue(run.standardError.contains("\(folder)/ballad.toml:6:17: error: send to unknown bus 'mian'; did you mean 'main'? [song 2/2 'Ballad']"), run.standardError)
        XCTAssertTrue(run.standardOutput.contains("song 1/2 'Opener': ok, "), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("song 2/2 'Ballad': 2 errors in \(folder)/ballad.toml"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("friday.toml: 1 of 2 songs have errors"), run.standardOutput)
        XCTAssertFalse(run.standardError.contains("unknown key 'setlist'"), "read as a setlist, not as a preset")
    }

    func testASetlistSafeNoSongHasIsAnError() throws {
        let folder = try showFolder(setlistExtra: "recall_safe = [\"strip/vox\", \"strip/nobody\"]\n")
        try "[[song]]\npreset = \"\(FoldbackProcess.repositoryRoot.appendingPathComponent("presets/vocal-monitor.toml").path)\"\n"
            .write(toFile: folder + "/one.toml", atomically: true, encoding: .utf8)
        let text = try String(contentsOfFile: folder + "/friday.toml", encoding: .utf8)
        try text.replacingOccurrences(of: "preset = \"ballad.toml\"", with: "preset = \"\(FoldbackProcess.repositoryRoot.appendingPathComponent("presets/passthrough.toml").path)\"")
            .write(toFile: folder + "/friday.toml", atomically: true, encoding: .utf8)
        let run = try FoldbackProcess.run(["check", folder + "/friday.toml"])
        XCTAssertEqual(run.status, 2, run.standardError)
        XCTAssertTrue(run.standardError.contains("friday.toml:3:29: error: recall_safe path 'strip/nobody' names no parameter of any song"), run.standardError)
        XCTAssertTrue(run.standardOutput.contains("0 of 2 songs have errors, and the setlist has 1"), run.standardOutput)
    }

    func testRunRefusesASetlistWithABrokenSongUnlessAllowedToSkipIt() throws {
        let folder = try showFolder()
        let refused = try FoldbackProcess.run(["run", "--setlist", folder + "/friday.toml", "--server", "foldback-none-\(getpid())", "--quiet"])
        XCTAssertEqual(refused.status, 2, refused.standardError)
        XCTAssertTrue(refused.standardError.contains("ballad.toml:6:17: error: send to unknown bus 'mian'"), refused.standardError)
        XCTAssertTrue(refused.standardError.contains("fix them, or start with --allow-broken-songs to skip them"), refused.standardError)
        // Allowed: the broken song is skipped with a log line and the show goes on to JACK (none runs here: exit 1).
        let allowed = try FoldbackProcess.run(["run", "--setlist", folder + "/friday.toml", "--allow-broken-songs",
                                              "--server", "foldback-none-\(getpid())", "--quiet"], environment: ["JACK_NO_START_SERVER": "1"])
        XCTAssertTrue(allowed.standardError.contains("foldback: warning: song 2/2 'Ballad': 2 errors in \(folder)/ballad.toml; it will be skipped"), allowed.standardError)
        XCTAssertNotEqual(allowed.status, 2, allowed.standardError)
    }
}
