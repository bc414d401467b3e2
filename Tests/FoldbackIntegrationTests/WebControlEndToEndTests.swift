// The web surface of a real `foldback run --web-port 0`: a musician's WebSocket move changes the measured bus level; another bus's is refused. Non-realtime.
import FoldbackControl
import FoldbackWeb
import Foundation
import XCTest

/// A real foldback process on a dummy jackd, driven over its web surface, heard by a JACK test client on `main`.
final class WebControlEndToEndTests: JACKServerTestCase {
    /// The tokens foldback printed at start, by role (`engineer`, or the bus name), and its web port.
    private func access(_ log: String) throws -> (port: UInt16, tokens: [String: String]) {
        var port: UInt16?
        var tokens: [String: String] = [:]
        for line in log.split(separator: "\n") {
            guard let link = line.range(of: #"http://127\.0\.0\.1:\d+/\?token=[0-9a-f]+"#, options: .regularExpression) else { continue }
            let url = line[link]
            port = UInt16(url.split(separator: ":")[2].prefix { $0.isNumber })
            let token = String(url.split(separator: "=").last ?? "")
            let role = line.contains("engineer:") ? "engineer" : String(line.split(separator: "'").dropFirst().first ?? "")
            tokens[role] = token
        }
        return (try XCTUnwrap(port, "foldback printed its web links:\n\(log)"), tokens)
    }

    func testAMusiciansSendMoveChangesTheMeasuredLevelAndAnotherBusIsRefused() throws {
        let preset = try LiveControlRig.temporaryFolder() + "/web.toml"
        try LiveControlRig.writePreset(to: preset, voxGainDB: 0, extra: """
              [[strip.send]]
              bus = "iem"
            [[bus]]
            name = "iem"
            channels = 1
            limiter = false
            """)
        let rig = try LiveControlRig(server: serverName, arguments: [preset, "--web-port", "0"], testCase: self)
        defer { rig.close() }
        let (port, tokens) = try access(rig.run.standardError)
        XCTAssertEqual(Set(tokens.keys), ["engineer", "main", "iem"])
        XCTAssertEqual(decibels(try rig.measuredGain()), 0, accuracy: 0.1, "unity to start with")

        let main = try WebSocketTestClient(port: port, path: "/ws?token=\(try XCTUnwrap(tokens["main"]))")
        XCTAssertNotNil(main.next("state"))
        main.send(#"{"path":"/foldback/strip/vox/send/main/gain_db","value":-6}"#)
        XCTAssertNotNil(main.next("ok"), "the move was applied")
        XCTAssertEqual(decibels(try rig.measuredGain()), -6, accuracy: 0.1, "main after its musician's send move")

        let iem = try WebSocketTestClient(port: port, path: "/ws?token=\(try XCTUnwrap(tokens["iem"]))")
        iem.send(#"{"path":"/foldback/strip/vox/send/main/gain_db","value":0}"#)
        let refusal = try XCTUnwrap(iem.next("error"), "another bus's move is refused")
        XCTAssertTrue((refusal["reason"] as? String ?? "").contains("forbidden"), "\(refusal)")
        iem.send(#"{"path":"/foldback/bus/main/gain_db","value":-20}"#)
        XCTAssertNotNil(iem.next("error"))
        XCTAssertThrowsError(try WebSocketTestClient(port: port, path: "/ws?token=0000000000000000"), "a wrong token gets no socket")
        XCTAssertEqual(decibels(try rig.measuredGain()), -6, accuracy: 0.1, "refused moves left main alone")
        XCTAssertEqual(try rig.request("/foldback/strip/vox/send/main/gain_db/get"), OSCMessage("/foldback/strip/vox/send/main/gain_db", [.float(-6)]),
                       "OSC reads the web move back: one parameter model")
    }
}
