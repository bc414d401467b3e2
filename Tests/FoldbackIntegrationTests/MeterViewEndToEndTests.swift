// `foldback run --meters` on a pseudo-terminal: about 20 redraws a second, in place, one clear only; a terminal that stops reading never keeps Ctrl-C from ending the run. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackTestSupport
import Foundation
import XCTest

final class MeterViewEndToEndTests: JACKServerTestCase {
    func testTheMeterViewRedrawsInPlaceAboutTwentyTimesASecondWithoutClearing() throws {
        let pty = try PseudoTerminal()
        pty.startReading()
        let run = try startMeters(on: pty, name: "fb-meters-\(getpid())")
        defer { run.stop() }
        let home = "\u{1B}[H"
        try waitFor("the first frame", timeout: 20) { pty.screen.contains(home) }
        let framesBefore = pty.screen.components(separatedBy: home).count
        let start = Date()
        try waitFor("two seconds of frames", timeout: 10) { Date().timeIntervalSince(start) >= 2 }
        let text = pty.screen
        let frames = text.components(separatedBy: home).count - framesBefore
        XCTAssertEqual(Double(frames), 40, accuracy: 14, "cursor-home redraws in about 2 s (20 Hz)")
        XCTAssertEqual(text.components(separatedBy: "\u{1B}[2J").count - 1, 1, "the screen is cleared once, never per frame")
        XCTAssertTrue(text.contains("\u{1B}[K"), "each line is cleared to its end as it is rewritten")
        for expected in ["DSP", "xruns", "latency  main +0.00 ms, rt 0.00 ms", "strips (pre-fader)", "vox", "buses", "main", "dBFS"] {
            XCTAssertTrue(text.contains(expected), "the view shows '\(expected)'")
        }
        run.stop()
        XCTAssertEqual(run.process.terminationStatus, 0)
    }

    /// Ctrl-S, a stalled ssh link or a pseudo-terminal nobody drains stop the terminal taking output; the view
    /// drops frames and Ctrl-C (SIGINT) still ends the run at once, with status 0.
    func testATerminalThatStopsReadingDoesNotKeepCtrlCFromEndingTheRun() throws {
        let pty = try PseudoTerminal()   // never read: its buffer fills within a few dozen frames
        let run = try startMeters(on: pty, name: "fb-stalled-\(getpid())")
        defer { run.stop() }
        // 6 s of frames at 20 Hz is several times what a pseudo-terminal buffers.
        let start = Date()
        try waitFor("six seconds of undrained frames", timeout: 10) { Date().timeIntervalSince(start) >= 6 }
        XCTAssertTrue(run.process.isRunning, "the mix goes on while the terminal is stalled")
        let signalled = Date()
        XCTAssertTrue(run.process.stop(within: 5), "SIGINT ends the run within 5 s although the terminal takes nothing")
        XCTAssertLessThan(Date().timeIntervalSince(signalled), 2.5, "the run waits at most a second for the terminal")
        XCTAssertEqual(run.process.terminationStatus, 0, run.standardError)
    }

    private func startMeters(on pty: PseudoTerminal, name: String) throws -> FoldbackRun {
        let preset = try LiveControlRig.temporaryFolder() + "/vox.toml"
        try LiveControlRig.writePreset(to: preset, voxGainDB: 0)
        let run = try FoldbackRun(
            ["run", preset, "--server", serverName, "--no-connect", "--name", name, "--meters"],
            testBundle: Bundle(for: Self.self), standardOutput: pty.terminal, standardInput: pty.terminal)
        try run.waitUntilRunning()
        pty.closeChildSide()
        return run
    }
}
