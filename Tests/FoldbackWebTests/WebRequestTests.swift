// Parsing and applying page requests: shapes, sizes, types, roles, and a fuzz of malformed messages that must change nothing. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackDSP
@testable import FoldbackWeb
import XCTest

final class WebRequestTests: XCTestCase {
    func testWellFormedRequestsParse() throws {
        XCTAssertEqual(try WebRequest.parse(#"{"path":"/foldback/strip/vox/send/iem_vox/gain_db","value":-3}"#),
                       .set(path: "/foldback/strip/vox/send/iem_vox/gain_db", value: -3))
        XCTAssertEqual(try WebRequest.parse(#" { "value" : 0.5 , "path" : "/foldback/strip/vox/pan" } "#), .set(path: "/foldback/strip/vox/pan", value: 0.5))
        XCTAssertEqual(try WebRequest.parse(#"{"command":"setlist/next"}"#), .command("setlist/next"))
        XCTAssertEqual(try WebRequest.parse(#"{"command":"bus/wedge/unit/fbx/notch/3/clear"}"#), .command("bus/wedge/unit/fbx/notch/3/clear"), "a feedback notch's clear")
        XCTAssertEqual(try WebRequest.parse(#"{"analyser":"strip/vox/post"}"#), .analyser("strip/vox/post"))
        XCTAssertEqual(try WebRequest.parse(#"{"meters":25}"#), .meters(25), "a visible tab's meter rate")
        XCTAssertEqual(try WebRequest.parse(#"{"meters":0}"#), .meters(0), "a hidden tab's")
        XCTAssertEqual(try WebRequest.parse(#"{"meters":12.5}"#), .meters(12.5))
        for word in ["play", "stop", "cue"] {
            XCTAssertEqual(try WebRequest.parse(#"{"command":"strip/click/source/\#(word)"}"#), .command("strip/click/source/\(word)"), "a file source's \(word)")
        }
    }

    func testMalformedRequestsAreRefused() {
        let long = String(repeating: "a", count: 300)
        for text in [
            "", "null", "[]", "3", #""path""#, "{", "{}", #"{"path":"/foldback/strip/vox/gain_db"}"#, #"{"value":1}"#,
            #"{"path":"/foldback/strip/vox/gain_db","value":"-3"}"#, #"{"path":"/foldback/strip/vox/gain_db","value":true}"#,
            #"{"path":"/foldback/strip/vox/gain_db","value":null}"#, #"{"path":"/foldback/strip/vox/gain_db","value":[1]}"#,
            #"{"path":3,"value":1}"#, #"{"path":"/other/x","value":1}"#, #"{"path":"/foldback/strip/vox/gain_db","value":1e999}"#,
            #"{"path":"/foldback/strip/vox/gain_db","value":1,"extra":2}"#, #"{"path":"/foldback/strip/vox/gain_db","value":1,"command":"setlist/next"}"#,
            #"{"command":"preset/load"}"#, #"{"command":"preset/save /etc/passwd"}"#, #"{"command":5}"#, #"{"command":"bus/wedge/unit/fbx/notch/3"}"#,
            #"{"command":"strip/click/source/locate"}"#, #"{"command":"strip/click/source/rewind"}"#, #"{"command":"strip/click/source"}"#,
            #"{"analyser":3}"#, #"{"analyser":null}"#, #"{"analyser":"bus/x","command":"setlist/next"}"#, #"{"analyser":"bus/x","value":1}"#,
            #"{"analyser":"\#(long)"}"#,
            #"{"meters":-1}"#, #"{"meters":26}"#, #"{"meters":1e999}"#, #"{"meters":"25"}"#, #"{"meters":null}"#, #"{"meters":true}"#,
            #"{"meters":[25]}"#, #"{"meters":25,"command":"setlist/next"}"#, #"{"meters":25,"analyser":"off"}"#, #"{"meters":25,"value":1}"#,
            #"{"path":"/foldback/\#(long)","value":1}"#, "{\"path\":\"/foldback/strip/vox/gain_db\",\"value\":1}" + String(repeating: " ", count: 1100),
        ] {
            XCTAssertThrowsError(try WebRequest.parse(text), text) { error in
                guard case .malformed = error as? WebRefusal else { return XCTFail("\(text): \(error)") }
            }
        }
    }

    func testRolesAndTheRouterDecideWhatChanges() throws {
        let (target, control, _) = try WebTestTarget.control()
        let vox = WebRole.musician(bus: "iem_vox")
        try control.apply(text: #"{"path":"/foldback/strip/gtr/send/iem_vox/gain_db","value":-4.5}"#, as: vox)
        XCTAssertEqual(try target.value("strip/gtr/send/iem_vox/gain_db"), -4.5)
        try control.apply(text: #"{"path":"/foldback/bus/iem_vox/mute","value":1}"#, as: vox)
        XCTAssertEqual(try target.value("bus/iem_vox/mute"), 1)
        func refusal(_ text: String, _ role: WebRole) -> WebRefusal? {
            do { try control.apply(text: text, as: role) } catch { return error }
            return nil
        }
        let before = target.engine.changedValues
        for (text, role) in [
            (#"{"path":"/foldback/strip/vox/send/iem_gtr/gain_db","value":6}"#, vox),   // another bus
            (#"{"path":"/foldback/strip/vox/gain_db","value":6}"#, vox),   // the strip's fader
            (#"{"path":"/foldback/bus/main/gain_db","value":-20}"#, vox),
            (#"{"command":"preset/reload"}"#, vox),
        ] {
            guard case .forbidden? = refusal(text, role) else { return XCTFail("\(text) should be forbidden") }
        }
        for (text, role) in [
            (#"{"path":"/foldback/strip/vox/send/iem_vox/gain_db","value":40}"#, vox),   // above +24 dB
            (#"{"path":"/foldback/bus/iem_vox/mute","value":0.5}"#, vox),   // a switch takes 0 or 1
            (#"{"path":"/foldback/strip/nobody/send/iem_vox/gain_db","value":0}"#, vox),
            (#"{"path":"/foldback/strip/vox/pan","value":2}"#, WebRole.engineer),
            (#"{"command":"setlist/next"}"#, WebRole.engineer),   // no setlist running
        ] {
            guard case .refused? = refusal(text, role) else { return XCTFail("\(text) should be refused by the router") }
        }
        XCTAssertEqual(target.engine.changedValues, before, "refused requests changed nothing")
        try control.apply(text: #"{"path":"/foldback/strip/vox/unit/comp/bypass","value":1}"#, as: .engineer)
        XCTAssertEqual(try target.value("strip/vox/unit/comp/bypass"), 1)
    }

    /// 20,000 random and mutated messages as a musician and as the engineer: no crash, and every refused one changes nothing.
    func testFuzzedMessagesNeverCrashAndRefusedOnesChangeNothing() throws {
        let (target, control, _) = try WebTestTarget.control()
        var random = SeededGenerator(seed: 0x5EED_0013)
        let seeds = [
            #"{"path":"/foldback/strip/vox/send/iem_vox/gain_db","value":-3}"#, #"{"path":"/foldback/bus/iem_vox/mute","value":1}"#,
            #"{"command":"setlist/next"}"#, #"{"path":"/foldback/strip/gtr/pan","value":0.5}"#, #"{"meters":25}"#, #"{"meters":0}"#,
        ]
        let alphabet = Array(#"{}[]":,.-+eE0123456789 \/truefalsnpathvaluecommand"#.utf8) + [0, 0xFF, 0xC3, 0x80]
        var refused = 0
        for round in 0..<20_000 {
            var bytes = Array(seeds[Int(random.next() % UInt64(seeds.count))].utf8)
            if round % 5 == 0 {
                bytes = (0..<Int(random.next() % 64)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            } else {
                for _ in 0...(random.next() % 4) {
                    let index = Int(random.next() % UInt64(bytes.count + 1))
                    switch random.next() % 3 {
                    case 0 where index < bytes.count: bytes.remove(at: index)
                    case 1: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: index)
                    default: if index < bytes.count { bytes[index] = alphabet[Int(random.next() % UInt64(alphabet.count))] }
                    }
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let role: WebRole = round % 2 == 0 ? .musician(bus: "iem_vox") : .engineer
            let before = target.engine.changedValues
            do {
                if case let .meters(rate) = try control.apply(text: text, as: role) {
                    XCTAssertTrue((0...WebRequest.maximumMeterRate).contains(rate), "a meter rate taken is 0…25: '\(text)'")
                    XCTAssertEqual(target.engine.changedValues, before, "a meter request changes nothing in the show: '\(text)'")
                }
            } catch {
                refused += 1
                XCTAssertEqual(target.engine.changedValues, before, "refused '\(text)' (\(error)) changed nothing")
            }
            if round % 1000 == 0 { target.engine.renderCycle(frames: 16) }   // drains the parameter queue
        }
        XCTAssertGreaterThan(refused, 15_000, "most mutations are refused")
    }
}
