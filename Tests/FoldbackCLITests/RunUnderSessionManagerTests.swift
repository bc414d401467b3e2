// `foldback run` under a session manager refuses what the session decides (--name, --setlist) with exit 2 (no JACK needed). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import XCTest

final class RunUnderSessionManagerTests: XCTestCase {
    private let manager = ["NSM_URL": "osc.udp://127.0.0.1:9/"]

    func testNameAndSetlistAreRefusedWithExitTwo() throws {
        let passthrough = FoldbackProcess.repositoryRoot.appendingPathComponent("presets/passthrough.toml").path
        let setlist = try FoldbackProcess.temporaryPreset("[[song]]\npreset = \"\(passthrough)\"\n", name: "show.toml")
        for (arguments, message) in [
            (["run", "presets/passthrough.toml", "--name", "monitors"], "foldback: --name cannot be used under a session manager (NSM_URL is set)"),
            (["run", "--setlist", setlist], "foldback: --setlist cannot be used under a session manager (NSM_URL is set)"),
        ] {
            let run = try FoldbackProcess.run(arguments, environment: manager)
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.standardError)")
            XCTAssertTrue(run.standardError.contains(message), "\(arguments): \(run.standardError)")
        }
    }

    func testAnNSMURLThatNamesNoManagerIsRefusedWithExitTwo() throws {
        let run = try FoldbackProcess.run(["run", "presets/passthrough.toml"], environment: ["NSM_URL": "tcp://nowhere"])
        XCTAssertEqual(run.status, 2, run.standardError)
        XCTAssertTrue(run.standardError.contains("NSM_URL 'tcp://nowhere' is not the osc.udp://host:port/ address"), run.standardError)
    }

    /// `run --help` points to docs/run.md, whose session-manager section says how the show runs there.
    func testTheManualSaysEveryOptionWorksUnderASessionManager() throws {
        XCTAssertTrue(try FoldbackProcess.run(["run", "--help"]).standardOutput.contains("docs/run.md"))
        let manual = try String(contentsOf: FoldbackProcess.repositoryRoot.appendingPathComponent("docs/run.md"), encoding: .utf8)
        let text = manual.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for expected in ["runs the same show", "Every other option works as without a session manager", "'--name' and '--setlist' are refused"] {
            XCTAssertTrue(text.contains(expected), "docs/run.md says \(expected)")
        }
    }
}
