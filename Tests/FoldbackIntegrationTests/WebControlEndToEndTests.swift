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

/// The page itself in headless Chromium at phone size: a musician's fader move is heard on the bus and seen by the engineer's page.
final class WebPageBrowserTests: JACKServerTestCase {
    func testAMusicianMovesTheVocalSendOnAPhoneSizedPage() throws {
        let browser = try WebDriverSession()
        defer { browser.close() }
        let preset = try LiveControlRig.temporaryFolder() + "/web.toml"
        try LiveControlRig.writePreset(to: preset, voxGainDB: 0, extra: """
              [[strip.unit]]
              type = "compressor"
              id = "comp"
              threshold_db = 0.0
              [[strip.send]]
              bus = "iem"
              gain_db = -3.0
            [[strip]]
            name = "keys"
              [[strip.send]]
              bus = "main"
              gain_db = -8.0
            [[bus]]
            name = "iem"
            channels = 1
            limiter = false
            """)
        let rig = try LiveControlRig(server: serverName, arguments: [preset, "--web-port", "0"], testCase: self)
        defer { rig.close() }
        let links = rig.run.standardError.split(separator: "\n").compactMap { line -> (String, String)? in
            guard let range = line.range(of: #"http://\S+"#, options: .regularExpression) else { return nil }
            return (line.contains("engineer:") ? "engineer" : String(line.split(separator: "'").dropFirst().first ?? ""), String(line[range]))
        }
        let link = Dictionary(links) { first, _ in first }
        let fader = #"document.querySelector('input[aria-label="strip/vox/send/main/gain_db"]')"#

        let engineerTab = try browser.currentTab()
        try browser.open(try XCTUnwrap(link["engineer"]))
        try browser.wait(until: "return \(fader) !== null && !document.body.classList.contains('offline')", "the engineer's send fader")
        let musicianTab = try browser.newTab()
        try browser.switchTo(musicianTab)
        try browser.open(try XCTUnwrap(link["main"]))
        try browser.wait(until: "return \(fader) !== null && !document.body.classList.contains('offline')", "the musician's send fader")
        XCTAssertEqual(try browser.run("return window.innerWidth") as? Int, 360, "a 360-pixel-wide phone")
        XCTAssertEqual(try browser.run("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool, true, "nothing wider than the phone")
        XCTAssertEqual(try browser.run("return [...document.querySelectorAll('.name')].map(e => e.textContent).join(',')") as? String,
                       "level,vox,keys", "the bus level, then a fader per strip sending to main, named as in the preset")
        XCTAssertEqual(decibels(try rig.measuredGain()), 0, accuracy: 0.1)

        // A touch drag ends with an input and a change event; the page sends the fader's value.
        try browser.run("const f = \(fader); f.value = -6; f.dispatchEvent(new Event('input')); f.dispatchEvent(new Event('change'));")
        try rig.waitForValue("/foldback/strip/vox/send/main/gain_db", -6)
        XCTAssertEqual(decibels(try rig.measuredGain()), -6, accuracy: 0.1, "main after the page's fader move")
        try browser.wait(until: "return [...document.querySelectorAll('.meter .rms')].some(e => parseFloat(e.style.width) > 0)", "moving meters")
        let shots = ProcessInfo.processInfo.environment["FOLDBACK_SCREENSHOTS"]
        if let shots { try browser.screenshot().write(to: URL(fileURLWithPath: shots + "/web-musician.png")) }

        try browser.switchTo(engineerTab)
        try browser.wait(until: "return \(fader).value === '-6'", timeout: 2, "the musician's move on the engineer's page")
        XCTAssertEqual(try browser.run("return document.getElementById('stats').textContent.includes('xruns')") as? Bool, true)
        if let shots { try browser.screenshot().write(to: URL(fileURLWithPath: shots + "/web-engineer.png")) }
    }
}

extension LiveControlRig {
    /// Waits until an OSC query of `path` answers `value`.
    func waitForValue(_ path: String, _ value: Float, timeout: Double = 5) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try request(path + "/get")?.arguments.first?.number != value {
            guard Date() < deadline else { throw FoldbackRun.Failure("\(path) never became \(value)") }
            usleep(20_000)
        }
    }
}
