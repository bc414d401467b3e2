// The MIDI thread sleeps while nothing is connected to midi_in and still hears a sender connected later. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackJACK
import FoldbackJACKTesting
import FoldbackPresets
import XCTest
@testable import foldback
import FoldbackLive
import FoldbackTestSupport

final class MIDIIdleSleepTests: JACKServerTestCase {
    private static let preset = MIDIControlTests.routing + """
        [midi]
          [[midi.cc]]
          cc = 7
          target = "strip.vox.gain_db"
          min = -60
          max = 6
          curve = "linear"
        """

    /// Unconnected, `fb-midi` runs at most twice in 0.5 s (the 10 ms poll ran 50 times); a sender connected then is
    /// heard (its CC 7 = 127 sets the fader to +6 dB, and a second CC on the 10 ms poll past the busy one too); connected, the
    /// poll runs on (at least 20 times in 0.5 s); once the sender is gone, the thread sleeps again.
    func testTheMIDIThreadSleepsUntilSomethingIsConnected() throws {
        let serverName = try serverName
        let preset = try PresetLoader.parse(Self.preset, path: "midi-sleep.toml")
        let session = try LiveSession(preset: preset, clientName: "fb-midi-sleep", serverName: serverName)
        let midi = try session.startMIDI()
        defer {
            midi.stop()
            session.close()
        }
        try waitUntilAsleep(midi)
        XCTAssertLessThanOrEqual(try runs(of: midi, over: 0.5), 2, "runs in 0.5 s with nothing connected")

        let sender = try JACKTestMIDISender(name: "fb-midi-sleep-sender", serverName: serverName)
        XCTAssertNil(sender.connect(to: "\(session.host.actualName):midi_in"))
        XCTAssertTrue(sender.send(.controlChange(channel: 1, controller: 7, value: 127)))
        XCTAssertTrue(sender.waitUntilSent())
        try waitFor("CC 7 = 127 applied") { session.engine.value(at: .stripGain(strip: 0)).map { abs($0 - 6) < 1e-4 } ?? false }
        XCTAssertGreaterThanOrEqual(try runs(of: midi, over: 0.5), 20, "runs in 0.5 s with a sender connected")
        // Past the 1 ms busy poll (2 s after the message), the 10 ms poll runs while connected, as before.
        try waitFor("fb-midi on its idle poll") { try (5...40).contains(runs(of: midi, over: 0.2)) }
        XCTAssertTrue(sender.send(.controlChange(channel: 1, controller: 7, value: 0)))
        XCTAssertTrue(sender.waitUntilSent())
        try waitFor("CC 7 = 0 applied") { session.engine.value(at: .stripGain(strip: 0)).map { abs($0 + 60) < 1e-4 } ?? false }

        sender.close()
        try waitUntilAsleep(midi)
        XCTAssertLessThanOrEqual(try runs(of: midi, over: 0.5), 2, "runs in 0.5 s after the sender left")
    }

    /// Waits (up to 10 s) until the loop has not run for 0.3 s: past the busy poll after a message, asleep.
    private func waitUntilAsleep(_ midi: MIDIInputLoop) throws {
        try waitFor("fb-midi asleep") { try runs(of: midi, over: 0.3) == 0 }
    }

    /// How many times `midi`'s thread ran in the next `seconds` (a measurement window, not a wait for a condition).
    private func runs(of midi: MIDIInputLoop, over seconds: Double) throws -> Int {
        let before = midi.runCount
        Thread.sleep(forTimeInterval: seconds)
        return midi.runCount - before
    }
}
