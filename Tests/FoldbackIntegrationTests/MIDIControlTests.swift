// MIDI control end to end: CCs from a JACK MIDI client move mapped parameters, program changes and MIDI learn. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackJACK
import FoldbackJACKTesting
import FoldbackPresets
import Synchronization
import XCTest
@testable import foldback
import FoldbackLive
import FoldbackTestSupport

final class MIDIControlTests: JACKServerTestCase {
    /// A mono strip `vox` (with a `gain` unit `trim`) sent to a mono bus `main` without a limiter.
    static let routing = """
        [[bus]]
        name = "main"
        channels = 1
        limiter = false

        [[strip]]
        name = "vox"
          [[strip.unit]]
          type = "gain"
          id = "trim"
          [[strip.send]]
          bus = "main"

        """

    private static let preset = routing + """
        [midi]
        program_channel = 1
          [[midi.cc]]
          cc = 7
          target = "strip.vox.gain_db"
          min = -60
          max = 6
          curve = "db"
          [[midi.cc]]
          channel = 2
          cc = 20
          target = "strip.vox.unit.trim.gain_db"
          min = -24
          max = 24
          curve = "linear"
          [[midi.cc]]
          cc = 64
          target = "strip.vox.mute"
          mode = "toggle"
        """

    /// A live session of the test preset, a sine into `vox`, a recorder on `main` and a MIDI sender on `midi_in`.
    private final class MIDIRig {
        let session: LiveSession
        let midi: MIDIInputLoop
        let probe: JACKTestClient
        let sender: JACKTestMIDISender

        init(serverName: String, clientName: String) throws {
            let preset = try PresetLoader.parse(MIDIControlTests.preset, path: "midi-test.toml")
            session = try LiveSession(preset: preset, clientName: clientName, serverName: serverName)
            midi = try session.startMIDI()
            probe = try JACKTestClient(
                serverName: serverName, signals: [.sine(frequency: 1_000, level: -20)], recordChannels: 1,
                capacity: 16_384, namePrefix: "\(clientName)-probe")
            sender = try JACKTestMIDISender(name: "\(clientName)-midi", serverName: serverName)
            let name = session.host.actualName
            XCTAssertEqual(probe.connectPlayer(to: ["\(name):vox_in"]), [])
            XCTAssertEqual(probe.connectRecorder(from: ["\(name):main"]), [])
            XCTAssertNil(sender.connect(to: "\(name):midi_in"))
        }

        /// The RMS level of `main`, in dBFS.
        func level() throws -> Double { try settledLevel(probe) }

        /// Sends `message` and waits until the engine has taken the value it maps to at `address`.
        func send(_ message: MIDIMessage, until address: ParameterAddress, is expected: Float) throws {
            XCTAssertTrue(sender.send(message))
            XCTAssertTrue(sender.waitUntilSent())
            try waitFor("\(address) = \(expected)") { session.engine.value(at: address).map { abs($0 - expected) < 1e-4 } ?? false }
        }

        func close() {
            sender.close()
            probe.close()
            midi.stop()
            session.close()
        }
    }

    func testControlChangesMoveTheirParametersThroughTheMappedCurves() throws {
        let rig = try MIDIRig(serverName: try serverName, clientName: "fb-midi-cc")
        defer { rig.close() }
        let reference = try rig.level()
        let fader = try XCTUnwrap(rig.session.preset.midi.control(channel: 1, controller: 7))
        for value in [127, 100, 64, 20] {
            let expectedDB = fader.parameterValue(forControllerValue: value)
            try rig.send(.controlChange(channel: 1, controller: 7, value: value), until: .stripGain(strip: 0), is: expectedDB)
            let measured = try rig.level() - reference
            XCTAssertEqual(measured, Double(expectedDB), accuracy: 0.1, "CC 7 = \(value)")
        }
        // CC 127 on the dB curve is the top of the range; CC 64 sits near unity, as on a console fader.
        XCTAssertEqual(fader.parameterValue(forControllerValue: 127), 6, accuracy: 1e-4)
        XCTAssertEqual(fader.parameterValue(forControllerValue: 64), 0.05, accuracy: 0.05)

        // The trim on channel 2, linear −24…+24 dB, on top of the fader at CC 20's level.
        let faderDB = Double(fader.parameterValue(forControllerValue: 20))
        try rig.send(.controlChange(channel: 2, controller: 20, value: 96), until: .unitParameter(strip: 0, unit: 0, parameter: 0),
                     is: -24 + 48 * 96 / 127)
        XCTAssertEqual(try rig.level() - reference, faderDB + (-24 + 48 * 96 / 127.0), accuracy: 0.1)
        // The same controller on another channel is not mapped and changes nothing.
        XCTAssertTrue(rig.sender.send(.controlChange(channel: 3, controller: 20, value: 0)))
        XCTAssertTrue(rig.sender.waitUntilSent())
        XCTAssertEqual(try rig.level() - reference, faderDB + (-24 + 48 * 96 / 127.0), accuracy: 0.1)
    }

    func testAToggledMuteFlipsOnEachPressAndIgnoresTheRelease() throws {
        let rig = try MIDIRig(serverName: try serverName, clientName: "fb-midi-mute")
        defer { rig.close() }
        let reference = try rig.level()
        try rig.send(.controlChange(channel: 1, controller: 64, value: 127), until: .stripMute(strip: 0), is: 1)
        XCTAssertLessThan(try rig.level(), -140)
        XCTAssertTrue(rig.sender.send(.controlChange(channel: 1, controller: 64, value: 0)))
        XCTAssertTrue(rig.sender.waitUntilSent())
        XCTAssertLessThan(try rig.level(), -140, "the release leaves the strip muted")
        try rig.send(.controlChange(channel: 1, controller: 64, value: 127), until: .stripMute(strip: 0), is: 0)
        XCTAssertEqual(try rig.level(), reference, accuracy: 0.1)
    }

    func testProgramChangesReachTheSetlistCallbackWithTheirIndex() throws {
        let rig = try MIDIRig(serverName: try serverName, clientName: "fb-midi-pc")
        defer { rig.close() }
        let received = Received()
        rig.midi.controller.onProgramChange = { received.append($0) }
        XCTAssertTrue(rig.sender.send(.programChange(channel: 1, program: 4), .programChange(channel: 2, program: 9),
                                      .programChange(channel: 1, program: 0)))
        XCTAssertTrue(rig.sender.waitUntilSent())
        try waitFor("two program changes") { received.values.count == 2 }
        XCTAssertEqual(received.values, [4, 0], "program_channel = 1 ignores channel 2")
    }

    func testMIDILearnBindsTheNextControllerAndSavesItIntoThePreset() throws {
        let rig = try MIDIRig(serverName: try serverName, clientName: "fb-midi-learn")
        defer { rig.close() }
        let controller = rig.midi.controller
        XCTAssertThrowsError(try controller.arm(.bus("mian", key: "gain_db"))) { error in
            XCTAssertTrue("\(error)".contains("did you mean 'main'"), "\(error)")
        }
        let bound = Received()
        try controller.arm(.bus("main", key: "gain_db")) { bound.append($0.controller) }
        let expected = MIDICurve.db.value(at: 100 / 127, from: -60, to: 6)
        try rig.send(.controlChange(channel: 5, controller: 21, value: 100), until: .busGain(bus: 0), is: expected)
        XCTAssertEqual(bound.values, [21])
        XCTAssertNil(controller.armedTarget)
        let learned = try XCTUnwrap(controller.map.control(channel: 5, controller: 21))
        XCTAssertEqual(learned.target, .bus("main", key: "gain_db"))

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fb-learn-\(getpid()).toml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try controller.savePreset(to: path)
        let saved = try PresetLoader.load(path: path)
        XCTAssertEqual(saved.midi.control(channel: 5, controller: 21), learned)
        XCTAssertEqual(saved.midi.controls.count, 4, "the preset's three mappings and the learned one")
        XCTAssertTrue(try String(contentsOfFile: path, encoding: .utf8).contains("target = \"bus.main.gain_db\""))
    }
}

/// The MIDI loop's adaptive poll, without JACK: a message after a pause of more than ``MIDIInputLoop/busyDuration``
/// waits at most about ``MIDIInputLoop/idlePeriod`` (10 ms), one during activity about ``MIDIInputLoop/busyPeriod``
/// (1 ms). The bounds asserted are loose (a shared machine schedules late); the figures are printed.
final class MIDIInputLoopPollTests: XCTestCase {
    func testAMessageAfterAPauseWaitsAtMostTheIdlePeriodAndOneDuringActivityAMillisecond() throws {
        let queue = Mutex<[MIDIMessage]>([])
        let handled = Mutex<[ContinuousClock.Instant]>([])
        let controller = MIDIController(preset: try PresetLoader.parse(MIDIControlTests.routing, path: "midi-poll.toml"),
                                        engine: Engine(configuration: EngineConfiguration(maxFrames: 256)))
        controller.onProgramChange = { _ in handled.withLock { $0.append(.now) } }
        let loop = MIDIInputLoop(controller: controller, source: { queue.withLock { $0.isEmpty ? nil : $0.removeFirst() } })
        defer { loop.stop() }
        func latency() throws -> Duration {
            let count = handled.withLock { $0.count }
            let sent = ContinuousClock.now
            queue.withLock { $0.append(.programChange(channel: 1, program: 1)) }
            try waitFor("the program change handled") { handled.withLock { $0.count } > count }
            return handled.withLock { $0.last! } - sent
        }
        var afterPause: [Duration] = [], duringActivity: [Duration] = []
        for _ in 0..<3 {
            Thread.sleep(forTimeInterval: 2.2)   // the pause itself is what is measured: past busyDuration
            afterPause.append(try latency())
            for _ in 0..<5 {
                Thread.sleep(forTimeInterval: 0.0137)
                duringActivity.append(try latency())
            }
        }
        print("MIDI poll latency after a 2.2 s pause: \(afterPause.sorted()); during activity (median): \(duringActivity.sorted()[duringActivity.count / 2])")
        XCTAssertLessThan(afterPause.min()!, .milliseconds(60))
        XCTAssertLessThan(duringActivity.sorted()[duringActivity.count / 2], .milliseconds(20))
    }
}

/// Values callbacks deliver from another thread.
final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Int] = []
    func append(_ value: Int) { lock.withLock { stored.append(value) } }
    var values: [Int] { lock.withLock { stored } }
}

/// The RMS level of the probe's first recorder input, in dBFS, over 0.2 s after 0.2 s for smoothers to settle.
func settledLevel(_ probe: JACKTestClient) throws -> Double {
    let recording = try probe.record(frames: 9_600, settleFrames: 9_600, requiresContinuity: false)
    let samples = recording.channels[0]
    let power = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))
    return 10 * log10(max(power, 1e-30))
}

