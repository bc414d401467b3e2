// A setlist whose later songs bring their own source files: each song's file is heard at the bus at its level, and players no song plays are retired. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackRender
import FoldbackTestSupport
import Foundation
import XCTest

final class SourceSongChangeTests: JACKServerTestCase {
    /// Song 1 has no file source; song 2 plays a looped 1 kHz sine of peak 0.25 on strip `click`; song 3 plays another
    /// file (peak 0.1) on the same strip. Each is measured at the bus `main` (RMS, ±0.1 dB), and the disk threads
    /// (`fb-disk`) count the players open: 0, 1, 1 (the song-2 player retired), 0 back at song 1.
    func testEverySongsSourceFilePlaysAtTheBus() throws {
        let folder = try LiveControlRig.temporaryFolder()
        for (file, peak) in [("click.wav", Float(0.25)), ("count.wav", Float(0.1))] {
            let writer = try AudioFileWriter(url: URL(fileURLWithPath: folder + "/" + file), sampleRate: 48_000, channelCount: 1)
            try writer.write(planar: [(0..<48_000).map { peak * sinf(2 * .pi * 1_000 * Float($0) / 48_000) }])
            try writer.finish()
        }
        try LiveControlRig.writePreset(to: folder + "/one.toml", voxGainDB: 0)
        for (name, file) in [("two", "click.wav"), ("three", "count.wav")] {
            try LiveControlRig.writePreset(to: folder + "/\(name).toml", voxGainDB: 0, extra: """
                [[strip]]
                name = "click"
                source = { file = "\(file)", loop = true }
                send = [{ bus = "main" }]
                """)
        }
        try "[[song]]\npreset = \"one.toml\"\n[[song]]\npreset = \"two.toml\"\n[[song]]\npreset = \"three.toml\"\n"
            .write(toFile: folder + "/show.toml", atomically: true, encoding: .utf8)
        let rig = try LiveControlRig(server: serverName, arguments: ["--setlist", folder + "/show.toml"], signal: .silence, testCase: self)
        defer { rig.close() }
        let pid = rig.run.process.processIdentifier

        func mainLevel() throws -> Double {
            let samples = try rig.client.record(frames: 9_600, settleFrames: 4_800, attempts: 5).channels[0]
            return decibels((samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot())
        }
        XCTAssertEqual(Self.diskThreads(of: pid), 0, "song 1 opens no file")
        XCTAssertLessThan(try mainLevel(), -120, "song 1: silence at main")

        XCTAssertEqual(try rig.request("/foldback/setlist/next")?.arguments.first, .int(2))
        XCTAssertEqual(try mainLevel(), decibels(0.25 / 2.0.squareRoot()), accuracy: 0.1, "song 2's click.wav at main (−15.05 dB RMS)")
        XCTAssertEqual(Self.diskThreads(of: pid), 1)

        XCTAssertEqual(try rig.request("/foldback/setlist/next")?.arguments.first, .int(3))
        XCTAssertEqual(try mainLevel(), decibels(0.1 / 2.0.squareRoot()), accuracy: 0.1, "song 3's count.wav at main (−23.01 dB RMS)")
        try waitFor("song 2's player retired", timeout: 5) { Self.diskThreads(of: pid) == 1 }

        XCTAssertEqual(try rig.request("/foldback/setlist/select", [.int(1)])?.arguments.first, .int(1))
        XCTAssertLessThan(try mainLevel(), -120, "back at song 1: silence at main")
        try waitFor("every player retired", timeout: 5) { Self.diskThreads(of: pid) == 0 }
        XCTAssertFalse(rig.run.standardError.contains("could not keep up"), rig.run.standardError)
    }

    /// The file players' disk threads running in process `pid`.
    private static func diskThreads(of pid: Int32) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.filter { (try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8))?.hasPrefix("fb-disk") == true }.count
    }
}
