// `foldback run` under a minimal NSM server (FakeSessionManager): announce, open, dirty, save, clean and reopen. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine
import FoldbackJACK
import FoldbackJACKTesting
import FoldbackPresets
import XCTest

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

    func testOpenSaveAndReopenKeepValuesAndConnectionsUnderTheClientIDAsJACKName() throws {
        let server = try serverName
        let (folder, templatePath) = try sessionFolder()
        let sessionPath = folder.appendingPathComponent("session/Foldback.nXYZW").path
        let clientID = "fbnsm-\(getpid() % 10_000)"
        let nsm = try FakeSessionManager()

        // First run: announce, open (the template is copied), a level changed over MIDI makes it dirty, save.
        var run = try startFoldback(templatePath, nsm)
        let announce = try nsm.acceptAnnounce()
        XCTAssertEqual(announce.first, .string("Foldback"))
        XCTAssertEqual(announce[1].text.map { $0.contains(":dirty:") && $0.contains(":switch:") }, true, "\(announce)")
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
        let nsm = try FakeSessionManager()
        let run = try startFoldback(templatePath, nsm)
        defer { run.stop() }
        _ = try nsm.acceptAnnounce()
        let save = try nsm.request("/nsm/client/save")
        XCTAssertEqual(save.path, "/error")
        XCTAssertEqual(save.arguments[1], .int(-6))
        let open = try nsm.request("/nsm/client/open", [.string(sessionPath), .string("Foldback"), .string("fbnsm-broken")])
        XCTAssertEqual(open.path, "/error")
        XCTAssertEqual(open.arguments[1], .int(-9))
        XCTAssertTrue(open.arguments[2].text?.contains("broken.toml:2:1: error: unknown key 'nme'") == true, "\(open)")
        XCTAssertTrue(run.process.isRunning, "a refused open leaves foldback waiting for another")
    }

    func testASecondOpenSwitchesToTheNewSessionAndClientNameKeepingItsOSCWebAndX32Ports() throws {
        let server = try serverName
        let (folder, templatePath) = try sessionFolder()
        let nsm = try FakeSessionManager()
        let oscPort = try UDPSocket(host: "127.0.0.1", port: 0).local.port   // free now; closed again at once
        let x32Port = try UDPSocket(host: "127.0.0.1", port: 0).local.port
        let run = try startFoldback(
            templatePath, nsm, options: ["--osc-port", "\(oscPort)", "--web-port", "\(oscPort)", "--x32-port", "\(x32Port)"])   // TCP: another port space
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
        let osc = try OSCClient(serverPort: oscPort)
        XCTAssertEqual(try osc.request(OSCMessage("/foldback/ping")), OSCMessage("/foldback/pong"), "the second session listens on the same OSC port")
        XCTAssertEqual(run.standardError.components(separatedBy: "web on 127.0.0.1:\(oscPort) ").count - 1, 2, "and serves the web surface on its port again")
        let x32 = try OSCClient(serverPort: x32Port)
        XCTAssertEqual(try x32.request(OSCMessage("/ch/01/config/name"))?.arguments, [.string("vox")], "and answers X32 clients on its port again")
        XCTAssertEqual(run.standardError.components(separatedBy: "X32 protocol on 127.0.0.1:\(x32Port) ").count - 1, 2)
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

    /// `foldback run TEMPLATE options…` on the test server, as the session manager `nsm` would start it.
    private func startFoldback(_ templatePath: String, _ nsm: FakeSessionManager, options: [String] = []) throws -> FoldbackRun {
        try FoldbackRun(["run", templatePath, "--server", try serverName, "--quiet"] + options, testBundle: Bundle(for: Self.self),
                        environment: ["NSM_URL": nsm.url])
    }
}
