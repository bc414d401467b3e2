// The `geq` bands and the `delay` time over OSC: set, query, range errors. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine
import XCTest

final class GraphicEQAndDelayControlTests: XCTestCase {
    private let preset = """
        [[bus]]
        name = "wedge"
        [[strip]]
        name = "vox"
          [[strip.unit]]
          type = "geq"
          id = "ring"
          g2k5 = -6
          [[strip.unit]]
          type = "delay"
          id = "align"
          distance_m = 3.43
          [[strip.send]]
          bus = "wedge"
        """

    func testBandsAndTheDelayAreLiveParameters() throws {
        let target = try OfflineTarget(text: preset)
        let router = ControlRouter(target: target)
        let peer = try XCTUnwrap(OSCPeer(host: "127.0.0.1", port: 9999))
        func reply(_ path: String, _ arguments: [OSCArgument] = []) -> [OSCMessage] {
            router.handle(OSCMessage(path, arguments), from: peer)
        }
        XCTAssertEqual(reply("/foldback/strip/vox/unit/ring/g2k5/get"), [OSCMessage("/foldback/strip/vox/unit/ring/g2k5", [.float(-6)])])
        XCTAssertEqual(reply("/foldback/strip/vox/unit/align/delay_ms/get"), [OSCMessage("/foldback/strip/vox/unit/align/delay_ms", [.float(10)])])
        XCTAssertEqual(reply("/foldback/strip/vox/unit/ring/g1k25", [.float(-9.5)]), [])
        XCTAssertEqual(reply("/foldback/strip/vox/unit/align/delay_ms", [.float(12.5)]), [])
        XCTAssertEqual(target.engine.value(at: .unitParameter(strip: 0, unit: 0, parameter: 19)), -9.5, "g1k25 is parameter 19")
        XCTAssertEqual(target.engine.value(at: .unitParameter(strip: 0, unit: 1, parameter: 0)), 12.5)
        let error = reply("/foldback/strip/vox/unit/ring/g1k25", [.float(16)])
        XCTAssertEqual(error.first?.path, OSCServer.errorPath)
        XCTAssertTrue((error.first?.arguments.last?.text ?? "").contains("out of range"), "\(error)")
        XCTAssertEqual(target.engine.parameterChangeCount, 2)
    }
}
