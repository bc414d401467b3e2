// OSC control of bus units and limiters: queries, sets, bypass, errors, and the measured change in the bus output. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import FoldbackControl
import FoldbackDSP
import FoldbackEngine
import FoldbackPresets
import XCTest

final class BusControlTests: XCTestCase {
    private let peer = OSCPeer(host: "127.0.0.1", port: 9999)!
    static let preset = """
        [[bus]]
        name = "main"
        channels = 1
        limiter_ceiling_db = -1
          [[bus.unit]]
          type = "gain"
          id = "trim"
          gain_db = -2

        [[strip]]
        name = "vox"
          [[strip.send]]
          bus = "main"
        """

    private func reply(_ router: ControlRouter, _ path: String, _ arguments: [OSCArgument] = []) -> [OSCMessage] {
        router.handle(OSCMessage(path, arguments), from: peer)
    }

    /// Renders 0.1 DC through the target's engine for `cycles` cycles of 256 frames; the last output sample.
    private func level(_ target: OfflineTarget, cycles: Int = 40) -> Float {
        var input = [Float](repeating: 0.1, count: 256)
        var output = [Float](repeating: 0, count: 256)
        input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                target.engine.io.pointee.inputs[0] = UnsafePointer(source.baseAddress!)
                target.engine.io.pointee.outputs[0] = destination.baseAddress!
                target.engine.io.pointee.inputCount = 1
                target.engine.io.pointee.outputCount = 1
                for _ in 0..<cycles { target.engine.renderCycle(frames: 256) }
            }
        }
        return output[255]
    }

    func testBusUnitsAndTheLimiterAreQueriedAndSetOverOSC() throws {
        let target = try OfflineTarget(text: Self.preset)
        let router = ControlRouter(target: target)
        XCTAssertEqual(Double(Decibels.decibels(fromLinearGain: level(target) / 0.1)), -2, accuracy: 0.01)
        XCTAssertEqual(reply(router, "/foldback/bus/main/unit/trim/gain_db/get"), [OSCMessage("/foldback/bus/main/unit/trim/gain_db", [.float(-2)])])
        XCTAssertEqual(reply(router, "/foldback/bus/main/unit/trim/bypass/get"), [OSCMessage("/foldback/bus/main/unit/trim/bypass", [.int(0)])])
        XCTAssertEqual(reply(router, "/foldback/bus/main/limiter/ceiling_db/get"), [OSCMessage("/foldback/bus/main/limiter/ceiling_db", [.float(-1)])])
        XCTAssertEqual(reply(router, "/foldback/bus/main/limiter/release_ms/get"), [OSCMessage("/foldback/bus/main/limiter/release_ms", [.float(50)])])

        XCTAssertEqual(reply(router, "/foldback/bus/main/unit/trim/gain_db", [.float(-14)]), [])
        XCTAssertEqual(Double(Decibels.decibels(fromLinearGain: level(target) / 0.1)), -14, accuracy: 0.01, "the bus output follows live")
        XCTAssertEqual(reply(router, "/foldback/bus/main/unit/trim/bypass", [.int(1)]), [])
        XCTAssertEqual(level(target), 0.1, accuracy: 1e-6, "bypassed: the dry bus")
        XCTAssertEqual(reply(router, "/foldback/bus/main/limiter/ceiling_db", [.float(-26)]), [])
        XCTAssertEqual(Double(Decibels.decibels(fromLinearGain: level(target))), -26, accuracy: 0.05, "0.1 (−20 dBFS) held at the new −26 dBFS ceiling")
        XCTAssertEqual(reply(router, "/foldback/bus/main/unit/trim/gain_db/get"), [OSCMessage("/foldback/bus/main/unit/trim/gain_db", [.float(-14)])])
        XCTAssertEqual(target.engine.value(at: .busUnitBypass(bus: 0, unit: 0)), 1)
    }

    func testBadBusAddressesGetOneErrorReply() throws {
        let target = try OfflineTarget(text: Self.preset)
        let router = ControlRouter(target: target)
        func assertError(_ path: String, _ arguments: [OSCArgument], _ fragment: String, line: UInt = #line) {
            let replies = reply(router, path, arguments)
            XCTAssertEqual(replies.first?.path, OSCServer.errorPath, line: line)
            let reason = replies.first?.arguments.last?.text ?? ""
            XCTAssertTrue(reason.contains(fragment), "'\(reason)' should mention '\(fragment)'", line: line)
        }
        assertError("/foldback/bus/main/unit/eq/gain_db", [.float(0)], "bus 'main' has no unit 'eq'; its units: trim")
        assertError("/foldback/bus/main/unit/trim/knee", [.float(0)], "has no parameter 'knee'; it has: gain_db")
        assertError("/foldback/bus/main/limiter/ceiling_db", [.float(2)], "out of range")
        assertError("/foldback/bus/main/limiter/attack_ms", [.float(2)], "has no parameter 'limiter/attack_ms'; it has: gain_db, mute, limiter_ceiling_db, limiter_release_ms")
        assertError("/foldback/bus/main/volume", [.float(0)], "no parameter 'volume'")
        XCTAssertEqual(target.engine.parameterChangeCount, 0)
    }
}
