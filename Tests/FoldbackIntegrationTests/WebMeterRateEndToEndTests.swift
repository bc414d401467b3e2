// A real `foldback run`'s meters over the web as binary frames: at least 20 updates a second at the rate a page asks, none while hidden. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import FoldbackWeb
import FoldbackTestSupport
import Foundation
import FoldbackJACKTesting
import XCTest

/// A sung phrase (its level moving all the time) plays into vox on a dummy jackd; a musician's page of `iem` asks for
/// meter rates and counts the frames (a frame carries what changed, so a level standing still would send none).
final class WebMeterRateEndToEndTests: JACKServerTestCase {
    /// Frames (and the level of `strip/vox` in them) a page receives over `seconds`.
    private func frames(_ page: WebSocketTestClient, keys: [String], seconds: Double) -> (count: Int, voxPeak: Float?) {
        var count = 0, peak: Float?
        let end = Date().addingTimeInterval(seconds)
        while Date() < end, let message = page.receiveMessage(timeout: max(0, end.timeIntervalSinceNow)) {
            guard case let .binary(bytes) = message, let frame = WebMeterFrame.decode(Data(bytes)) else { continue }
            count += 1
            for (position, level) in frame.levels where keys.indices.contains(position) && keys[position] == "strip/vox" { peak = level.peak }
        }
        return (count, peak)
    }

    func testAVisiblePageGetsAFrameEveryTickOfMovingLevelsAndAHiddenOneNone() throws {
        let (rig, port, tokens) = try LiveControlRig.web(server: serverName, testCase: self, signals: [.voice(level: -12)])
        defer { rig.close() }
        let page = try WebSocketTestClient(port: port, path: "/ws?token=\(try XCTUnwrap(tokens["iem"]))")
        XCTAssertNotNil(page.next("hello"))
        page.send(#"{"meters":25}"#)
        let keys = try XCTUnwrap(page.next("meterkeys")?["keys"] as? [String])
        XCTAssertEqual(keys, ["strip/vox", "bus/iem"], "the page's meters: the strip feeding its bus, and the bus")
        let visible = frames(page, keys: keys, seconds: 2)
        XCTAssertGreaterThanOrEqual(Double(visible.count) / 2, 20, "level frames a second while the voice moves the meters")
        XCTAssertLessThanOrEqual(Double(visible.count) / 2, 26)
        XCTAssertEqual(try XCTUnwrap(visible.voxPeak), -15, accuracy: 6, "vox's peak: the voice peaks at −12 dBFS")

        page.send(#"{"meters":5}"#)
        _ = frames(page, keys: keys, seconds: 0.3)
        let slow = frames(page, keys: keys, seconds: 2)
        XCTAssertEqual(Double(slow.count) / 2, 5, accuracy: 1.5, "five a second when asked for five")

        page.send(#"{"meters":0}"#)
        _ = frames(page, keys: keys, seconds: 0.3)
        XCTAssertEqual(frames(page, keys: keys, seconds: 2.5).count, 0, "none for a hidden tab")
    }
}
