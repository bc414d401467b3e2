// MIDI presses of a file source's transport (`strip.<strip>.source.play|stop|cue`): one command per press, checked against the preset. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import Foundation
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class MIDISourceTransportTests: XCTestCase {
    private final class Presses: @unchecked Sendable {
        let lock = NSLock()
        var seen: [String] = []
    }

    private func preset(target: String) throws -> Preset {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-midi-source-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/click.wav", contents: Data()))
        return try PresetLoader.parse("""
            [[bus]]
            name = "main"
            channels = 1
            [[strip]]
            name = "vox"
            send = [{ bus = "main" }]
            [[strip]]
            name = "click"
            source = { file = "click.wav" }
            send = [{ bus = "main" }]
            [midi]
            """ + [(20, target), (21, "strip.click.source.cue")].map { "\n[[midi.cc]]\ncc = \($0.0)\ntarget = \"\($0.1)\"\n" }.joined(),
            path: folder + "/show.toml")
    }

    /// CC 20 → play: 127, 100 (still high), 0, 127 give two presses; CC 21 → cue: 64 presses, 63 does not.
    func testEachPressRunsItsCommandOnce() throws {
        let controller = MIDIController(preset: try preset(target: "strip.click.source.play"), engine: Engine(configuration: EngineConfiguration(maxFrames: 256)))
        let presses = Presses()
        controller.onSourceTransport = { strip, command in presses.lock.withLock { presses.seen.append("\(strip) \(command)") } }
        for (cc, value) in [(20, 127), (20, 100), (20, 0), (20, 127), (21, 64), (21, 63)] {
            controller.handle(MIDIMessage(status: 0xB0, data1: UInt8(cc), data2: UInt8(value)))
        }
        XCTAssertEqual(presses.lock.withLock { presses.seen }, ["click play", "click play", "click cue"])
    }

    func testATransportTargetOnAStripWithoutAFileIsRefused() throws {
        XCTAssertThrowsError(try preset(target: "strip.vox.source.play")) { error in
            XCTAssertTrue("\(error)".contains("strip 'vox' plays no file"), "\(error)")
        }
        XCTAssertThrowsError(try preset(target: "strip.click.source.rewind")) { error in
            XCTAssertTrue("\(error)".contains("rewind"), "\(error)")
        }
    }
}
