// `foldback run` with an LV2 plugin that has a latency port: JACK's own `jack_lsp -l` shows the plugin's latency on Foldback's ports. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackJACK
import FoldbackJACKTesting
import FoldbackLV2
import Foundation
import XCTest

final class LV2LatencyEndToEndTests: JACKServerTestCase {
    /// x42 dpl reports its lookahead on a latency port; Foldback makes it the strip's latency and
    /// reports it through JACK's latency callback, so a patchbay sees it: capture latency at the bus
    /// output and playback latency at the strip input both equal the plugin's port value.
    func testPluginLatencyShowsInJackLsp() throws {
        let expected = try LV2Unit(uri: "http://gareus.org/oss/lv2/dpl#mono", hosting: .offline)
            .prepare(channels: 1, sampleRate: Double(Self.sampleRate), maxFrames: Self.period).latencyFrames
        XCTAssertGreaterThan(expected, 0)
        let clientName = "fb-lv2-\(getpid())"
        let preset = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/lv2-latency.toml").path
        let run = try FoldbackRun(["run", preset, "--server", serverName, "--no-connect", "--quiet", "--name", clientName],
                                  testBundle: Bundle(for: Self.self))
        defer { run.stop() }
        try run.waitUntilRunning()
        let listing = try JACKTools.run("jack_lsp", "-l", clientName, server: serverName)
        XCTAssertEqual(Self.latency(in: listing, port: "\(clientName):out", kind: "capture"), [expected, expected], listing)
        XCTAssertEqual(Self.latency(in: listing, port: "\(clientName):vox_in", kind: "playback"), [expected, expected], listing)
        XCTAssertTrue(run.standardError.contains("out: Foldback adds"), run.standardError)
        XCTAssertTrue(run.standardError.contains("(\(expected) frames); round trip"), "foldback run prints the plugin's latency: \(run.standardError)")

        // Measured: noise 17 dB under the plugin's −3 dB threshold passes unchanged, exactly `expected` frames late.
        let client = try JACKTestClient(serverName: serverName, signals: [.noise(seed: 9, level: -20)], recordChannels: 1,
                                        capacity: 8192, namePrefix: "\(clientName)-t")
        defer { client.close() }
        XCTAssertEqual(client.connectPlayer(to: ["\(clientName):vox_in"]), [])
        XCTAssertEqual(client.connectRecorder(from: ["\(clientName):out"]), [])
        let recording = try client.record(frames: 4096, settleFrames: 4096)
        let errors = (0...1024).map { delay in
            SignalCheck.maxError(recording, channel: 0) { client.expectedSample(channel: 0, frameTime: $0 &- UInt32(delay)) }
        }
        let measured = errors.indices.min { errors[$0] < errors[$1] } ?? -1
        XCTAssertEqual(measured, expected, "the measured delay is the reported latency")
        XCTAssertLessThan(errors[max(measured, 0)], 1e-4, "aligned, the output is the input")
    }

    /// The `[ min max ]` numbers of `port capture latency = [ 0 0 ] frames` under `port` in `jack_lsp -l` output.
    private static func latency(in listing: String, port: String, kind: String) -> [Int]? {
        let lines = listing.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(of: port) else { return nil }
        for line in lines[(start + 1)...] {
            if !line.hasPrefix("\t") && !line.hasPrefix(" ") { break }
            guard line.contains("port \(kind) latency") else { continue }
            return line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        }
        return nil
    }
}
