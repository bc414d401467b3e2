// `foldback run`'s live-control options: help, bad combinations, broken setlists (no JACK needed). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import XCTest

final class RunControlOptionsTests: XCTestCase {
    func testHelpTeachesOSCSetlistsWatchAndMeters() throws {
        let run = try FoldbackProcess.run(["run", "--help"])
        XCTAssertEqual(run.status, 0)
        for expected in [
            "--osc-port", "--setlist", "--watch", "--meters", "SIGHUP", "docs/osc.md", "--web-port", "--web-bind", "docs/web.md", "--qr", "--fresh-tokens", "--x32-port", "no authentication", "docs/x32.md",
        ] {
            XCTAssertTrue(run.standardOutput.contains(expected), "help mentions \(expected)")
        }
        let every = try FoldbackProcess.run(["run", "--help-hidden"]).standardOutput
        for expected in ["--osc-bind", "--allow-dir", "--record-format", "--no-connect", "--xair-port", "--x32-bind", "--allow-broken-songs"] {
            XCTAssertTrue(every.contains(expected), "--help-hidden lists \(expected)")
        }
        let manual = try String(contentsOf: FoldbackProcess.repositoryRoot.appendingPathComponent("docs/run.md"), encoding: .utf8)
        for expected in ["oscsend localhost 9000", "--allow-dir ~/saves", "/foldback/preset/save s ~/saves/soundcheck.toml", "--fresh-tokens", "0600"] {
            XCTAssertTrue(manual.contains(expected), "docs/run.md mentions \(expected)")
        }
    }

    func testAPresetOrASetlistIsNeededButNotBoth() throws {
        let neither = try FoldbackProcess.run(["run"])
        XCTAssertNotEqual(neither.status, 0)
        XCTAssertTrue(neither.standardError.contains("give a preset file, or --setlist FILE"), neither.standardError)
        let passthrough = FoldbackProcess.repositoryRoot.appendingPathComponent("presets/passthrough.toml").path
        let setlist = try FoldbackProcess.temporaryPreset("[[song]]\npreset = \"\(passthrough)\"\n", name: "show.toml")
        let both = try FoldbackProcess.run(["run", "presets/passthrough.toml", "--setlist", setlist])
        XCTAssertNotEqual(both.status, 0)
        XCTAssertTrue(both.standardError.contains("give either a preset file or --setlist, not both"), both.standardError)
    }

    func testABrokenSetlistExitsTwoNamingLineAndColumn() throws {
        let setlist = try FoldbackProcess.temporaryPreset("[[song]]\nname = \"One\"\npreset = \"nowhere.toml\"\n", name: "show.toml")
        let run = try FoldbackProcess.run(["run", "--setlist", setlist])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.standardError.contains("\(setlist):3:10: error: preset 'nowhere.toml' cannot be read"), run.standardError)
    }

    func testABadBindAddressIsRefused() throws {
        let run = try FoldbackProcess.run(["run", "presets/passthrough.toml", "--osc-port", "9000", "--osc-bind", "stage.local"])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.standardError.contains("'stage.local' is not an IPv4 address"), run.standardError)
    }

    func testABadWebBindOrAWebBindWithoutAPortIsRefused() throws {
        let bad = try FoldbackProcess.run(["run", "presets/passthrough.toml", "--web-port", "8080", "--web-bind", "stage.local"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.standardError.contains("--web-bind 'stage.local' is not an IPv4 address"), bad.standardError)
        let portless = try FoldbackProcess.run(["run", "presets/passthrough.toml", "--web-bind", "0.0.0.0"])
        XCTAssertNotEqual(portless.status, 0)
        XCTAssertTrue(portless.standardError.contains("--web-bind needs --web-port"), portless.standardError)
    }

    func testX32OptionsAreCheckedBeforeAnythingStarts() throws {
        for (arguments, expected) in [
            (["--x32-bind", "0.0.0.0"], "--x32-bind needs --x32-port or --xair-port"),
            (["--x32-port", "10023", "--x32-bind", "stage.local"], "--x32-bind 'stage.local' is not an IPv4 address"),
            (["--x32-port", "10023", "--xair-port", "10023"], "--x32-port and --xair-port must differ"),
            (["--x32-port", "70000"], "70000"),
        ] {
            let run = try FoldbackProcess.run(["run", "presets/passthrough.toml"] + arguments)
            XCTAssertNotEqual(run.status, 0, "\(arguments)")
            XCTAssertTrue(run.standardError.contains(expected), "\(arguments): \(run.standardError)")
        }
    }

    func testAnAllowDirThatIsNotAFolderIsRefused() throws {
        let preset = FoldbackProcess.repositoryRoot.appendingPathComponent("presets/passthrough.toml").path
        for bad in ["/nonexistent-foldback-folder", preset] {
            let run = try FoldbackProcess.run(["run", "presets/passthrough.toml", "--osc-port", "9000", "--allow-dir", bad])
            XCTAssertNotEqual(run.status, 0)
            XCTAssertTrue(run.standardError.contains("--allow-dir: '\(bad)' is not an existing folder"), run.standardError)
        }
    }
}
