// `foldback render` equals `foldback run`: one preset live on a dummy jackd and offline on the same input, sample by sample. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackJACK
import FoldbackJACKTesting
import FoldbackRender
import XCTest
import FoldbackTestSupport

/// Runs a preset live (the real `foldback run` on this class's dummy jackd), records its bus while a
/// test player's noise is connected to its input mid-take, then renders the very samples the player
/// played offline with `foldback render` (at another block size) and compares.
///
/// Alignment is by JACK frame time and the known latency: the connection takes effect at a cycle
/// boundary `Tc`; before it foldback hears silence (so its units rest exactly as freshly built ones);
/// the first non-zero output sample is at `Tc + latency` (the bus limiter's 72-frame lookahead,
/// which render removes). The offline input is the player's signal from `Tc` on, so offline frame `k`
/// is live frame time `Tc + k`.
///
/// The chain is the reference vocal chain plus a trim: gain → 10-band EQ → compressor → reverb → bus
/// limiter, rendered live in 256-frame periods and offline in 64-frame blocks. This holds because every
/// unit's state is a function of its input samples alone: silence before `Tc` leaves each at rest
/// (the reverb's modulation too), and smoothing counts samples, not cycles.
final class RenderLiveEquivalenceTests: JACKServerTestCase {
    private static let preset = """
        [[bus]]
        name = "main"
        channels = 2

        [[strip]]
        name = "vox"
        channels = 1
        pan = -0.3

          [[strip.unit]]
          type = "gain"
          gain_db = 4.0

          [[strip.unit]]
          type = "eq"
        \((0..<10).map { "    [[strip.unit.band]]\n    type = \"peak\"\n    freq_hz = \(31.25 * pow(2.0, Double($0)))\n    gain_db = \($0 % 2 == 0 ? 4.0 : -3.0)\n    q = 1.2\n" }.joined())
          [[strip.unit]]
          type = "compressor"
          threshold_db = -18.0
          ratio = 4.0

          [[strip.unit]]
          type = "reverb"
          decay_s = 1.0
          mix = 0.3

          [[strip.send]]
          bus = "main"
        """

    /// The bus limiter's 1.5 ms lookahead at 48 kHz: the latency live adds and render removes.
    private static let latency: UInt32 = 72

    func testOfflineRenderEqualsTheLiveRunWithinOneMillionth() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fb-equiv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let presetURL = directory.appendingPathComponent("chain.toml")
        try Self.preset.write(to: presetURL, atomically: true, encoding: .utf8)

        var take: (recording: JACKRecording, input: [Float], connectedAt: UInt32)?
        // Live output at frame time t answers the input at t − latency; render removes the latency, so
        // offline frame k answers input frame k: live t ↔ offline t − Tc − latency.
        for _ in 0..<3 where take == nil { take = try liveTake(preset: presetURL.path) }
        let (recording, input, connectedAt) = try XCTUnwrap(take, "no take caught the connection without an xrun in 3 tries")

        let inputURL = directory.appendingPathComponent("played.wav")
        let writer = try AudioFileWriter(url: inputURL, sampleRate: Int(recording.sampleRate), channelCount: 1)
        try writer.write(interleaved: input)
        try writer.finish()
        let outputURL = directory.appendingPathComponent("offline.wav")
        let render = try FoldbackRun(["render", presetURL.path, "-i", inputURL.path, "-o", outputURL.path, "--tail", "0", "--block", "64"],
                                     testBundle: Bundle(for: Self.self))
        XCTAssertTrue(render.process.waitUntilExit(within: 120), "the render ended")
        XCTAssertEqual(render.process.terminationStatus, 0, render.standardError)
        let offline = try AudioFileReader(url: outputURL).readAll()
        XCTAssertEqual(offline.count, 2)

        for channel in 0..<2 {
            let error = SignalCheck.maxError(recording, channel: channel) { (time: UInt32) -> Float in
                let offset = Int(Int32(bitPattern: time &- connectedAt &- Self.latency))
                return offset < 0 ? 0 : offline[channel][offset]
            }
            XCTAssertLessThanOrEqual(error, 1e-6, "channel \(channel): live vs offline, aligned at the connection's frame time")
            XCTAssertGreaterThan(SignalCheck.peak(recording, channel: channel), 0.05, "channel \(channel) carries signal")
        }
        let shifted = SignalCheck.maxError(recording, channel: 0) { (time: UInt32) -> Float in
            let offset = Int(Int32(bitPattern: time &- connectedAt &- Self.latency)) - 1
            return offset < 0 ? 0 : offline[0][offset]
        }
        XCTAssertGreaterThan(shifted, 1e-3, "one frame off must not match: the check really aligns")
    }

    /// Starts foldback, arms a one-second take of its bus, connects the player during the take and
    /// returns the recording, the played samples from the connection on, and the connection's frame
    /// time; nil if the take missed the connection (an xrun restarted it).
    private func liveTake(preset: String) throws -> (JACKRecording, [Float], UInt32)? {
        let server = try serverName
        let clientName = "fb-equiv-\(getpid())"
        let run = try FoldbackRun(["run", preset, "--server", server, "--no-connect", "--quiet", "--name", clientName],
                                  testBundle: Bundle(for: Self.self))
        defer { run.stop() }
        try run.waitUntilRunning()
        let client = try JACKTestClient(serverName: server, signals: [.noise(seed: 31, level: -6)], recordChannels: 2,
                                        capacity: 48_000, namePrefix: "\(clientName)-test")
        defer { client.close() }
        XCTAssertEqual(client.connectRecorder(from: ["\(clientName):main_L", "\(clientName):main_R"]), [])
        let period = UInt32(client.recorder.client.bufferSize)
        let result = TakeResult()
        let armedAt = client.recorder.client.frameTime
        let recorder = Thread { result.set(Result { () throws(JACKError) in try client.recorder.record(frames: 48_000, timeout: 20) }) }
        recorder.start()
        // Connect once the take has surely started: a few periods after it was armed (a condition on frame time).
        let deadline = Date().addingTimeInterval(10)
        while client.recorder.client.frameTime &- armedAt < 4 * period, Date() < deadline { usleep(1_000) }
        XCTAssertEqual(client.connectPlayer(to: ["\(clientName):vox_in"]), [])
        let recording = try result.wait().get()
        guard let first = recording.channels[0].firstIndex(where: { $0 != 0 }), first > 0 else { return nil }
        let connectedAt = recording.frameTime(ofSample: first) &- Self.latency
        XCTAssertEqual((connectedAt &- recording.startFrameTime) % period, 0, "the connection took effect at a cycle boundary")
        let end = recording.frameTime(ofSample: recording.channels[0].count)
        let input = (0..<Int(end &- connectedAt)).map { client.expectedSample(channel: 0, frameTime: connectedAt &+ UInt32($0)) }
        return (recording, input, connectedAt)
    }
}
