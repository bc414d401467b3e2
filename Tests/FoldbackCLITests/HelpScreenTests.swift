// Every verb's --help fits a screen (what it does, its common options, two examples) and the top-level help lists the verbs once. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import XCTest

final class HelpScreenTests: XCTestCase {
    /// The most lines a verb's `--help` may take at 80 columns: one screen of a laptop's terminal.
    static let screenLines = 50

    /// Each verb's help at 80 columns (ArgumentParser wraps to the terminal, 80 when it is a pipe): at most
    /// ``screenLines`` lines, no line past 80 columns, USAGE within them, and an EXAMPLES section of two commands.
    func testEveryVerbsHelpFitsAScreenWithTwoExamples() throws {
        for verb in ["run", "check", "render", "bench", "curves", "plugins", "plugin"] {
            let help = try FoldbackProcess.run([verb, "--help"], environment: ["COLUMNS": "80"])
            XCTAssertEqual(help.status, 0, help.standardError)
            let lines = help.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            print("foldback \(verb) --help: \(lines.count) lines, USAGE at line \((lines.firstIndex { $0.hasPrefix("USAGE") } ?? -1) + 1)")
            XCTAssertLessThanOrEqual(lines.count, Self.screenLines, "\(verb) --help:\n\(help.standardOutput)")
            // ArgumentParser wraps all but its USAGE line to the width (and may leave one character over).
            XCTAssertLessThanOrEqual(lines.filter { !$0.hasPrefix("USAGE:") }.map(\.count).max() ?? 0, 81, "\(verb) --help fits 80 columns")
            guard let examples = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "EXAMPLES" }) else {
                XCTFail("\(verb) --help has no EXAMPLES")
                continue
            }
            let commands = lines[(examples + 1)...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                .filter { $0.hasPrefix("  ") && $0.contains("foldback ") }
            XCTAssertEqual(commands.count, 2, "\(verb): two examples: \(commands)")
        }
    }

    /// The top-level help names each verb once (its SUBCOMMANDS list), with the two examples to start from.
    func testTheTopLevelHelpListsEachVerbOnce() throws {
        let help = try FoldbackProcess.run(["--help"], environment: ["COLUMNS": "80"])
        let lines = help.standardOutput.split(separator: "\n").map(String.init)
        XCTAssertLessThanOrEqual(lines.count, Self.screenLines, help.standardOutput)
        for verb in ["run", "check", "render", "bench", "curves", "plugins", "plugin"] {
            let listings = lines.filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix(verb + " ") && !$0.contains("foldback ") }
            XCTAssertEqual(listings.count, 1, "'\(verb)' listed once: \(listings)")
        }
    }

    /// What left `run --help` is kept: every option in `--help-hidden`, the long story in docs/run.md, which
    /// the help names.
    func testTheLongStoryOfRunIsInTheManual() throws {
        let help = try FoldbackProcess.run(["run", "--help"]).standardOutput
        XCTAssertTrue(help.contains("docs/run.md") && help.contains("--help-hidden"), help)
        let every = try FoldbackProcess.run(["run", "--help-hidden"]).standardOutput
        for option in ["--threads", "--master", "--net-latency", "--rate", "--period", "--show-minutes", "--record-strips", "--soundcheck", "--osc-bind", "--allow-dir"] {
            XCTAssertTrue(every.contains(option), "--help-hidden lists \(option)")
            XCTAssertFalse(help.contains(option + " "), "--help leaves the rarer \(option) out")
        }
        let manual = try String(contentsOf: FoldbackProcess.repositoryRoot.appendingPathComponent("docs/run.md"), encoding: .utf8)
        for part in ["## Under a session manager", "## Threads", "## JACK servers", "## Recording and file sources", "## The web pages and their links", "## The status line"] {
            XCTAssertTrue(manual.contains(part), "docs/run.md has \(part)")
        }
    }
}
