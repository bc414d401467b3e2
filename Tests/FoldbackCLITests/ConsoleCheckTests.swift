// `foldback check` and `foldback render` on a console: bus units (a wedge's feedback suppressor among them), an effect bus and its return, aligned paths, send loops. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import XCTest

final class ConsoleCheckTests: XCTestCase {
    func testTheMonitorConsolePresetChecksWithItsPathsAndCompensation() throws {
        let run = try FoldbackProcess.run(["check", "presets/monitor-console.toml"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardError, "")
        let output = run.standardOutput
        for line in [
            "Client      foldback: 3 input ports, 7 output ports",
            "Bus 5  verb  (stereo, effect bus)",
            "outputs   (none: output = false)",
            "return    <- bus verb (effect return: no input ports)",
            "1. ring_out  geq       gain_db=0 g20=-15 g25=-15 g31_5=-12 g40=-9 g50=-6 g63=0",
            "2. fbx       feedback  mode=live max_depth_db=-15 hold_s=20",     // the wedge's live suppressor, after its ring-out EQ
            "2. align  delay       delay_ms=9.912537",
            // The vocal's 2 ms lookahead (96 frames) is the slowest path: the guitar is delayed to match it…
            "  foh       3.50 ms (168 frames)  = strips 96 + limiter lookahead 72",
            "path gtr: 0 frames + 96 compensation",
            // …except on the guitarist's in-ear, which keeps the guitar at zero latency.
            "  iem_gtr*  0.00 … 2.00 ms (0 … 96 frames)",
            "path gtr: 0 frames not compensated (compensate = false)",
        ] {
            XCTAssertTrue(output.contains(line), "output lacks '\(line)':\n\(output)")
        }
    }

    func testASendLoopExitsTwoAtTheReturn() throws {
        let path = try FoldbackProcess.temporaryPreset("""
            [[bus]]
            name = "verb"
            output = false
            [[strip]]
            name = "vox_verb"
            return = "verb"
              [[strip.send]]
              bus = "verb"
            """)
        let run = try FoldbackProcess.run(["check", path])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.standardError.hasPrefix(
            "\(path):6:10: error: send loop: vox_verb → verb → vox_verb"), run.standardError)
    }

    /// Offline render: a bus gain unit and an effect return at −12 dB show in the rendered bus level.
    func testRenderRunsBusUnitsAndReturns() throws {
        let files = try RenderFixtures()
        defer { files.remove() }
        let take = try files.write("take.wav", [RenderFixtures.sine(48_000, frequency: 1000, rate: 48_000, amplitude: 0.25)])
        let preset = try files.preset("console.toml", """
            [[bus]]
            name = "main"
            channels = 1
            limiter = false
              [[bus.unit]]
              type = "gain"
              gain_db = -6
            [[bus]]
            name = "fx"
            channels = 1
            output = false
              [[bus.unit]]
              type = "gain"
              gain_db = -6
            [[strip]]
            name = "vox"
              [[strip.send]]
              bus = "main"
              [[strip.send]]
              bus = "fx"
            [[strip]]
            name = "fx_ret"
            return = "fx"
              [[strip.send]]
              bus = "main"
              gain_db = -6
            """)
        let run = try FoldbackProcess.run(["render", preset, "-i", "vox=\(take)", "-o", "main=\(files.path("out.wav"))", "--tail", "0"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let output = try files.read("out.wav").channels[0]
        let peak = output[12_000..<36_000].map(abs).max() ?? 0
        // dry 1 + return (−6 fx unit, −6 send) = 1.2512, then the bus unit's −6 dB.
        let expected = 0.25 * (1 + Decibels.linearGain(fromDecibels: -12)) * Decibels.linearGain(fromDecibels: -6)
        XCTAssertEqual(peak, expected, accuracy: 0.001)
        let effect = try FoldbackProcess.run(["render", preset, "-i", "vox=\(take)", "-o", "fx=\(files.path("fx.wav"))"])
        XCTAssertEqual(effect.status, 2)
        XCTAssertTrue(effect.standardError.contains("bus 'fx' is an effect bus"), effect.standardError)
    }
}
