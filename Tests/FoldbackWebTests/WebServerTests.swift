// The server over real sockets: HTTP routes and token checks, WebSocket requests, refusals, pushes, 20 pages at once. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
@testable import FoldbackWeb
import FoldbackTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

final class WebServerTests: XCTestCase {
    private var target: WebTestTarget!
    private var router: ControlRouter!
    private var server: WebServer!

    override func setUpWithError() throws {
        target = try WebTestTarget()
        router = ControlRouter(target: target)
        server = try WebServer(
            target: target, router: router, setlist: nil, access: WebTestTarget.access, host: "127.0.0.1", port: 0, status: { (12.5, 3) })
        try server.start()
    }

    override func tearDown() {
        server.stop()
    }

    private func get(_ path: String) async throws -> (status: Int, body: String) {
        let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(server.port)\(path)"))
        let (data, response) = try await URLSession(configuration: .ephemeral).data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    func testEveryRouteNeedsAValidToken() async throws {
        let token = WebTestTarget.access.busTokens[1].token
        for path in ["/", "/app.js", "/app.css", "/ws", "/nothing", "/?token=", "/?token=wrong-token-123", "/app.js?token=\(token)x"] {
            let (status, _) = try await get(path)
            XCTAssertEqual(status, 401, path)
        }
        let (status, page) = try await get("/?token=\(token)")
        XCTAssertEqual(status, 200)
        XCTAssertTrue(page.contains("app.js?token=\(token)"), "the page's script link carries its token")
        XCTAssertFalse(page.contains(WebPages.tokenPlaceholder))
        for (path, expected) in [("/app.js", 200), ("/app.css", 200), ("/secret", 404), ("/ws", 400), ("/qr.svg", 403), ("/response", 403)] {
            let (status, _) = try await get("\(path)?token=\(token)")
            XCTAssertEqual(status, expected, "\(path) (a plain GET of /ws is not an upgrade)")
        }
    }

    func testTheEngineerGetsTheMusiciansLinksAndTheirQRCodes() async throws {
        let engineer = try WebSocketTestClient(port: server.port, token: "engineer-0123456789")
        let links = try XCTUnwrap(try engineer.expect("hello")["links"] as? [[String: String]])
        XCTAssertEqual(links, [["bus": "main", "token": "main-token-0123"], ["bus": "iem_vox", "token": "vox-token-01234"], ["bus": "iem_gtr", "token": "gtr-token-01234"]])
        let musician = try WebSocketTestClient(port: server.port, token: "vox-token-01234")
        XCTAssertNil(try musician.expect("hello")["links"], "a musician learns no one else's token")
        let (status, svg) = try await get("/qr.svg?token=engineer-0123456789&bus=iem_vox")
        XCTAssertEqual(status, 200)
        let expected = try XCTUnwrap(QRCode("http://127.0.0.1:\(server.port)/?token=vox-token-01234")).svg()
        XCTAssertEqual(svg, expected, "the code of the bus's link as the engineer reached the server")
        let (missing, _) = try await get("/qr.svg?token=engineer-0123456789&bus=nobody")
        XCTAssertEqual(missing, 404)
    }

    func testAWebSocketUpgradeWithoutAValidTokenIsRefusedWith401() {
        for token in ["wrong-token-123", "", "vox-token-01234x"] {
            XCTAssertThrowsError(try WebSocketTestClient(port: server.port, token: token)) { error in
                XCTAssertTrue((error as? WebSocketTestClient.Refused)?.statusLine.contains("401") == true, "\(error)")
            }
        }
        XCTAssertEqual(server.pageCount, 0)
    }

    func testAMusiciansMovesChangeTheirBusOnlyAndEveryPageSeesThem() throws {
        let vox = try WebSocketTestClient(port: server.port, token: "vox-token-01234")
        let engineer = try WebSocketTestClient(port: server.port, token: "engineer-0123456789")
        let hello = try vox.expect("hello")
        XCTAssertEqual(hello["role"] as? String, "musician")
        XCTAssertEqual(hello["bus"] as? String, "iem_vox")
        let state = try vox.expect("state")
        XCTAssertEqual(sendLevel(state, strip: "gtr", bus: "iem_vox"), -12)
        let meters = try vox.expect("meters")
        XCTAssertEqual((meters["xruns"] as? NSNumber)?.intValue, 3)
        XCTAssertEqual((meters["dsp"] as? NSNumber)?.doubleValue, 12.5)
        _ = try engineer.expect("state")

        let moved = ContinuousClock.now
        vox.send(#"{"path":"/foldback/strip/gtr/send/iem_vox/gain_db","value":-2.5}"#)
        _ = try vox.expect("ok")
        XCTAssertEqual(try target.value("strip/gtr/send/iem_vox/gain_db"), -2.5)
        _ = try engineer.expect("state") { sendLevel($0, strip: "gtr", bus: "iem_vox") == -2.5 }
        XCTAssertLessThan(moved.duration(to: .now), .milliseconds(100), "another page sees the move within 100 ms")

        vox.send(#"{"path":"/foldback/strip/gtr/send/iem_gtr/gain_db","value":6}"#)
        let refusal = try vox.expect("error")
        XCTAssertTrue((refusal["reason"] as? String ?? "").contains("forbidden"), "\(refusal)")
        XCTAssertEqual(try target.value("strip/gtr/send/iem_gtr/gain_db"), 0, "another bus's send is unchanged")
        vox.send(#"{"path":"/foldback/strip/vox/send/iem_vox/gain_db","value":-1}"#)
        _ = try vox.expect("ok")   // still connected after a refusal

        // An OSC move (the same router) reaches the pages too.
        let oscMove = ContinuousClock.now
        _ = router.handle(OSCMessage("/foldback/strip/vox/send/iem_vox/gain_db", [.float(-7)]), from: try XCTUnwrap(OSCPeer(host: "127.0.0.1", port: 9)))
        _ = try vox.expect("state") { sendLevel($0, strip: "vox", bus: "iem_vox") == -7 }
        XCTAssertLessThan(oscMove.duration(to: .now), .milliseconds(100))
    }

    /// The tree reaches a page once (before its first state); a move then sends values only, the moved node's value
    /// at its place in the tree, without the tree again.
    func testTheTreeIsSentOnceAndStatesCarryValues() throws {
        let page = try WebSocketTestClient(port: server.port, token: "engineer-0123456789")
        let tree = try page.expect("tree")
        let paths = try XCTUnwrap(tree["parameters"] as? [[String: Any]]).compactMap { $0["path"] as? String }
        let index = try XCTUnwrap(paths.firstIndex(of: "strip/vox/unit/comp/threshold_db"))
        let first = try page.expect("state")
        XCTAssertEqual((first["parameters"] as? [Any])?.count, 0, "no nodes in a state")
        XCTAssertEqual((first["values"] as? [Any])?.count, paths.count)
        page.send(#"{"path":"/foldback/strip/vox/unit/comp/threshold_db","value":-31.5}"#)
        var sawTree = false
        let moved = page.next("state", timeout: 1.5) { state in
            (state["values"] as? [NSNumber]).map { $0[index].doubleValue == -31.5 } ?? false
        }
        XCTAssertNotNil(moved, "the move arrives as a value at the node's index")
        // Nothing in the next half second is a tree (the refresh comes every 10 s).
        let until = Date().addingTimeInterval(0.5)
        while Date() < until, let text = page.receive(timeout: 0.2) { if text.contains(#""type":"tree""#) { sawTree = true } }
        XCTAssertFalse(sawTree, "the tree is not sent with every state")
    }

    func testMetersArriveTwentyFiveTimesASecond() throws {
        let page = try WebSocketTestClient(port: server.port, token: "gtr-token-01234")
        _ = try page.expect("meters")
        let start = ContinuousClock.now
        for _ in 0..<50 { _ = try page.expect("meters") }
        let rate = 50 / (start.duration(to: .now) / .seconds(1))
        XCTAssertEqual(rate, 25, accuracy: 2.5, "meter pushes per second (the page needs at least 20)")
    }

    func testMalformedAndOversizedMessagesCloseTheSocketAndChangeNothing() throws {
        let before = target.engine.changedValues
        for text in [#"{"path":"/foldback/bus/iem_vox/gain_db","value":"loud"}"#, "not json",
                     #"{"path":"/foldback/bus/iem_vox/gain_db","value":-1}"# + String(repeating: " ", count: 5000)] {
            let client = try WebSocketTestClient(port: server.port, token: "vox-token-01234")
            _ = try client.expect("state")
            client.send(text)
            let refusal = try client.expect("error")
            XCTAssertTrue((refusal["reason"] as? String ?? "").hasPrefix("malformed"), "\(refusal)")
            while client.receive() != nil {}
            XCTAssertTrue(client.isClosed, "the socket is closed after '\(text.prefix(60))'")
        }
        XCTAssertEqual(target.engine.changedValues, before)
    }

    func testTwentyPagesAtOnceAllGetStateAndMeters() throws {
        let tokens = [WebTestTarget.access.engineerToken] + WebTestTarget.access.busTokens.map(\.token)
        var clients = try (0..<20).map { try WebSocketTestClient(port: server.port, token: tokens[$0 % tokens.count]) }
        for client in clients {
            _ = try client.expect("state")
            _ = try client.expect("meters")
        }
        XCTAssertEqual(server.pageCount, 20)
        clients[7].send(#"{"path":"/foldback/bus/iem_gtr/gain_db","value":-9}"#)   // token 7 % 4 = 3: iem_gtr
        for (index, client) in clients.enumerated() where [0, 3].contains(index % tokens.count) {   // the pages that show iem_gtr: the engineer's and its musician's
            _ = try client.expect("state") { state in
                ((state["buses"] as? [[String: Any]])?.first { $0["name"] as? String == "iem_gtr" }?["gain_db"] as? NSNumber)?.doubleValue == -9
            }
        }
        clients.removeAll()   // phones leave (their sockets close): nothing of them stays behind
        let deadline = Date().addingTimeInterval(5)
        while server.pageCount > 0 && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(server.pageCount, 0)
    }
}
