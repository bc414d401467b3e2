// OSC for the tree's host-side nodes: a file source's tempo and key reach the engine's host applier, queries read it back, an input switch without a take is refused. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import FoldbackControl
import FoldbackEngine
import FoldbackPresets
import Foundation
import Synchronization
import XCTest

/// A file source's stretcher settings as a live show's applier keeps them.
private final class SourceSettings: HostParameterApplier, @unchecked Sendable {
    let values = Mutex<[HostParameter: Float]>([:])

    func apply(_ parameter: HostParameter, value: Float) throws(EngineError) {
        guard !parameter.isInputSwitch else { throw .hostParameterRefused("no take plays") }
        values.withLock { $0[parameter] = value }
    }

    func value(of parameter: HostParameter) -> Float? { values.withLock { $0[parameter] } }
}

final class SourceControlTests: XCTestCase {
    private let peer = OSCPeer(host: "127.0.0.1", port: 9999)!

    /// An offline show whose strip `vox` plays a file and `gtr` takes its port.
    private func target() throws -> OfflineTarget {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("source-control-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("backing.wav"))
        return try OfflineTarget(text: """
            [[bus]]
            name = "main"
            [[strip]]
            name = "vox"
            source = { file = "backing.wav" }
            send = [{ bus = "main" }]
            [[strip]]
            name = "gtr"
            send = [{ bus = "main" }]
            """, path: folder.appendingPathComponent("show.toml").path)
    }

    func testSourceTempoAndKeyAreSetAndQueriedThroughTheTree() throws {
        let target = try target()
        let settings = SourceSettings()
        target.engine.setHostApplier(settings)
        let router = ControlRouter(target: target)
        func reply(_ path: String, _ arguments: [OSCArgument] = []) -> [OSCMessage] { router.handle(OSCMessage(path, arguments), from: peer) }
        XCTAssertEqual(reply("/foldback/strip/vox/source/tempo", [.float(0.85)]), [])
        XCTAssertEqual(reply("/foldback/strip/vox/source/pitch_semitones", [.int(-2)]), [])
        XCTAssertEqual(reply("/foldback/strip/vox/source/cents", [.float(25)]), [])
        XCTAssertEqual(settings.values.withLock { $0 }, [.sourceTempo(strip: 0): 0.85, .sourcePitchSemitones(strip: 0): -2, .sourceCents(strip: 0): 25])
        XCTAssertEqual(reply("/foldback/strip/vox/source/tempo/get"), [OSCMessage("/foldback/strip/vox/source/tempo", [.float(0.85)])])
        XCTAssertEqual(reply("/foldback/strip/vox/source/pitch_semitones/get"), [OSCMessage("/foldback/strip/vox/source/pitch_semitones", [.float(-2)])])
        XCTAssertEqual(target.engine.changedValues[.host(.sourceTempo(strip: 0))], 0.85, "kept for a save")

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
        XCTAssertEqual(settings.values.withLock { $0[.sourceTempo(strip: 0)] }, 0.85, "a refused request changes nothing")
    }

    /// Without a take (or without any host applier, offline) the input switches read `live` and refuse `take`, saying why.
    func testInputSwitchesWithoutATakeAreRefusedClearly() throws {
        for withApplier in [false, true] {
            let target = try target()
            let settings = SourceSettings()
            if withApplier { target.engine.setHostApplier(settings) }
            let router = ControlRouter(target: target)
            for path in ["/foldback/strip/gtr/input", "/foldback/soundcheck/input"] {
                let replies = router.handle(OSCMessage(path, [.int(1)]), from: peer)
                XCTAssertEqual(replies.first?.path, OSCServer.errorPath, path)
                XCTAssertTrue((replies.first?.arguments.last?.text ?? "").contains("no take plays"), "\(path): \(replies)")
                XCTAssertEqual(router.handle(OSCMessage(path + "/get"), from: peer), [OSCMessage(path, [.float(0)])], "\(path) reads live")
            }
            XCTAssertEqual(router.handle(OSCMessage("/foldback/strip/gtr/input", [.int(2)]), from: peer).first?.path, OSCServer.errorPath,
                           "2 is neither live nor take")
            XCTAssertNil(router.parameterTree?.node(at: "strip/vox/input"), "a strip playing a file has no input switch")
            XCTAssertTrue(target.engine.changedValues.isEmpty)
        }
    }
}
