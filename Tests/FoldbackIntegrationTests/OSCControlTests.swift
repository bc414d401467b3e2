// OSC against a running `foldback run`: measured level changes, error and query replies, meter subscriptions. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACK
import Foundation
import XCTest

/// A real foldback process on a dummy jackd, driven over UDP by a liblo-encoded client, heard by a JACK test client.
final class OSCControlTests: JACKServerTestCase {
    private func rig(voxGainDB: Double = 0) throws -> LiveControlRig {
        let preset = try LiveControlRig.temporaryFolder() + "/vox.toml"
        try LiveControlRig.writePreset(to: preset, voxGainDB: voxGainDB)
        return try LiveControlRig(server: serverName, arguments: [preset], testCase: self)
    }

    func testOSCGainChangesMoveTheMeasuredOutputLevelByTheAskedAmount() throws {
        let rig = try rig()
        defer { rig.close() }
        let before = try rig.measuredGain()
        XCTAssertEqual(decibels(before), 0, accuracy: 0.1, "unity to start with")
        // liblo's own command-line client first (Debian liblo-tools), then the test's liblo-encoded client.
        try rig.oscsend("/foldback/strip/vox/gain_db", "f", "-1.5")
        XCTAssertEqual(try rig.request("/foldback/strip/vox/gain_db/get"), OSCMessage("/foldback/strip/vox/gain_db", [.float(-1.5)]))
        XCTAssertEqual(decibels(try rig.measuredGain()), -1.5, accuracy: 0.1, "after oscsend … f -1.5")
        for (path, value, expected) in [
            ("/foldback/strip/vox/gain_db", Float(-6.5), -6.5), ("/foldback/bus/main/gain_db", -3, -9.5),
            ("/foldback/strip/vox/send/main/gain_db", 2.25, -7.25), ("/foldback/strip/vox/gain_db", 4, 3.25),
        ] {
            try rig.osc.send(OSCMessage(path, [.float(value)]))
            // A query answered after the set proves the server handled it (messages are handled in order).
            XCTAssertEqual(try rig.request(path + "/get"), OSCMessage(path, [.float(value)]))
            let gain = try rig.measuredGain()
            XCTAssertEqual(decibels(gain), expected, accuracy: 0.1, "after \(path) \(value): output level vs the played signal")
        }
        try rig.osc.send(OSCMessage("/foldback/strip/vox/mute", [.int(1)]))
        XCTAssertEqual(try rig.request("/foldback/strip/vox/mute/get"), OSCMessage("/foldback/strip/vox/mute", [.int(1)]))
        XCTAssertLessThan(abs(try rig.measuredGain()), 1e-6, "muted")
    }

    func testBadMessagesGetErrorRepliesAndChangeNothing() throws {
        let rig = try rig(voxGainDB: -4)
        defer { rig.close() }
        func error(_ path: String, _ arguments: [OSCArgument]) throws -> String {
            let reply = try XCTUnwrap(try rig.request(path, arguments), "a reply to \(path)")
            XCTAssertEqual(reply.path, "/foldback/error", "\(reply)")
            XCTAssertEqual(reply.arguments.first, .string(path))
            return reply.arguments.last?.text ?? ""
        }
        XCTAssertTrue(try error("/foldback/strip/vox/gain_db", [.float(40)]).contains("allowed: -inf to 24"))
        XCTAssertTrue(try error("/foldback/strip/vox/pan", [.float(-2)]).contains("allowed: -1 to 1"))
        XCTAssertTrue(try error("/foldback/strip/nobody/gain_db", [.float(0)]).contains("no strip named 'nobody'"))
        XCTAssertTrue(try error("/foldback/strip/vox/gain_db", [.string("-3")]).contains("takes one number"))
        XCTAssertTrue(try error("/foldback/whatever", []).contains("unknown address"))
        try rig.osc.sendPacket(Array("garbage that is not OSC".utf8))
        let garbage = try XCTUnwrap(rig.osc.receive(timeout: 10))
        XCTAssertEqual(garbage.path, "/foldback/error")
        XCTAssertEqual(try rig.request("/foldback/strip/vox/gain_db/get"), OSCMessage("/foldback/strip/vox/gain_db", [.float(-4)]), "the preset's value, unchanged")
        XCTAssertEqual(try rig.request("/foldback/strip/vox/pan/get"), OSCMessage("/foldback/strip/vox/pan", [.float(0)]))
        XCTAssertEqual(decibels(try rig.measuredGain()), -4, accuracy: 0.1, "nothing changed the level")
    }

    func testAMeterSubscriptionDeliversReadingsAtTheAskedRate() throws {
        let rig = try rig()
        defer { rig.close() }
        XCTAssertEqual(try rig.request("/foldback/meters/subscribe", [.float(20)]), OSCMessage("/foldback/meters/subscribed", [.float(20)]))
        var busMessages: [OSCMessage] = []
        var first: ContinuousClock.Instant?
        var last = ContinuousClock.now
        while busMessages.count < 41 {
            guard let message = rig.osc.receive(timeout: 5) else { return XCTFail("meter messages stopped after \(busMessages.count)") }
            guard message.path == "/foldback/meters/bus/main" else { continue }
            busMessages.append(message)
            last = .now
            if first == nil { first = last }
        }
        let elapsed = try XCTUnwrap(first).duration(to: last)
        let rate = 40 / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        XCTAssertEqual(rate, 20, accuracy: 3, "messages per second")
        // −20 dBFS-peak noise at unity: the bus meter reads it (peak ≈ −20, RMS ≈ −24.8 for uniform noise).
        let peaks = busMessages.compactMap { $0.arguments.first?.number }
        XCTAssertEqual(try XCTUnwrap(peaks.max()), -20, accuracy: 1.5)
        let rms = busMessages.compactMap { $0.arguments.last?.number }
        XCTAssertEqual(rms[rms.count / 2], -24.8, accuracy: 1.5)
        XCTAssertEqual(try rig.request("/foldback/meters/unsubscribe"), OSCMessage("/foldback/meters/unsubscribed"))
    }
}
