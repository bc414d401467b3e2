// `foldback run` with a file-source strip on a dummy jackd: a looped ramp comes out of the bus port as the exact periodic sequence; SIGUSR2 stops and restarts it. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackJACK
import FoldbackJACKTesting
import FoldbackRender
import XCTest
import FoldbackTestSupport

final class FilePlayerEndToEndTests: JACKServerTestCase {
    func testALoopedRampPlaysSampleExactThroughTheStripAndSIGUSR2StopsAndRestartsIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-play-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let period = 1_000
        let ramp = (0..<period).map { Float($0 + 1) / Float(period) * 0.5 }
        let writer = try AudioFileWriter(url: directory.appendingPathComponent("ramp.wav"), sampleRate: 48_000, channelCount: 1)
        try writer.write(planar: [ramp])
        try writer.finish()
        let preset = directory.appendingPathComponent("player.toml")
        try """
            [[bus]]
            name = "main"
            channels = 1

            [[strip]]
            name = "backing"
            source = { file = "ramp.wav", loop = true, gain_db = -6 }
            send = [{ bus = "main" }]
            """.write(to: preset, atomically: true, encoding: .utf8)

        let clientName = "fb-play-\(getpid())"
        let server = try serverName
        let run = try FoldbackRun(
            ["run", preset.path, "--server", server, "--no-connect", "--quiet", "--name", clientName], testBundle: Bundle(for: Self.self))
        defer { run.stop() }
        try run.waitUntilRunning()
        let client = try JACKTestClient(serverName: server, signals: [.silence], recordChannels: 1, capacity: 48_000, namePrefix: "\(clientName)-test")
        defer { client.close() }
        XCTAssertEqual(client.connectRecorder(from: ["\(clientName):main"]), [])
        let lister = try JACKClient(name: "\(clientName)-lister", serverName: server)
        defer { lister.close() }
        XCTAssertEqual(lister.portNames(matching: "^\(clientName):", audioOnly: true), ["\(clientName):main"], "no input port for a file strip")

        let gain = powf(10, -6 / 20)
        func assertPeriodic(_ samples: [Float], _ what: String) {
            guard let phase = (0..<period).first(where: { abs(ramp[$0] * gain - samples[0]) < 1e-7 }) else {
                return XCTFail("\(what): the first sample \(samples[0]) is not a ramp value")
            }
            let worst = samples.indices.map { abs(samples[$0] - ramp[($0 + phase) % period] * gain) }.max() ?? 1
            XCTAssertLessThanOrEqual(worst, 1e-6, "\(what): the output is the ramp × −6 dB, looped sample-exact")
        }
        assertPeriodic(try client.record(frames: 48_000, settleFrames: 2_048).channels[0], "playing")

        kill(run.process.processIdentifier, SIGUSR2)
        try waitFor("the file player stopping", timeout: 10) { run.standardError.contains("file player stopped") }
        let stopped = try client.record(frames: 4_800, settleFrames: 1_024).channels[0]
        XCTAssertEqual(stopped.map(abs).max(), 0, "silent once stopped")

        kill(run.process.processIdentifier, SIGUSR2)
        try waitFor("the file player starting", timeout: 10) { run.standardError.contains("file player started") }
        assertPeriodic(try client.record(frames: 24_000, settleFrames: 1_024).channels[0], "restarted")
        XCTAssertFalse(run.standardError.contains("could not keep up"), run.standardError)
    }

}
