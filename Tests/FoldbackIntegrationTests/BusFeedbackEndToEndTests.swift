// `foldback run` with a live `feedback` unit on a wedge bus, the loop closed through a JACK stage client: howl bypassed, tamed on. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackFeedback
import FoldbackFeedbackTesting
import FoldbackJACK
import FoldbackJACKTesting
import FoldbackPresets
import Foundation
import Synchronization
import XCTest

final class BusFeedbackEndToEndTests: JACKServerTestCase {
    /// A mono wedge bus (no limiter) with a `feedback` unit `fb` taking `keys` (and any `[[bus.unit.band]]`s).
    private static func wedgeBus(_ keys: String) -> String {
        "[[bus]]\nname = \"wedge\"\nchannels = 1\nlimiter = false\n  [[bus.unit]]\n  type = \"feedback\"\n  id = \"fb\"\n" + keys
    }

    private let preset = wedgeBus("  mode = \"live\"\n  bypass = true\n")
        + "[[strip]]\nname = \"vox\"\nchannels = 1\n  [[strip.send]]\n  bus = \"wedge\"\n"

    /// The wedge bus output loops back into the vox strip through ``JACKTestStage`` (the simulated stage's room:
    /// 11 ms in all, peaks at 2.5 kHz and 820 Hz) at 6 dB past the room's maximum stable gain. With the unit bypassed
    /// (as the preset has it) the loop howls; the loop is opened, the unit switched in over OSC, and the gain
    /// stepped back up: a notch is reported (`/foldback/bus/wedge/feedback` to the meter subscriber, a log line
    /// naming the bus) within 200 ms of the ring becoming audible, and the recorded wedge settles at least 20 dB
    /// under the howl. About 6 s of wall time (5.5 s of audio).
    func testALiveBusUnitTamesAWedgeHowlingPastItsMaximumStableGain() throws {
        let server = try serverName
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-bus-feedback-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("wedge.toml").path
        try preset.write(toFile: path, atomically: true, encoding: .utf8)

        let name = "fb-loop-\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
        let run = try FoldbackRun(["run", path, "--server", server, "--no-connect", "--quiet", "--name", name, "--osc-port", "0"],
                                  testBundle: Bundle(for: type(of: self)), standardOutput: FileHandle.nullDevice)
        defer { run.stop() }
        try run.waitUntilRunning()
        let port = try run.announcedOSCPort()
        let listener = try OSCClient(serverPort: port)
        let commands = try OSCClient(serverPort: port)
        XCTAssertEqual(try listener.request(OSCMessage("/foldback/meters/subscribe", [.float(60)])), OSCMessage("/foldback/meters/subscribed", [.float(60)]))
        let reports = FeedbackReports(listener)
        defer { reports.stop() }

        let room = RoomModel()
        let recorder = try JACKTestRecorder(name: "\(name)-rec", serverName: server, channels: 1, seconds: 6)
        defer { recorder.close() }
        let sampleRate = recorder.client.sampleRate
        let msg = room.maximumStableGain(sampleRate: sampleRate).gainDB
        // JACK runs one side of the loop a period late: the stage's own delay makes up the rest of the room's 11 ms.
        let stage = try JACKTestStage(name: "\(name)-stage", serverName: server, sections: room.sections(sampleRate: sampleRate),
                                      delayFrames: Int((room.delaySeconds * sampleRate).rounded()) - recorder.client.bufferSize)
        defer { stage.close() }
        XCTAssertNil(stage.client.connect(from: "\(name):wedge", to: stage.wedgePort.name))
        XCTAssertNil(stage.client.connect(from: stage.micPort.name, to: "\(name):vox_in"))
        XCTAssertNil(recorder.connect(from: "\(name):wedge", toChannel: 0))

        let take = Mutex<Result<JACKRecording, JACKError>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result = Result { () throws(JACKError) in try recorder.record(frames: Int(5.5 * sampleRate), timeout: 20, requiresContinuity: false) }
            take.withLock { $0 = result }
            finished.signal()
        }
        func frames(_ seconds: Double) -> UInt32 { UInt32(seconds * sampleRate) }
        func wait(until frameTime: UInt32) {
            while Int32(bitPattern: stage.client.frameTime &- frameTime) < 0 { Thread.sleep(forTimeInterval: 0.005) }
        }
        // 1. Bypassed: the loop howls.
        stage.setLoopGain(decibels: msg + 6)
        let howlStart = try stage.waitForGain()
        wait(until: howlStart &+ frames(1.5))
        // 2. The loop opened (the gain far below MSG) and the unit switched in.
        stage.setLoopGain(decibels: msg - 30)
        wait(until: try stage.waitForGain() &+ frames(0.5))
        try commands.send(OSCMessage("/foldback/bus/wedge/unit/fb/bypass", [.int(0)]))
        wait(until: stage.client.frameTime &+ frames(0.3))
        // 3. The same push again, with the unit in.
        stage.setLoopGain(decibels: msg + 6)
        let step = try stage.waitForGain()
        let stepWall = ContinuousClock.now - .seconds(Double(stage.client.frameTime &- step) / sampleRate)
        XCTAssertEqual(finished.wait(timeout: .now() + 20), .success)
        let recording = try XCTUnwrap(take.withLock { $0 }).get()

        let samples = recording.channels[0]
        func index(_ frameTime: UInt32, plus seconds: Double = 0) -> Int {
            max(0, min(samples.count, Int(Int32(bitPattern: frameTime &- recording.startFrameTime)) + Int(seconds * sampleRate)))
        }
        let howl = level(samples[index(howlStart, plus: 1.0)..<index(howlStart, plus: 1.5)])
        let early = maxLevel(samples[index(step, plus: 0.2)..<index(step, plus: 0.5)], window: Int(0.05 * sampleRate))
        let settled = maxLevel(samples[index(step, plus: 0.5)..<samples.count], window: Int(0.05 * sampleRate))
        // When the bypassed howl became audible (10 ms level 6 dB over the open loop's room noise): the same rise the step starts.
        let floor = level(samples[index(step, plus: -0.6)..<index(step, plus: -0.3)])
        let window = Int(0.01 * sampleRate)
        let onset = stride(from: index(howlStart), to: index(howlStart, plus: 1), by: window / 2)
            .first { level(samples[$0..<$0 + window]) >= floor + 6 }.map { Double($0 + window - index(howlStart)) / sampleRate * 1000 } ?? .nan
        let notches = reports.messages.filter { $0.time > stepWall }
        let first = try XCTUnwrap(notches.first, "a notch reported on /foldback/bus/wedge/feedback")
        let firstMs = Double((first.time - stepWall).components.attoseconds) * 1e-15 + Double((first.time - stepWall).components.seconds) * 1000
        print("JACK loop at MSG + 6 dB (\(String(format: "%.1f", msg + 6)) dB): room \(fmt(floor)) dBFS, bypassed howl audible \(fmt(onset)) ms after the push, at \(fmt(howl)) dBFS; with the unit first notch reported"
              + " \(fmt(firstMs)) ms after the step; 200…500 ms max \(fmt(early)) dBFS; settled (0.5 s on) max \(fmt(settled)) dBFS (\(fmt(settled - howl)) dB);"
              + " reports: \(notches.map { "\(Int($0.frequency)) Hz \($0.depth) dB" }); xruns \(stage.xrunCount)")
        XCTAssertGreaterThan(howl, -10, "the bypassed loop howls")
        XCTAssertLessThan(settled - howl, -20)
        XCTAssertLessThan(firstMs - onset, 200, "reported within 200 ms of the ring becoming audible (OSC polling included)")
        XCTAssertTrue((600...3000).contains(first.frequency) && first.depth < 0, "\(first)")
        XCTAssertTrue(run.standardError.contains("feedback unit 'fb' on bus 'wedge': notch 1 at"), run.standardError)
        XCTAssertTrue(run.standardError.contains("ring found"), run.standardError)
    }

    /// The running session saves a wedge bus's ring-out (`/foldback/bus/<bus>/unit/<id>/save`): its notches come
    /// back as the unit's `[[bus.unit.band]]` peaks, the rest of the chain as it was.
    func testTheRunningSessionSavesABusRingOutAsBusBands() throws {
        let folder = try LiveControlRig.temporaryFolder()
        try LiveControlRig.writePreset(to: folder + "/show.toml", voxGainDB: 0, extra: Self.wedgeBus(
            "  mode = \"ringout\"\n  [[bus.unit.band]]\n  type = \"peak\"\n  freq_hz = 2538\n  gain_db = -9\n  q = 16\n"))
        let rig = try LiveControlRig(server: serverName, arguments: [folder + "/show.toml"], testCase: self)
        defer { rig.close() }
        let saved = folder + "/rung-out.toml"
        let reply = try XCTUnwrap(try rig.request("/foldback/bus/wedge/unit/fb/save", [.string(saved)]))
        XCTAssertEqual(reply.path, "/foldback/bus/wedge/unit/fb/saved", "\(reply)")
        let text = try String(contentsOfFile: saved, encoding: .utf8)
        XCTAssertTrue(text.contains("[[bus.unit.band]]"), text)
        let unit = try XCTUnwrap(try PresetLoader.load(path: saved).buses.first { $0.name == "wedge" }?.units.first)
        XCTAssertEqual(unit.type, "feedback")
        XCTAssertEqual(unit.bands.map(\.band.frequency), [2538])
        XCTAssertEqual(unit.bands.map(\.band.gainDB), [-9])
    }

    private func level(_ samples: ArraySlice<Float>) -> Double {
        10 * log10(max(samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1)), 1e-20))
    }

    /// The loudest RMS level of `window`-frame blocks (hop half a window).
    private func maxLevel(_ samples: ArraySlice<Float>, window: Int) -> Double {
        var best = -200.0
        var start = samples.startIndex
        while start + window <= samples.endIndex {
            best = max(best, level(samples[start..<start + window]))
            start += window / 2
        }
        return best
    }

    private func fmt(_ value: Double) -> String { String(format: "%.1f", value) }
}

/// Collects `/foldback/bus/wedge/feedback f freq_hz f depth_db [f age_s]` reports (with their arrival time) on a thread of its own,
/// draining the meter messages around them.
private final class FeedbackReports: @unchecked Sendable {
    struct Report { var time: ContinuousClock.Instant; var frequency: Float; var depth: Float }
    private let received = Mutex<[Report]>([])
    private let isStopping = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    init(_ client: OSCClient) {
        Thread.detachNewThread { [self] in
            while !isStopping.load(ordering: .acquiring) {
                guard let message = client.receive(timeout: 0.05), message.path == "/foldback/bus/wedge/feedback", message.arguments.count >= 2,
                      case .float(let frequency) = message.arguments[0], case .float(let depth) = message.arguments[1] else { continue }
                let report = Report(time: .now, frequency: frequency, depth: depth)
                received.withLock { $0.append(report) }
            }
            done.signal()
        }
    }

    var messages: [Report] { received.withLock { $0 } }

    func stop() {
        guard !isStopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        done.wait()
    }
}
