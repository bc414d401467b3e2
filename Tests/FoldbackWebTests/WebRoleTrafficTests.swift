// What each role's page is pushed over a real socket: a musician only their bus's nodes and strips, the engineer everything; the bytes of each on the factory monitor console. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine
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
        // Measured on the factory preset: the whole tree 39544 B, a state 2403 B, a silent meter tick 329 B to every page before.
        func bytes(_ texts: [String: String], _ type: String) -> Int { texts[type]?.utf8.count ?? 0 }
        XCTAssertLessThan(bytes(musician, "tree"), bytes(engineer, "tree") / 10, "a musician's tree: their bus's 10 nodes of the show's hundreds")
        XCTAssertLessThan(bytes(musician, "state"), bytes(engineer, "state") / 2)
        XCTAssertLessThan(bytes(musician, "meters"), bytes(engineer, "meters"))
    }

    /// The paths of the nodes in a page's tree.
    private func treePaths(_ tree: [String: Any]) -> [String] {
        (tree["parameters"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
    }

    private func names(_ list: Any?) -> [String] { (list as? [[String: Any]] ?? []).compactMap { $0["name"] as? String } }

    func testAMusiciansPageGetsItsBusAloneAndTheEngineersEverything() throws {
        let target = try WebTestTarget()
        let server = try WebServer(
            target: target, router: ControlRouter(target: target), setlist: nil, access: WebTestTarget.access, host: "127.0.0.1", port: 0, status: { (1, 0) })
        try server.start()
        defer { server.stop() }
        let engineer = try WebSocketTestClient(port: server.port, token: "engineer-0123456789")
        let vox = try WebSocketTestClient(port: server.port, token: "vox-token-01234")
        let gtr = try WebSocketTestClient(port: server.port, token: "gtr-token-01234")

        XCTAssertEqual(treePaths(try gtr.expect("tree")), [
            "strip/vox/send/iem_gtr/gain_db", "strip/vox/send/iem_gtr/mute", "strip/vox/send/iem_gtr/pan",
            "strip/gtr/send/iem_gtr/gain_db", "strip/gtr/send/iem_gtr/mute", "strip/gtr/send/iem_gtr/pan",
            "bus/iem_gtr/gain_db", "bus/iem_gtr/mute",
        ], "another musician's tree holds their own bus's nodes")
        let voxTree = try vox.expect("tree")
        XCTAssertEqual(treePaths(voxTree), [
            "strip/vox/send/iem_vox/gain_db", "strip/vox/send/iem_vox/mute", "strip/vox/send/iem_vox/pan",
            "strip/gtr/send/iem_vox/gain_db", "strip/gtr/send/iem_vox/mute", "strip/gtr/send/iem_vox/pan",
            "bus/iem_vox/gain_db", "bus/iem_vox/mute",
        ], "the nodes the musician of iem_vox may set, in show order, and nothing else")
        XCTAssertEqual((voxTree["outputs"] as? [Any])?.count, 0)
        let voxState = try vox.expect("state")
        XCTAssertEqual((voxState["values"] as? [NSNumber])?.map(\.doubleValue), [-3, 0, 0, -12, 0, 0, -6, 0], "a value per node of its own tree")
        XCTAssertEqual(voxState["tree"] as? Int, voxTree["version"] as? Int)
        XCTAssertEqual(names(voxState["strips"]), ["vox", "gtr"], "the strips sending into iem_vox")
        let voxSends = (voxState["strips"] as? [[String: Any]] ?? []).map { ($0["sends"] as? [[String: Any]] ?? []).compactMap { $0["bus"] as? String } }
        XCTAssertEqual(voxSends, [["iem_vox"], ["iem_vox"]], "each with its send into iem_vox alone")
        XCTAssertEqual(((voxState["strips"] as? [[String: Any]])?.first?["units"] as? [Any])?.count, 0, "no units: a musician opens no editor")
        XCTAssertEqual(names(voxState["buses"]), ["iem_vox"])
        XCTAssertNil(voxState["cue"])
        let voxMeters = try vox.expect("meters")
        XCTAssertEqual(Set((voxMeters["strips"] as? [String: Any] ?? [:]).keys), ["vox", "gtr"])
        XCTAssertEqual(Set((voxMeters["buses"] as? [String: Any] ?? [:]).keys), ["iem_vox"])
        XCTAssertEqual((voxMeters["gr"] as? [String: Any])?.count, 0, "no gain reduction of units it cannot see")

        let engineerTree = try engineer.expect("tree")
        let all = try XCTUnwrap(target.engine.graph.map { ParameterPath.tree(graph: $0, preset: target.currentPreset) }).nodes.map(\.path)
        XCTAssertEqual(treePaths(engineerTree), all, "the engineer's tree is the whole parameter tree")
        XCTAssertNotEqual(engineerTree["version"] as? Int, voxTree["version"] as? Int, "versions differ between roles' trees")
        let engineerState = try engineer.expect("state")
        XCTAssertEqual((engineerState["values"] as? [Any])?.count, all.count)
        XCTAssertEqual(names(engineerState["strips"]), ["vox", "gtr"])
        XCTAssertEqual(names(engineerState["buses"]), ["main", "iem_vox", "iem_gtr"])
        XCTAssertTrue(treePaths(engineerTree).contains("strip/vox/unit/comp/threshold_db"))

        // The engineer moves the musician's send: the musician's page gets the value at its own tree's index.
        _ = try gtr.expect("state")
        engineer.send(#"{"path":"/foldback/strip/gtr/send/iem_vox/gain_db","value":-4.5}"#)
        _ = try engineer.expect("ok")
        _ = try vox.expect("state") { ($0["values"] as? [NSNumber])?[3].doubleValue == -4.5 && sendLevel($0, strip: "gtr", bus: "iem_vox") == -4.5 }
        // The musician moves it back: the engineer sees it at the node's index in the whole tree.
        let index = try XCTUnwrap(all.firstIndex(of: "strip/gtr/send/iem_vox/gain_db"))
        vox.send(#"{"path":"/foldback/strip/gtr/send/iem_vox/gain_db","value":-8}"#)
        _ = try vox.expect("ok")
        _ = try vox.expect("state") { ($0["values"] as? [NSNumber])?[3].doubleValue == -8 }
        _ = try engineer.expect("state") { ($0["values"] as? [NSNumber])?[index].doubleValue == -8 }
    }
}
