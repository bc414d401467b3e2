// A plugin left bypassed after three faults, re-enabled over OSC with liblo's oscsend: its state and its audio come back. Non-realtime (test thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACKTesting
import FoldbackTestSupport
import Foundation
import XCTest

/// `foldback run --osc-port 0` with strip `vox` (a 1 kHz tone at −18 dBFS) through the faulty bundle's segfaulting
/// plugin at gain 0.25 (−12.04 dB), `isolation = "unit"`, into bus `mix`. The plugin crashes 1.5 s after each start,
/// so three faults leave it bypassed: `faulted` reads 1 over OSC and the tone passes at 0 dB. liblo's `oscsend`
/// (Debian liblo-tools, a client Foldback did not write) sends `faulted` 0: it reads 0 again within 1 s and the tone
/// is back at −12.04 dB, the plugin's gain, within 3 s (once its new sandbox runs and it has faded back in).
final class SandboxReenableOverOSCTests: JACKServerTestCase {
    static let faulted = "/foldback/strip/vox/unit/crash/faulted"

    func testAPluginLeftBypassedIsReenabledOverOSCAndPlaysAgain() throws {
        let name = "fb-reen-\(getpid())"
        let player = try JACKTestPlayer(name: "\(name)-player", serverName: serverName, signals: [.sine(frequency: 1000, level: -18)])
        defer { player.close() }
        let run = try StuckCycleScenario.show(named: name, serverName: serverName, testBundle: Bundle(for: Self.self), preset: StuckCycleScenario.faultyVox(
            .segfault, connect: "\(name)-player:out_1",
            unitKeys: ["id = \"crash\"", "isolation = \"unit\"", "controls = { fault_after_s = 1.5, gain = 0.25 }"]), arguments: ["--osc-port", "0"])
        defer { run.stop() }
        let osc = try OSCClient(serverPort: try run.announcedOSCPort())
        let recorder = try JACKTestRecorder(name: "\(name)-recorder", serverName: serverName, channels: 1, seconds: 2)
        defer { recorder.close() }
        XCTAssertNil(recorder.connect(from: "\(name):mix", toChannel: 0))
        func faulted() throws -> Float? { try osc.request(OSCMessage("\(Self.faulted)/get"), timeout: 2)?.arguments.first?.number }
        /// The tone's level on `mix` relative to the −18 dBFS played (dB), from 0.1 s after a 0.05 s settle.
        func gainDB() throws -> Double {
            let rate = Double(Self.sampleRate)
            let take = try recorder.record(frames: Int(rate / 10), settleFrames: Int(rate / 20), timeout: 10, requiresContinuity: true)
            let samples = take.channels[0]
            let rms = sqrt(samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count))
            return 20 * log10(rms * 2.0.squareRoot() / pow(10, -18.0 / 20))
        }

        try waitFor("faulted reads 0 while the plugin plays", timeout: 10) { try faulted() == 0 }
        let playing = try gainDB()
        try waitFor("three crashes leave the plugin bypassed", timeout: 20) { run.standardError.contains("stays bypassed") }
        XCTAssertEqual(try faulted(), 1, "faulted reads 1 over OSC while it stays bypassed")
        let bypassed = try gainDB()

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["oscsend", "127.0.0.1", String(try run.announcedOSCPort()), Self.faulted, "i", "0"]
        let sent = Date()
        try process.run()
        XCTAssertTrue(process.waitUntilExit(within: 10), "oscsend ended")
        XCTAssertEqual(process.terminationStatus, 0, "oscsend (Debian liblo-tools) ran")
        try waitFor("faulted reads 0 again", timeout: 2) { try faulted() == 0 }
        let back = Date().timeIntervalSince(sent)
        // The flag clears at once; the sound follows once the new sandbox has started and the plugin faded back in
        // (about 0.1 s, longer on a loaded machine): the level is read until it is the plugin's, for up to 3 s.
        var reenabled = try gainDB()
        while abs(reenabled - 20 * log10(0.25)) > 0.1, Date().timeIntervalSince(sent) < 3 { reenabled = try gainDB() }
        let heard = Date().timeIntervalSince(sent)
        print("Re-enabled over OSC: faulted 0 again \(Int(back * 1000)) ms after oscsend, the plugin heard again within \(Int(heard * 1000)) ms; "
              + "tone through the plugin \(String(format: "%.2f", playing)) dB, bypassed \(String(format: "%.2f", bypassed)) dB, re-enabled \(String(format: "%.2f", reenabled)) dB")
        XCTAssertEqual(playing, 20 * log10(0.25), accuracy: 0.1, "before its faults the plugin plays at its gain, 0.25")
        XCTAssertEqual(bypassed, 0, accuracy: 0.1, "left bypassed: its input passes through")
        XCTAssertLessThan(back, 1, "back within 1 s of the re-enable")
        XCTAssertEqual(reenabled, 20 * log10(0.25), accuracy: 0.1, "re-enabled, the plugin plays at its gain again")
        XCTAssertTrue(run.standardError.contains("re-enabled"), run.standardError)
        XCTAssertTrue(run.process.isRunning, "Foldback never exits")
    }
}
