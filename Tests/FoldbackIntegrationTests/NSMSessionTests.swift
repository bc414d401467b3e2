// `foldback run` under a minimal NSM server made with liblo: announce, open, dirty, save, clean and reopen. Non-realtime.
import FoldbackEngine
import FoldbackJACK
import FoldbackJACKTesting
import FoldbackPresets
import XCTest
@testable import foldback
import FoldbackLive

final class NSMSessionTests: JACKServerTestCase {
    private static let template = MIDIControlTests.routing + """
        [midi]
          [[midi.cc]]
          cc = 7
          target = "strip.vox.gain_db"
          min = -30
          max = 0
          curve = "linear"
        """

    /// The session manager's side: one liblo socket, the client's address once it announced.
    private final class TestNSMServer {
        let transport: NSMTransport
        var clientURL = ""

        init() throws { transport = try NSMTransport() }

        /// Waits for foldback's announce and accepts it; returns the announce's arguments.
        func acceptAnnounce() throws -> [NSMArgument] {
            let announce = try expect("/nsm/server/announce")
            clientURL = announce.sourceURL
            transport.send(to: clientURL, "/reply", [.string("/nsm/server/announce"), .string("welcome"), .string("test-nsm"), .string(":server-control:")])
            return announce.arguments
        }

        /// Sends `path` and waits for the client's `/reply` or `/error` to it.
        func request(_ path: String, _ arguments: [NSMArgument] = [], timeout: Double = 30) throws -> NSMMessage {
            XCTAssertTrue(transport.send(to: clientURL, path, arguments))
            return try next("the answer to \(path)", timeout: timeout) { $0.arguments.first?.string == path }
        }

        /// Waits for a message with `path` from the client.
        func expect(_ path: String, timeout: Double = 30) throws -> NSMMessage {
            try next(path, timeout: timeout) { $0.path == path }
        }

        /// Messages received but not yet asked for, oldest first.
        private var pending: [NSMMessage] = []

        /// The first message, received before or within `timeout` s, that `matches`; the others stay pending.
        private func next(_ what: String, timeout: Double, _ matches: (NSMMessage) -> Bool) throws -> NSMMessage {
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                if let index = pending.firstIndex(where: matches) { return pending.remove(at: index) }
                guard Date() < deadline else { throw FoldbackRun.Failure("no \(what) within \(timeout) s; got \(pending)") }
                pending += transport.receive(timeout: 0.05)
            }
        }

        /// Whether any message with `path` arrives within `seconds`.
        func receives(_ path: String, within seconds: Double) -> Bool {
            (try? next(path, timeout: seconds) { $0.path == path }) != nil
        }
    }

    func testOpenSaveAndReopenKeepValuesAndConnectionsUnderTheClientIDAsJACKName() throws {
        let server = try serverName
        let (folder, templatePath) = try sessionFolder()
        let sessionPath = folder.appendingPathComponent("session/Foldback.nXYZW").path
        let clientID = "fbnsm-\(getpid() % 10_000)"
        let nsm = try TestNSMServer()

        // First run: announce, open (the template is copied), a level changed over MIDI makes it dirty, save.
        var run = try startFoldback(templatePath, nsm)
        let announce = try nsm.acceptAnnounce()
        XCTAssertEqual(announce.first, .string("Foldback"))
        XCTAssertEqual(announce[1].string.map { $0.contains(":dirty:") && $0.contains(":switch:") }, true, "\(announce)")
        XCTAssertEqual(Array(announce[3...]), [.int(1), .int(2), .int(run.process.processIdentifier)])
        let opened = try nsm.request("/nsm/client/open", [.string(sessionPath), .string("Foldback"), .string(clientID)])
        XCTAssertEqual(opened.path, "/reply", "\(opened)")
        try run.waitUntilRunning()
        XCTAssertEqual(try String(contentsOfFile: sessionPath + ".toml", encoding: .utf8), Self.template)
        let probe = try JACKTestClient(serverName: server, signals: [.sine(frequency: 1_000, level: -20)], recordChannels: 1,
                                       capacity: 16_384, namePrefix: "fb-nsm")
        defer { probe.close() }
        XCTAssertEqual(probe.connectPlayer(to: ["\(clientID):vox_in"]), [], "the JACK client is named after the client id")
        XCTAssertEqual(probe.connectRecorder(from: ["\(clientID):main"]), [])
        let reference = try settledLevel(probe)

        let sender = try JACKTestMIDISender(name: "fb-nsm-midi", serverName: server)
        defer { sender.close() }
        XCTAssertNil(sender.connect(to: "\(clientID):midi_in"))
        XCTAssertTrue(sender.send(.controlChange(channel: 1, controller: 7, value: 64)))
        _ = try nsm.expect("/nsm/client/is_dirty")
        let expectedDB = -30 + 30 * Float(64) / 127
        XCTAssertEqual(try settledLevel(probe) - reference, Double(expectedDB), accuracy: 0.1)

        let saved = try nsm.request("/nsm/client/save")
        XCTAssertEqual(saved.path, "/reply", "\(saved)")
        _ = try nsm.expect("/nsm/client/is_clean")
        let written = try PresetLoader.load(path: sessionPath + ".toml")
        XCTAssertEqual(written.strips[0].gainDB, expectedDB, accuracy: 1e-5)
        XCTAssertEqual(written.strips[0].connections, [[probe.player.ports[0].name]])
        XCTAssertEqual(written.buses[0].connections, [[probe.recorder.ports[0].name]])
        XCTAssertEqual(written.midi, try PresetLoader.parse(Self.template, path: "t.toml").midi)
        run.stop()

        // Reopen: the saved level and connections come back without any help from the test.
        run = try startFoldback(templatePath, nsm)
        defer { run.stop() }
        _ = try nsm.acceptAnnounce()
        XCTAssertEqual(try nsm.request("/nsm/client/open", [.string(sessionPath), .string("Foldback"), .string(clientID)]).path, "/reply")
        try run.waitUntilRunning()
        XCTAssertEqual(try settledLevel(probe) - reference, Double(expectedDB), accuracy: 0.1)
        XCTAssertFalse(nsm.receives("/nsm/client/is_dirty", within: 0.3), "a fresh open is clean")
    }

    func testSaveBeforeOpenAndABrokenSessionPresetGetErrorReplies() throws {
        let (folder, templatePath) = try sessionFolder()
        let sessionPath = folder.appendingPathComponent("broken").path
        try "[[bus]]\nnme = \"main\"\n".write(toFile: sessionPath + ".toml", atomically: true, encoding: .utf8)
        let nsm = try TestNSMServer()
        let run = try startFoldback(templatePath, nsm)
        defer { run.stop() }
        _ = try nsm.acceptAnnounce()
        let save = try nsm.request("/nsm/client/save")
        XCTAssertEqual(save.path, "/error")
        XCTAssertEqual(save.arguments[1], .int(-6))
        let open = try nsm.request("/nsm/client/open", [.string(sessionPath), .string("Foldback"), .string("fbnsm-broken")])
        XCTAssertEqual(open.path, "/error")
        XCTAssertEqual(open.arguments[1], .int(-9))
        XCTAssertTrue(open.arguments[2].string?.contains("broken.toml:2:1: error: unknown key 'nme'") == true, "\(open)")
        XCTAssertTrue(run.process.isRunning, "a refused open leaves foldback waiting for another")
    }

    func testASecondOpenSwitchesToTheNewSessionAndClientName() throws {
        let server = try serverName
        let (folder, templatePath) = try sessionFolder()
        let nsm = try TestNSMServer()
        let run = try startFoldback(templatePath, nsm)
        defer { run.stop() }
        _ = try nsm.acceptAnnounce()
        let first = "fbnsm-a\(getpid() % 1_000)", second = "fbnsm-b\(getpid() % 1_000)"
        XCTAssertEqual(try nsm.request("/nsm/client/open", [.string(folder.appendingPathComponent("one").path), .string("Foldback"), .string(first)]).path, "/reply")
        XCTAssertEqual(try nsm.request("/nsm/client/open", [.string(folder.appendingPathComponent("two").path), .string("Foldback"), .string(second)]).path, "/reply")
        let observer = try JACKClient(name: "fb-nsm-observer", serverName: server)
        defer { observer.close() }
        XCTAssertEqual(observer.portNames(matching: "^\(first):"), [], "the first session's client is gone")
        XCTAssertEqual(Set(observer.portNames(matching: "^\(second):")), ["\(second):vox_in", "\(second):main", "\(second):midi_in"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("two.toml").path))
    }

    /// A fresh folder (removed after the test) holding the template preset; returns it and the template's path.
    private func sessionFolder() throws -> (URL, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fb-nsm-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let templatePath = folder.appendingPathComponent("template.toml").path
        try Self.template.write(toFile: templatePath, atomically: true, encoding: .utf8)
        return (folder, templatePath)
    }

    /// `foldback run TEMPLATE` on the test server, as the session manager `nsm` would start it.
    private func startFoldback(_ templatePath: String, _ nsm: TestNSMServer) throws -> FoldbackRun {
        try FoldbackRun(["run", templatePath, "--server", try serverName, "--quiet"], testBundle: Bundle(for: Self.self),
                        environment: ["NSM_URL": nsm.transport.url])
    }
}
