// `foldback run` measuring bus loudness and in-ear dose live on a dummy jackd: OSC meter messages, the dose warning. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACK
import Foundation
import XCTest

final class LoudnessEndToEndTests: XCTestCase {
    /// A −23 dBFS 1 kHz sine into a mono in-ear bus (dual mono: heard by both ears) reads −23.0 LUFS
    /// momentary and short-term within ±0.1 LU over OSC meter subscriptions once the 3 s window is full,
    /// its true peak −23 dBTP within 0.2 dB; the dose message grows; and a 24-hour show projects the dose
    /// (about 89 dB SPL at the ear) past 100 %, which the log warns about.
    func testInEarBusLoudnessDoseAndWarning() throws {
        guard JACKServerLauncher.jackdPath() != nil else { throw XCTSkip("jackd is not installed") }
        let serverName = JACKServerLauncher.uniqueServerName(prefix: "fbloud")
        let server = try JACKServerLauncher(serverName: serverName, timeout: 20)
        defer { server.stop() }
        let folder = try LiveControlRig.temporaryFolder()
        let preset = folder + "/iem.toml"
        try """
            [[bus]]
            name = "main"
            channels = 1
            limiter = false
            in_ear = true
            [[strip]]
            name = "vox"
              [[strip.send]]
              bus = "main"
            """.write(toFile: preset, atomically: true, encoding: .utf8)
        let rig = try LiveControlRig(
            server: serverName, arguments: [preset, "--show-minutes", "1440"], signal: .sine(frequency: 1_000, level: -23), testCase: self)
        defer { rig.close() }
        XCTAssertEqual(try rig.request("/foldback/meters/subscribe", [.float(20)]), OSCMessage("/foldback/meters/subscribed", [.float(20)]))
        let start = Date()
        var settled: [OSCMessage] = []
        var doses: [Float] = []
        while settled.count < 20 {
            guard Date().timeIntervalSince(start) < 30, let message = rig.osc.receive(timeout: 5) else {
                return XCTFail("loudness messages stopped; foldback:\n\(rig.run.standardError)")
            }
            if message.path == "/foldback/meters/dose/main", let dose = message.arguments.first?.number { doses.append(dose) }
            // The short-term window (3 s) is full once the signal has played that long.
            guard message.path == "/foldback/meters/loudness/main", Date().timeIntervalSince(start) > 3.5 else { continue }
            settled.append(message)
        }
        for message in settled {
            XCTAssertEqual(message.arguments.count, 4)
            XCTAssertEqual(try XCTUnwrap(message.arguments[0].number), -23, accuracy: 0.1, "momentary")
            XCTAssertEqual(try XCTUnwrap(message.arguments[1].number), -23, accuracy: 0.1, "short-term")
            XCTAssertEqual(try XCTUnwrap(message.arguments[2].number), -23, accuracy: 0.1, "integrated")
        }
        let peaks = settled.compactMap { $0.arguments[3].number }.filter { $0 > -100 }
        XCTAssertEqual(try XCTUnwrap(peaks.max()), -23, accuracy: 0.2, "true peak")
        XCTAssertGreaterThan(doses.count, 10)
        XCTAssertGreaterThan(try XCTUnwrap(doses.last), try XCTUnwrap(doses.first), "the dose grows while the mix plays")
        try rig.waitForLog("warning: in-ear bus 'main' is heading for")
        XCTAssertTrue(rig.run.standardError.contains("1440-minute show"), rig.run.standardError)
    }
}
