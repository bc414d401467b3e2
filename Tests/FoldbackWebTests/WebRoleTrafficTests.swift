// What each role's page is pushed over a real socket: a musician only their bus's nodes and strips, the engineer everything; the bytes of each on the factory monitor console. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
@testable import FoldbackWeb
import FoldbackTestSupport
import Foundation
import XCTest

final class WebRoleTrafficTests: XCTestCase {
    /// The first tree, state and meters texts a page with `token` is pushed.
    private func firstTexts(port: UInt16, token: String) throws -> [String: String] {
        let page = try WebSocketTestClient(port: port, token: token)
        var texts: [String: String] = [:]
        while texts.count < 3, let text = page.receive() {
            for type in ["tree", "state", "meters"] where texts[type] == nil && text.hasPrefix("{") && text.contains(#""type":"\#(type)""#) {
                texts[type] = text
            }
        }
        XCTAssertEqual(texts.count, 3, "a tree, a state and meters")
        return texts
    }

    /// The bytes of each message to a musician and to the engineer of presets/monitor-console.toml, printed (docs/web.md, the report's figures).
    func testTheMonitorConsolesBytesByRole() throws {
        let preset = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../presets/monitor-console.toml")
        let target = try WebTestTarget(text: try String(contentsOf: preset, encoding: .utf8))
        let access = try XCTUnwrap(WebAccess(engineerToken: "engineer-0123456789", busTokens: [("iem_vox", "vox-token-01234")]))
        let server = try WebServer(target: target, router: ControlRouter(target: target), setlist: nil, access: access, host: "127.0.0.1", port: 0, status: { (1, 0) })
        try server.start()
        defer { server.stop() }
        let engineer = try firstTexts(port: server.port, token: "engineer-0123456789")
        let musician = try firstTexts(port: server.port, token: "vox-token-01234")
        for type in ["tree", "state", "meters"] {
            print("monitor-console \(type): engineer \(engineer[type]?.utf8.count ?? 0) B, musician of iem_vox \(musician[type]?.utf8.count ?? 0) B")
        }
    }
}
