// An offline engine behind the web surface, a two-bus preset, and a WebSocket client for the web tests. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine
import FoldbackPresets
import FoldbackGraph
@testable import FoldbackWeb
import FoldbackTestSupport
import Foundation
import XCTest

/// A LiveControlTarget over an offline engine (no JACK) playing ``preset``; preset switches are refused.
final class WebTestTarget: LiveControlTarget, @unchecked Sendable {
    let engine = Engine(configuration: EngineConfiguration(maxFrames: 64))
    let currentPreset: Preset

    /// Two strips (vox with a compressor, gtr) sending to `main` and to the in-ear buses `iem_vox`, `iem_gtr`.
    static let preset = """
        [preset]
        name = "web test"
        [[bus]]
        name = "main"
        [[bus]]
        name = "iem_vox"
        gain_db = -6.0
        [[bus]]
        name = "iem_gtr"
        [[strip]]
        name = "vox"
          [[strip.unit]]
          type = "compressor"
          id = "comp"
          [[strip.send]]
          bus = "main"
          [[strip.send]]
          bus = "iem_vox"
          gain_db = -3.0
          [[strip.send]]
          bus = "iem_gtr"
          gain_db = -10.0
        [[strip]]
        name = "gtr"
          [[strip.send]]
          bus = "iem_vox"
          gain_db = -12.0
          [[strip.send]]
          bus = "iem_gtr"
        """

    init(text: String = WebTestTarget.preset) throws {
        currentPreset = try PresetLoader.parse(text, path: "/tmp/web-test.toml")
        try engine.install(PresetGraphBuilder.graph(for: currentPreset, sampleRate: 48000, maxFrames: 64), crossfade: .none)
    }

    func switchPreset(toPath path: String) throws(ControlError) -> String { throw .failed("no preset switches in this test") }

    /// The live value at an OSC-style parameter path (after `/foldback/`), or the preset's.
    func value(_ path: String) throws -> Float {
        let graph = try XCTUnwrap(engine.graph)
        let parameter = try ParameterPath.resolve(path.split(separator: "/"), graph: graph, preset: currentPreset)
        return engine.value(at: parameter.address) ?? parameter.presetValue
    }

    static let access = WebAccess(engineerToken: "engineer-0123456789", busTokens: [
        ("main", "main-token-0123"), ("iem_vox", "vox-token-01234"), ("iem_gtr", "gtr-token-01234"),
    ])!

    /// A web control on a fresh target.
    static func control() throws -> (WebTestTarget, WebControl, ControlRouter) {
        let target = try WebTestTarget()
        let router = ControlRouter(target: target)
        return (target, WebControl(router: router), router)
    }
}

extension WebSocketTestClient {
    /// A page's socket on the test server with `token`.
    convenience init(port: UInt16, token: String) throws {
        try self.init(port: port, path: "/ws?token=\(token)")
    }

    /// The next message of `type`, failing the test without one.
    func expect(_ type: String, timeout: Double = 5, file: StaticString = #filePath, line: UInt = #line,
                where matches: ([String: Any]) -> Bool = { _ in true }) throws -> [String: Any] {
        try XCTUnwrap(next(type, timeout: timeout, where: matches), "a '\(type)' message", file: file, line: line)
    }
}

/// The send level of `strip` into `bus` in a pushed state message, dB.
func sendLevel(_ state: [String: Any], strip: String, bus: String) -> Double? {
    WebSocketTestClient.sendLevel(in: state, strip: strip, bus: bus)
}
