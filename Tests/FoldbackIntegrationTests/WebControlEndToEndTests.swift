// The web surface of a real `foldback run --web-port 0`: a musician's WebSocket move changes the measured bus level; another bus's is refused. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACK
import FoldbackWeb
import FoldbackTestSupport
import Foundation
import FoldbackJACKTesting
import XCTest

/// A real foldback process on a dummy jackd, driven over its web surface, heard by a JACK test client on `main`.
final class WebControlEndToEndTests: JACKServerTestCase {
    func testAMusiciansSendMoveChangesTheMeasuredLevelAndAnotherBusIsRefused() throws {
        let (rig, port, tokens) = try LiveControlRig.web(server: serverName, testCase: self)
        defer { rig.close() }
        XCTAssertEqual(Set(tokens.keys), ["engineer", "main", "iem"])
        XCTAssertEqual(tokens["iem"], "iem-fixed-token", "the preset's [web] token")
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

    func testARecallSafeBusKeepsAWebMoveAcrossASongChange() throws {
        let folder = try LiveControlRig.temporaryFolder()
        func song(_ name: String, recallSafe: Bool, voxSendDB: Double) throws {
            try """
                [[bus]]
                name = "main"
                channels = 1
                limiter = false
                recall_safe = \(recallSafe)
                [[strip]]
                name = "vox"
                send = [{ bus = "main", gain_db = \(voxSendDB) }]
                [web.bus_tokens]
                main = "main-fixed-token"
                """.write(toFile: "\(folder)/\(name).toml", atomically: true, encoding: .utf8)
        }
        try song("one", recallSafe: true, voxSendDB: 0)
        try song("two", recallSafe: true, voxSendDB: -12)
        try song("three", recallSafe: false, voxSendDB: -18)
        let rig = try LiveControlRig(server: serverName, arguments: ["\(folder)/one.toml", "--web-port", "0"], testCase: self)
        defer { rig.close() }
        let port = try XCTUnwrap(rig.run.standardError.range(of: #"web on 127\.0\.0\.1:\d+"#, options: .regularExpression)
            .flatMap { UInt16(rig.run.standardError[$0].split(separator: ":").last ?? "") })
        let main = try WebSocketTestClient(port: port, path: "/ws?token=main-fixed-token")
        main.send(#"{"path":"/foldback/strip/vox/send/main/gain_db","value":-6}"#)
        XCTAssertNotNil(main.next("ok"))
        XCTAssertEqual(decibels(try rig.measuredGain()), -6, accuracy: 0.1, "after the musician's move")
        XCTAssertEqual(try rig.request("/foldback/preset/load", [.string("two.toml")])?.path, "/foldback/preset/loaded")
        XCTAssertEqual(decibels(try rig.measuredGain()), -6, accuracy: 0.1, "song two's −12 dB does not replace the recall-safe bus's mix")
        XCTAssertNotNil(main.next("state") { WebSocketTestClient.sendLevel(in: $0, strip: "vox", bus: "main") == -6 }, "the page shows the kept level")
        XCTAssertEqual(try rig.request("/foldback/preset/load", [.string("three.toml")])?.path, "/foldback/preset/loaded")
        XCTAssertEqual(decibels(try rig.measuredGain()), -18, accuracy: 0.1, "song three's bus is not recall-safe and its file changes the send: its own level")
    }
}

/// The page itself in headless Chromium at phone size: a musician's fader move is heard on the bus and seen by the engineer's page.
final class WebPageBrowserTests: JACKServerTestCase {
    /// A bus that only a later setlist song has gets its musician's link at start, so it can be handed out
    /// before the show.
    func testEveryBusOfTheSetlistGetsALinkAtStart() throws {
        let folder = try LiveControlRig.temporaryFolder()
        try LiveControlRig.writePreset(to: folder + "/one.toml", voxGainDB: 0)
        try LiveControlRig.writePreset(to: folder + "/two.toml", voxGainDB: 0, extra: """
            [[bus]]
            name = "iem_gtr"
            channels = 1
            """)
        let setlist = folder + "/show.toml"
        try """
            [[song]]
            name = "One"
            preset = "one.toml"
            [[song]]
            name = "Two"
            preset = "two.toml"
            """.write(toFile: setlist, atomically: true, encoding: .utf8)
        let rig = try LiveControlRig(server: serverName, arguments: ["--setlist", setlist, "--web-port", "0"], testCase: self)
        defer { rig.close() }
        try rig.waitForLog("bus 'iem_gtr': http://127.0.0.1:")
        XCTAssertTrue(rig.run.standardError.contains("bus 'main': http://127.0.0.1:"), rig.run.standardError)
    }

    /// The engineer's page drives the engineer's tools: a bus into the cue, a strip's trim, talkback held
    /// down and let go; each lands in the same control path OSC reads back.
    func testTheEngineerCuesABusTrimsAStripAndHoldsTalkback() throws {
        let browser = try WebDriverSession()
        defer { browser.close() }
        let (rig, port, tokens) = try LiveControlRig.web(server: serverName, testCase: self, extraStrip: """
            [[strip]]
            name = "tb"
            talkback = true
            talk_to = ["iem"]
            [cue]
            gain_db = -6.0
            """)
        defer { rig.close() }
        try browser.open("http://127.0.0.1:\(port)/?token=\(try XCTUnwrap(tokens["engineer"]))")
        let cueMain = #"document.querySelector('button[data-path="cue/bus/main"]')"#
        let hold = #"document.querySelector('button[data-hold="talkback/tb"]')"#
        let trim = #"document.querySelector('input[aria-label="strip/vox/trim_db"]')"#
        try browser.wait(until: "return \(cueMain) !== null && \(hold) !== null && \(trim) !== null", "the cue, talkback and trim controls")

        try browser.run("\(cueMain).click()")
        let deadline = Date().addingTimeInterval(5)
        while try rig.request("/foldback/cue/get")?.arguments.compactMap(\.text).contains("bus/main") != true {
            guard Date() < deadline else { return XCTFail("the page's cue button did not cue bus main") }
            usleep(20_000)
        }
        try browser.wait(until: "return \(cueMain).classList.contains('on')", "the cue button lit")

        try browser.run("\(hold).dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }))")
        try rig.waitForValue("/foldback/talkback/tb", 1)
        try browser.run("\(hold).dispatchEvent(new PointerEvent('pointerup', { bubbles: true }))")
        try rig.waitForValue("/foldback/talkback/tb", 0)

        try browser.run("const f = \(trim); f.value = 6; f.dispatchEvent(new Event('input')); f.dispatchEvent(new Event('change'));")
        try rig.waitForValue("/foldback/strip/vox/trim_db", 6)
    }

    func testAMusicianMovesTheVocalSendOnAPhoneSizedPage() throws {
        let browser = try WebDriverSession()
        defer { browser.close() }
        let (rig, port, tokens) = try LiveControlRig.web(server: serverName, testCase: self, extraStrip: """
            [[strip]]
            name = "keys"
              [[strip.send]]
              bus = "main"
              gain_db = -8.0
            """)
        defer { rig.close() }
        func link(_ role: String) throws -> String { "http://127.0.0.1:\(port)/?token=\(try XCTUnwrap(tokens[role]))" }
        let fader = #"document.querySelector('input[aria-label="strip/vox/send/main/gain_db"]')"#

        let engineerTab = try browser.currentTab()
        try browser.open(try link("engineer"))
        try browser.wait(until: "return \(fader) !== null && !document.body.classList.contains('offline')", "the engineer's send fader")
        let musicianTab = try browser.newTab()
        try browser.switchTo(musicianTab)
        try browser.open(try link("main"))
        try browser.wait(until: "return \(fader) !== null && !document.body.classList.contains('offline')", "the musician's send fader")
        XCTAssertEqual(try browser.run("return window.innerWidth") as? Int, 360, "a 360-pixel-wide phone")
        XCTAssertEqual(try browser.run("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool, true, "nothing wider than the phone")
        XCTAssertEqual(try browser.run("return [...document.querySelectorAll('.name')].map(e => e.textContent).join(',')") as? String,
                       "Whole mix,vox,keys", "the whole mix's level, then a fader per strip sending to main, named as in the preset (no labels here)")
        XCTAssertEqual(try browser.run("return window.foldbackPage.state.parameters.map(p => p.path).join(',')") as? String,
                       "strip/vox/send/main/gain_db,strip/vox/send/main/mute,strip/keys/send/main/gain_db,strip/keys/send/main/mute,bus/main/gain_db,bus/main/mute",
                       "the page was pushed the nodes of its bus alone, not vox's units or the iem bus")
        XCTAssertEqual(try browser.run("const s = window.foldbackPage.state; return [s.strips.map(x => x.name + ':' + x.sends.map(y => y.bus)), s.buses.map(b => b.name)].join(';')") as? String,
                       "vox:main,keys:main;main", "the strips feeding main with that send alone, and main")
        XCTAssertEqual(decibels(try rig.measuredGain()), 0, accuracy: 0.1)

        // A touch drag ends with an input and a change event; the page sends the fader's value.
        try browser.run("const f = \(fader); f.value = -6; f.dispatchEvent(new Event('input')); f.dispatchEvent(new Event('change'));")
        try rig.waitForValue("/foldback/strip/vox/send/main/gain_db", -6)
        XCTAssertEqual(decibels(try rig.measuredGain()), -6, accuracy: 0.1, "main after the page's fader move")
        try browser.wait(until: "return [...document.querySelectorAll('.meter .rms')].some(e => parseFloat(e.style.width) > 0)", "moving meters")
        try browser.wait(until: "const l = document.querySelector('.lufs'); return l !== null && /^Loudness −?[0-9]+ LUFS · peak −?[0-9]+ dB$/.test(l.textContent)",
                         "the bus's measured loudness in words under its fader (main is no in-ear bus: no dose)")
        let shots = ProcessInfo.processInfo.environment["FOLDBACK_SCREENSHOTS"]   // the musician's page: MusicianPageBrowserTests

        try browser.switchTo(engineerTab)
        try browser.wait(until: "return \(fader).value === '-6'", timeout: 2, "the musician's move on the engineer's page")
        // The engineer moves the musician's send: the musician's page follows.
        try browser.run("const f = \(fader); f.value = -4; f.dispatchEvent(new Event('input')); f.dispatchEvent(new Event('change'));")
        try rig.waitForValue("/foldback/strip/vox/send/main/gain_db", -4)
        try browser.switchTo(musicianTab)
        try browser.wait(until: "return \(fader).value === '-4'", timeout: 2, "the engineer's move on the musician's page")
        try browser.switchTo(engineerTab)
        XCTAssertEqual(try browser.run("return document.getElementById('stats').textContent.includes('xruns')") as? Bool, true)
        XCTAssertEqual(try browser.run("return document.querySelectorAll('.links img').length") as? Int, 0, "QR codes only on demand")
        try browser.run("document.getElementById('show-qr').click()")
        try browser.wait(until: "const q = [...document.querySelectorAll('.links img')]; return q.length === 2 && q.every(i => i.complete && i.naturalWidth > 0)",
                         "a loaded QR code per musician's link")

        // A dropped connection shows, greys the controls, and comes back by itself with the current values.
        try browser.run("window.foldbackSocket.close()")
        try browser.wait(until: "return document.body.classList.contains('offline') && getComputedStyle(document.getElementById('offline')).display !== 'none'",
                         timeout: 0.5, "the offline banner (it reconnects after 0.5 s)")
        try rig.osc.send(OSCMessage("/foldback/strip/vox/send/main/gain_db", [.float(-9)]))
        try browser.wait(until: "return !document.body.classList.contains('offline') && \(fader).value === '-9'", timeout: 5, "a reconnect with the value OSC set meanwhile")
        if let shots { try browser.screenshot().write(to: URL(fileURLWithPath: shots + "/web-engineer.png")) }
    }
}

extension LiveControlRig {
    /// `foldback run --web-port 0` with vox (a compressor that never acts, sends to `main` at 0 dB and `iem`
    /// at −3 dB), `extraStrip` and the mono buses `main` and `iem`; its web port and the printed tokens by
    /// role (`engineer`, or the bus name).
    /// `extraBus` follows `iem`'s table (its `[[bus.unit]]`s); the test client plays `signals` into `playInto`.
    static func web(
        server: String, testCase: XCTestCase, extraStrip: String = "", signals: [TestSignal] = [.noise(seed: 3, level: -20)],
        playInto: [String] = ["vox_in"], extraBus: String = "", recordFrom: [String] = ["main"]
    ) throws -> (LiveControlRig, UInt16, [String: String]) {
        let preset = try temporaryFolder() + "/web.toml"
        try writePreset(to: preset, voxGainDB: 0, extra: """
              [[strip.unit]]
              type = "compressor"
              id = "comp"
              threshold_db = 0.0
              [[strip.send]]
              bus = "iem"
              gain_db = -3.0
            \(extraStrip)
            [[bus]]
            name = "iem"
            channels = 1
            limiter = false
            \(extraBus)
            [web.bus_tokens]
            iem = "iem-fixed-token"
            """)
        return try web(server: server, testCase: testCase, preset: preset, signals: signals, playInto: playInto, recordFrom: recordFrom)
    }

    /// `foldback run PRESET --web-port 0` (and `options`): the rig, its web port and the printed tokens by role (`engineer`, or the bus name).
    static func web(
        server: String, testCase: XCTestCase, preset: String, options: [String] = [], signals: [TestSignal] = [.noise(seed: 3, level: -20)],
        playInto: [String] = ["vox_in"], recordFrom: [String] = ["main"]
    ) throws -> (LiveControlRig, UInt16, [String: String]) {
        try web(server: server, testCase: testCase, arguments: [preset] + options, signals: signals, playInto: playInto, recordFrom: recordFrom)
    }

    /// `foldback run ARGUMENTS… --web-port 0` (a preset or `--setlist FILE`, and options): the rig, its web port and the printed
    /// tokens by role (`engineer`, or the bus name).
    static func web(
        server: String, testCase: XCTestCase, arguments: [String], signals: [TestSignal] = [.noise(seed: 3, level: -20)],
        playInto: [String] = ["vox_in"], recordFrom: [String] = ["main"]
    ) throws -> (LiveControlRig, UInt16, [String: String]) {
        let rig = try LiveControlRig(
            server: server, arguments: arguments + ["--web-port", "0"], testCase: testCase, signals: signals, playInto: playInto, recordFrom: recordFrom)
        var port: UInt16?
        var tokens: [String: String] = [:]
        for line in rig.run.standardError.split(separator: "\n") {
            guard let link = line.range(of: #"http://127\.0\.0\.1:\d+/\?token=[0-9a-zA-Z_-]+"#, options: .regularExpression) else { continue }
            port = UInt16(line[link].split(separator: ":")[2].prefix { $0.isNumber })
            tokens[line.contains("engineer:") ? "engineer" : String(line.split(separator: "'").dropFirst().first ?? "")] =
                String(line[link].split(separator: "=").last ?? "")
        }
        return (rig, try XCTUnwrap(port, "foldback printed its web links:\n\(rig.run.standardError)"), tokens)
    }

    /// Waits until an OSC query of `path` answers `value`.
    func waitForValue(_ path: String, _ value: Float, timeout: Double = 5) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try request(path + "/get")?.arguments.first?.number != value {
            guard Date() < deadline else { throw FoldbackRun.Failure("\(path) never became \(value)") }
            usleep(20_000)
        }
    }
}
