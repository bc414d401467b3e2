// OSC for a file source's tempo and key: sets reach the live target, queries answer its state, bad requests one error. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import FoldbackControl
import FoldbackEngine
import FoldbackPresets
import Synchronization
import XCTest

/// An offline target with one playing file source on strip `vox`, recording what is set.
private final class SourceTarget: LiveControlTarget, @unchecked Sendable {
    let base: OfflineTarget
    let state = Mutex(FileSourceState(strip: "vox", tempo: 1, pitchSemitones: 0, cents: 0, position: 12.5, duration: 200))

    init() throws { base = try OfflineTarget() }

    var engine: Engine { base.engine }
    var currentPreset: Preset { base.currentPreset }
    func switchPreset(toPath path: String) throws(ControlError) -> String { try base.switchPreset(toPath: path) }

    func setSourceParameter(strip: String, _ parameter: SourceParameter, to value: Float) throws(ControlError) {
        guard strip == "vox" else { throw .failed("strip '\(strip)' plays no file") }
        state.withLock { state in
            switch parameter.key {
            case "tempo": state.tempo = value
            case "pitch_semitones": state.pitchSemitones = value
            default: state.cents = value
            }
        }
    }

    func fileSources() -> [FileSourceState] { [state.withLock { $0 }] }
}

final class SourceControlTests: XCTestCase {
    private let peer = OSCPeer(host: "127.0.0.1", port: 9999)!

    func testSourceTempoAndKeyAreSetAndQueried() throws {
        let target = try SourceTarget()
        let router = ControlRouter(target: target)
        func reply(_ path: String, _ arguments: [OSCArgument] = []) -> [OSCMessage] { router.handle(OSCMessage(path, arguments), from: peer) }
        XCTAssertEqual(reply("/foldback/strip/vox/source/tempo", [.float(0.85)]), [])
        XCTAssertEqual(reply("/foldback/strip/vox/source/pitch_semitones", [.int(-2)]), [])
        XCTAssertEqual(reply("/foldback/strip/vox/source/cents", [.float(25)]), [])
        XCTAssertEqual(target.state.withLock { [$0.tempo, $0.pitchSemitones, $0.cents] }, [0.85, -2, 25])
        XCTAssertEqual(reply("/foldback/strip/vox/source/tempo/get"), [OSCMessage("/foldback/strip/vox/source/tempo", [.float(0.85)])])
        XCTAssertEqual(reply("/foldback/strip/vox/source/pitch_semitones/get"), [OSCMessage("/foldback/strip/vox/source/pitch_semitones", [.float(-2)])])

        for (path, arguments, fragment) in [
            ("/foldback/strip/vox/source/tempo", [OSCArgument.float(2.5)], "out of range"),
            ("/foldback/strip/vox/source/pitch_semitones", [.float(-13)], "out of range"),
            ("/foldback/strip/vox/source/tempo", [.string("fast")], "takes one number"),
            ("/foldback/strip/vox/source/speed", [.float(1)], "tempo, pitch_semitones, cents"),
            ("/foldback/strip/gtr/source/tempo", [.float(1)], "plays no file"),
        ] {
            let replies = reply(path, arguments)
            XCTAssertEqual(replies.first?.path, OSCServer.errorPath, path)
            XCTAssertTrue((replies.first?.arguments.last?.text ?? "").contains(fragment), "\(path): \(replies)")
        }
        XCTAssertEqual(target.state.withLock { $0.tempo }, 0.85, "a refused request changes nothing")
    }
}
