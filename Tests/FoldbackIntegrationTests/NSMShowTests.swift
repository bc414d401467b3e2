// Under a session manager the whole show runs: the web page, OSC, SIGUSR1 takes, and web, OSC and file-source tempo moves saved into the session's copy. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACK
import FoldbackJACKTesting
import FoldbackPresets
import FoldbackRender
import FoldbackWeb
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FoldbackTestSupport
import XCTest

final class NSMShowTests: JACKServerTestCase {
    func testWebOSCRecordingAndASaveOfAWebMoveAllWorkUnderASessionManager() throws {
        let server = try serverName
        let folder = try LiveControlRig.temporaryFolder()
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        let template = folder + "/template.toml", takes = folder + "/takes"
        let backing = try AudioFileWriter(url: URL(fileURLWithPath: folder + "/backing.wav"), sampleRate: 48_000, channelCount: 1)
        try backing.write(planar: [[Float](repeating: 0.1, count: 4_800)])
        try backing.finish()
        try LiveControlRig.writePreset(to: template, voxGainDB: 0, extra: """
            [[strip]]
            name = "backing"
            mute = true
            source = { file = "\(folder)/backing.wav", loop = true, engine = "faster" }
            send = [{ bus = "main" }]
            """)
        let sessionPath = folder + "/session/Foldback.nSHOW"
        let clientID = "fbshow-\(getpid() % 10_000)"
        let nsm = try FakeSessionManager()
        let run = try FoldbackRun(
            ["run", template, "--server", server, "--quiet", "--web-port", "0", "--osc-port", "0", "--record", takes, "--record-paused", "--watch"],
            testBundle: Bundle(for: Self.self), environment: ["NSM_URL": nsm.url])
        defer { run.stop() }
        _ = try nsm.acceptAnnounce()
        let opened = try nsm.request("/nsm/client/open", [.string(sessionPath), .string("Foldback"), .string(clientID)])
        XCTAssertEqual(opened.path, "/reply", "\(opened)")
        try run.waitUntilRunning()

        // The web surface serves its page for the printed engineer token, and only for it.
        let (webPort, token) = try Self.engineerLink(in: run.standardError)
        XCTAssertEqual(try Self.httpStatus(port: webPort, path: "/?token=\(token)"), 200)
        XCTAssertEqual(try Self.httpStatus(port: webPort, path: "/?token=0000000000000000"), 401)

        // OSC answers a query.
        let osc = try OSCClient(serverPort: try run.announcedOSCPort())
        let reply = try osc.request(OSCMessage("/foldback/strip/vox/gain_db/get")) { $0.path.hasPrefix("/foldback/strip/") }
        XCTAssertEqual(reply, OSCMessage("/foldback/strip/vox/gain_db", [.float(0)]))

        // SIGUSR1 starts a take (armed with --record-paused); it lands in the record folder with the signal.
        let probe = try JACKTestClient(serverName: server, signals: [.sine(frequency: 1_000, level: -20)], recordChannels: 1,
                                       capacity: 16_384, namePrefix: "fb-show")
        defer { probe.close() }
        XCTAssertEqual(probe.connectPlayer(to: ["\(clientID):vox_in"]), [], "the JACK client is named after the client id")
        XCTAssertEqual(probe.connectRecorder(from: ["\(clientID):main"]), [])
        kill(run.process.processIdentifier, SIGUSR1)
        try Self.waitForLog(run, "recording started: ")
        _ = try settledLevel(probe)   // signal through while the take runs
        XCTAssertEqual(try osc.request(OSCMessage("/foldback/record/stop")) { $0.path == "/foldback/record" },
                       OSCMessage("/foldback/record", [.string("recording stopped")]))
        try Self.waitForLog(run, "foldback: OSC /foldback/record/stop: recording stopped")
        XCTAssertTrue(run.process.isRunning, "SIGUSR1 does not stop foldback")
        let files = try FileManager.default.contentsOfDirectory(atPath: takes)
        XCTAssertEqual(files.count, 1, "one take of the one bus: \(files)")
        let take = try AudioFileReader(url: URL(fileURLWithPath: takes).appendingPathComponent(try XCTUnwrap(files.first))).readAll()
        XCTAssertGreaterThan(take[0].count, 9_600, "the take holds at least the measured stretch")
        XCTAssertEqual(Double(take[0].map(abs).max() ?? 0), 0.1, accuracy: 0.01, "and the −20 dBFS sine")

        // A move on the engineer's page makes the session dirty; with an OSC move, a save writes both into the session's copy.
        let page = try WebSocketTestClient(port: webPort, path: "/ws?token=\(token)")
        XCTAssertNotNil(page.next("state"))
        page.send(#"{"path":"/foldback/strip/vox/gain_db","value":-6}"#)
        XCTAssertNotNil(page.next("ok"), "the move was applied")
        _ = try nsm.expect("/nsm/client/is_dirty")
        try osc.send(OSCMessage("/foldback/bus/main/gain_db", [.float(-3)]))
        XCTAssertEqual(try osc.request(OSCMessage("/foldback/bus/main/gain_db/get")) { $0.path == "/foldback/bus/main/gain_db" },
                       OSCMessage("/foldback/bus/main/gain_db", [.float(-3)]))
        try osc.send(OSCMessage("/foldback/strip/backing/source/tempo", [.float(0.85)]))   // a host-side node: the file's disk thread
        XCTAssertEqual(try osc.request(OSCMessage("/foldback/strip/backing/source/tempo/get")) { $0.path.hasSuffix("/source/tempo") },
                       OSCMessage("/foldback/strip/backing/source/tempo", [.float(0.85)]))
        let saved = try nsm.request("/nsm/client/save")
        XCTAssertEqual(saved.path, "/reply", "\(saved)")
        _ = try nsm.expect("/nsm/client/is_clean")
        let written = try PresetLoader.load(path: sessionPath + ".toml")
        XCTAssertEqual(written.strips[0].gainDB, -6, accuracy: 1e-5, "the web move is in the saved copy")
        XCTAssertEqual(written.buses[0].gainDB, -3, accuracy: 1e-5, "and the OSC move")
        XCTAssertEqual(written.strip(named: "backing")?.source?.tempo, 0.85, "and the file source's live tempo")
        XCTAssertEqual(written.strips[0].connections, [[probe.player.ports[0].name]], "and the connections made now")

        // SIGHUP reloads the session's copy (which --watch left alone after the save: the save is not an edit).
        kill(run.process.processIdentifier, SIGHUP)
        try Self.waitForLog(run, "reloaded \(sessionPath).toml (SIGHUP)")
        XCTAssertFalse(run.standardError.contains("(the file changed)"), "a session save does not trigger --watch:\n\(run.standardError)")
        XCTAssertEqual(try osc.request(OSCMessage("/foldback/strip/vox/gain_db/get")) { $0.path == "/foldback/strip/vox/gain_db" },
                       OSCMessage("/foldback/strip/vox/gain_db", [.float(-6)]), "the reloaded copy holds the saved level")
    }

    /// The web port and engineer token of the access link foldback printed (`engineer: http://127.0.0.1:P/?token=T`).
    private static func engineerLink(in log: String) throws -> (port: UInt16, token: String) {
        guard let range = log.range(of: #"engineer: http://127\.0\.0\.1:\d+/\?token=[0-9A-Za-z_-]+"#, options: .regularExpression),
              let url = URLComponents(string: String(log[range].dropFirst("engineer: ".count))),
              let port = url.port.flatMap({ UInt16(exactly: $0) }), let token = url.queryItems?.first?.value else {
            throw FoldbackRun.Failure("foldback printed no engineer link:\n\(log)")
        }
        return (port, token)
    }

    /// The HTTP status of `GET path` on 127.0.0.1:`port`.
    private static func httpStatus(port: UInt16, path: String) throws -> Int {
        let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)\(path)"))
        let done = DispatchSemaphore(value: 0)
        let status = StatusBox()
        URLSession(configuration: .ephemeral).dataTask(with: url) { _, response, _ in
            status.value = (response as? HTTPURLResponse)?.statusCode
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 10) == .success, let value = status.value else { throw FoldbackRun.Failure("no answer to GET \(path)") }
        return value
    }

    private static func waitForLog(_ run: FoldbackRun, _ text: String, timeout: Double = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !run.standardError.contains(text) {
            guard Date() < deadline else { throw FoldbackRun.Failure("no '\(text)' in foldback's log within \(timeout) s:\n\(run.standardError)") }
            usleep(20_000)
        }
    }
}

/// The status an HTTP answer carried, set on URLSession's thread.
private final class StatusBox: @unchecked Sendable {
    var value: Int?
}
