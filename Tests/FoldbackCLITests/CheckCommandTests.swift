// Tests `foldback check`, `--version` and help by running the built executable. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import XCTest

final class CheckCommandTests: XCTestCase {
    func testCheckingAGoodPresetPrintsItsPortsAndSucceeds() throws {
        let run = try FoldbackProcess.run(["check", "presets/vocal-monitor.toml"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardError, "")
        for port in ["foldback:vox_in", "foldback:backing_in_L", "foldback:backing_in_R",
                     "foldback:main_L", "foldback:main_R", "foldback:iem_vox_L", "foldback:iem_vox_R"] {
            XCTAssertTrue(run.standardOutput.contains(port), "output lacks \(port):\n\(run.standardOutput)")
        }
        XCTAssertTrue(run.standardOutput.contains("1. trim        gain        gain_db=6 polarity=normal"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("curve=\"Vocal Presence\""), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("limiter   ceiling -1.0 dBFS"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("foldback:vox_in  <- system:capture_1"))
        // The latency block: 1.5 ms of lookahead on front of house (72 frames at 48 kHz), none on the in-ear mix.
        XCTAssertTrue(run.standardOutput.contains("Bus 2  iem_vox  (stereo, in-ear)"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("Latency added by Foldback at 48000 Hz"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("  main      1.50 ms (72 frames)  = strips 0 + limiter lookahead 72"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("  iem_vox*  0.00 ms (0 frames)  = strips 0 + zero-latency limiter 0"), run.standardOutput)
    }

    func testParametersListsTheTreeWithRangesDefaultsAndWhoMaySetThem() throws {
        let run = try FoldbackProcess.run(["check", "presets/monitor-console.toml", "--parameters"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let lines = run.standardOutput.split(separator: "\n")
        XCTAssertTrue(lines.first?.hasPrefix("Parameters  (") ?? false, run.standardOutput)
        func line(_ path: String) -> String { lines.first { $0.hasPrefix("  \(path) ") }.map(String.init) ?? "" }
        XCTAssertTrue(line("strip/vox/gain_db").contains("-inf … 24 dB"), run.standardOutput)
        XCTAssertTrue(line("strip/vox/send/iem_vox/gain_db").hasSuffix("engineer, musician of iem_vox"), run.standardOutput)
        XCTAssertTrue(line("bus/wedge/limiter_ceiling_db").contains("-30 … 0 dB"), run.standardOutput)
        XCTAssertTrue(line("bus/wedge/limiter_ceiling_db").contains(" default -3 "), run.standardOutput)
        XCTAssertTrue(line("strip/vox/unit/comp/detection").contains("peak|rms"), run.standardOutput)
        XCTAssertFalse(run.standardOutput.contains("Latency added"), "the listing replaces the chain report")
    }

    func testClientNameOptionRenamesThePorts() throws {
        let run = try FoldbackProcess.run(["check", "--client-name", "mon", "presets/passthrough.toml"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardOutput.contains("mon:input_in_L  <- system:capture_1"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("mon:main_R  -> system:playback_2"), run.standardOutput)
    }

    func testCheckingABrokenPresetExitsTwoWithEveryLocatedError() throws {
        let path = try FoldbackProcess.temporaryPreset("""
            [[bus]]
            name = "main"
            [[strip]]
            name = "vox"
            gain_bd = 3
              [[strip.send]]
              bus = "mian"
            """)
        let run = try FoldbackProcess.run(["check", path])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.standardOutput, "")
        let lines = run.standardError.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines, [
            "\(path):5:1: error: unknown key 'gain_bd' in [[strip]]; did you mean 'gain_db'?",
            "\(path):7:9: error: send to unknown bus 'mian'; did you mean 'main'?",
            "foldback: \(path) has 2 errors",
        ])
    }

    /// A binaural bus's listener that no `[stage]` player has: the error at its line and column, exit status 2.
    func testAnUnknownStageListenerExitsTwoAtItsLine() throws {
        let path = try FoldbackProcess.temporaryPreset("""
            [[bus]]
            name = "iem"
            binaural = true
            listener = "bas"
            [[strip]]
            name = "vox"
              [[strip.send]]
              bus = "iem"
            [[stage.player]]
            name = "bass"
            x_m = 1
            y_m = 0
            """)
        let run = try FoldbackProcess.run(["check", path])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.standardError.split(separator: "\n").map(String.init), [
            "\(path):4:12: error: no stage player named 'bas'; did you mean 'bass'?", "foldback: \(path) has 1 error",
        ])
    }

    func testSyntaxErrorsAndMissingFilesExitTwo() throws {
        let path = try FoldbackProcess.temporaryPreset("[[bus]\nname = \"main\"\n")
        let syntax = try FoldbackProcess.run(["check", path])
        XCTAssertEqual(syntax.status, 2)
        XCTAssertTrue(syntax.standardError.hasPrefix("\(path):1:"), syntax.standardError)
        XCTAssertTrue(syntax.standardError.contains("error: TOML syntax error"), syntax.standardError)

        let missing = try FoldbackProcess.run(["check", "no/such/preset.toml"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.standardError.contains("no/such/preset.toml: error: cannot read preset"), missing.standardError)
        XCTAssertTrue(missing.standardError.contains("No such file or directory"), missing.standardError)
    }

    func testWarningsArePrintedButDoNotFail() throws {
        let path = try FoldbackProcess.temporaryPreset("[[bus]]\nname = \"main\"\n[[strip]]\nname = \"vox\"\n")
        let run = try FoldbackProcess.run(["check", path])
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.standardError.contains("\(path):3:1: warning: strip 'vox' has no sends"), run.standardError)
        XCTAssertTrue(run.standardOutput.contains("foldback:vox_in"))
    }

    func testQuietPrintsNothingForAGoodPreset() throws {
        let run = try FoldbackProcess.run(["check", "--quiet", "presets/passthrough.toml"])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.standardOutput, "")
        XCTAssertEqual(run.standardError, "")
    }

    func testUsageMistakesExitTwo() throws {
        let missing = try FoldbackProcess.run(["check"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.standardError.contains("Missing expected argument '<preset>'"), missing.standardError)
        let unknown = try FoldbackProcess.run(["check", "--loud", "presets/passthrough.toml"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.standardError.contains("--loud"), unknown.standardError)
    }

    func testVersion() throws {
        let run = try FoldbackProcess.run(["--version"])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines), "0.1.0")
    }

    func testHelpTeachesWithExamples() throws {
        let check = try FoldbackProcess.run(["check", "--help"])
        XCTAssertEqual(check.status, 0)
        XCTAssertTrue(check.standardOutput.contains("EXAMPLES"), check.standardOutput)
        XCTAssertTrue(check.standardOutput.contains("foldback check presets/vocal-monitor.toml"), check.standardOutput)
        XCTAssertTrue(check.standardOutput.contains("file:line:column"), check.standardOutput)

        let root = try FoldbackProcess.run(["--help"])
        XCTAssertEqual(root.status, 0)
        for text in ["check", "run", "foldback run presets/vocal-monitor.toml", "docs/presets.md"] {
            XCTAssertTrue(root.standardOutput.contains(text), "root help lacks '\(text)'")
        }
    }
}
