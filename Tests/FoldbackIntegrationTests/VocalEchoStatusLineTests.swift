// The live status line of `foldback run --setlist presets/setlists/vocal-echo.toml`: the show tempo with its source, and the de-esser's band reduction as a compressor's GR. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackJACKTesting
import FoldbackTestSupport
import Foundation
import XCTest

final class VocalEchoStatusLineTests: JACKServerTestCase {
    /// The shipped vocal-echo setlist (first song 128 BPM) with a 7 kHz sine at −10 dBFS (a held "s") into the voice: the status
    /// line (standard output, not a terminal: a line every 5 s) says `♩ 128.0 BPM (setlist)` and `vox/deesser GR` at least 6 dB
    /// (the preset's de-esser: 7 kHz, threshold −30 dBFS, range 10 dB).
    func testTheStatusLineShowsTheTempoItsSourceAndTheDeessersReduction() throws {
        let name = "fb-vestatus-\(getpid())"
        let setlist = ConsolePageBrowserTests.presetPath("setlists/vocal-echo.toml")
        let player = try JACKTestPlayer(name: "\(name)-player", serverName: serverName, signals: [.sine(frequency: 7_000, level: -10)])
        defer { player.close() }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).out")
        XCTAssertTrue(FileManager.default.createFile(atPath: output.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try FoldbackRun(["run", "--setlist", setlist, "--server", serverName, "--name", name, "--no-connect", "--threads", "1"],
                                  testBundle: Bundle(for: Self.self), standardOutput: try FileHandle(forWritingTo: output))
        defer { run.stop() }
        try run.waitUntilRunning()
        XCTAssertNil(player.connect(channel: 0, to: "\(name):vox_in"))
        func lines() -> [Substring] { ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n") }
        /// The de-esser's reduction on a status line, dB (negative), if shown.
        func reduction(_ line: Substring) -> Double? {
            guard let range = line.range(of: #"vox/deesser GR +-?[0-9.]+ dB"#, options: .regularExpression) else { return nil }
            return Double(line[range].dropFirst("vox/deesser GR".count).dropLast(" dB".count).trimmingCharacters(in: .whitespaces))
        }
        try waitFor("a status line with the tempo and the de-esser reducing 6 dB or more", timeout: 20) {
            lines().contains { $0.contains("♩ 128.0 BPM (setlist)") && (reduction($0) ?? 0) <= -6 }
        }
        let line = try XCTUnwrap(lines().last { $0.contains("♩ 128.0 BPM (setlist)") && (reduction($0) ?? 0) <= -6 })
        print("VocalEchoStatusLineTests: \(line)")
        XCTAssertEqual(try XCTUnwrap(reduction(line)), -10, accuracy: 4, "about the preset's 10 dB range")
    }
}
