// One router for every surface: each log line names the surface that sent the request; NSM-style peer URLs parse. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import Foundation
import Synchronization
import XCTest

final class ControlSurfaceTests: XCTestCase {
    func testOneRouterLogsEachRequestWithTheSurfaceThatSentIt() throws {
        let log = Mutex<[String]>([])
        let router = ControlRouter(target: try OfflineTarget()) { line in log.withLock { $0.append(line) } }
        let peer = try XCTUnwrap(OSCPeer(host: "127.0.0.1", port: 9))
        let request = OSCMessage("/foldback/preset/load", [.string("/nowhere/else.toml")])
        for surface in ControlSurface.allCases {
            XCTAssertEqual(router.handle(request, from: peer, surface: surface).first?.path, OSCServer.errorPath)
        }
        XCTAssertEqual(router.handle(request, from: peer).first?.path, OSCServer.errorPath, "OSC without a surface named")
        let prefixes = log.withLock { $0 }.map { $0.prefix { $0 != " " } }
        XCTAssertEqual(prefixes, ["OSC", "web", "MIDI", "keys", "X32", "OSC"], "\(log.withLock { $0 })")
        XCTAssertTrue(log.withLock { $0 }.allSatisfy { $0.contains(" /foldback/preset/load refused: ") }, "\(log.withLock { $0 })")
    }

    func testSessionManagerURLsNameTheirPeer() throws {
        XCTAssertEqual(OSCPeer(url: "osc.udp://127.0.0.1:15432/"), OSCPeer(host: "127.0.0.1", port: 15432))
        XCTAssertEqual(OSCPeer(url: "osc.udp://127.0.0.1:15432"), OSCPeer(host: "127.0.0.1", port: 15432), "the closing slash is optional")
        let named = try XCTUnwrap(OSCPeer(url: "osc.udp://localhost:9000/"), "a host name resolves")
        XCTAssertTrue(named.isLoopback)
        XCTAssertEqual(named.port, 9000)
        XCTAssertEqual(OSCPeer(host: "127.0.0.1", port: 15432)?.url, "osc.udp://127.0.0.1:15432/")
        XCTAssertEqual(OSCPeer(host: "192.168.1.20", port: 1)?.isLoopback, false)
        for bad in ["", "osc.tcp://127.0.0.1:9000/", "osc.udp://127.0.0.1/", "osc.udp://127.0.0.1:99999/", "osc.udp://no-such-host.invalid:9000/"] {
            XCTAssertNil(OSCPeer(url: bad), bad)
        }
    }
}
