// `--threads N` of `foldback run` and `foldback bench --live`: taught by --help, refused outside 1…CPUs with exit 2 (no JACK needed). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import XCTest

final class RenderThreadsOptionTests: XCTestCase {
    func testHelpTeachesThreads() throws {
        let run = try FoldbackProcess.run(["run", "--help-hidden"])   // a rarer option: listed with every option
        XCTAssertEqual(run.status, 0)
        let text = run.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")   // as wrapped for any width
        XCTAssertTrue(text.contains("--threads <N>") && text.contains("bit-identical"), "run --help-hidden lists --threads: \(text)")
        let manual = try String(contentsOf: FoldbackProcess.repositoryRoot.appendingPathComponent("docs/run.md"), encoding: .utf8)
        for expected in ["bit-identical", "JACK's thread API", "bench --live --threads 2"] {
            XCTAssertTrue(manual.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(expected), "docs/run.md mentions \(expected)")
        }
        let bench = try FoldbackProcess.run(["bench", "--help"])
        XCTAssertTrue(bench.standardOutput.contains("--threads <N>"), bench.standardOutput)
        XCTAssertTrue(bench.standardOutput.contains("foldback bench --live --threads 2"), bench.standardOutput)
    }

    func testNoThreadsOrMoreThanTheCPUsExitTwo() throws {
        let cpus = ProcessInfo.processInfo.activeProcessorCount
        for (arguments, message) in [
            (["run", "presets/passthrough.toml", "--threads", "0"], "--threads must be at least 1 (got 0)"),
            (["run", "presets/passthrough.toml", "--threads", "\(cpus + 1)"], "--threads \(cpus + 1) is more than the \(cpus) CPU"),
            (["bench", "--live", "--threads=-1"], "--threads must be at least 1 (got -1)"),
            (["bench", "--live", "--threads", "\(cpus + 5)"], "use 1…\(cpus)"),
        ] {
            let run = try FoldbackProcess.run(arguments)
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.standardError)")
            XCTAssertTrue(run.standardError.contains(message), "\(arguments): \(run.standardError)")
        }
    }

    func testThreadsWithoutLiveIsRefusedByBench() throws {
        guard ProcessInfo.processInfo.activeProcessorCount >= 2 else { throw XCTSkip("one CPU: --threads 2 is refused anyway") }
        let run = try FoldbackProcess.run(["bench", "--threads", "2"])
        XCTAssertEqual(run.status, 2, run.standardError)
        XCTAssertTrue(run.standardError.contains("--threads needs --live"), run.standardError)
    }
}
