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

        print("web meter frames: \(Double(visible.count) / 2)/s asked 25, \(Double(slow.count) / 2)/s asked 5; vox peak \(visible.voxPeak ?? .nan) dBFS")
        page.send(#"{"meters":0}"#)
        _ = frames(page, keys: keys, seconds: 0.3)
        XCTAssertEqual(frames(page, keys: keys, seconds: 2.5).count, 0, "none for a hidden tab")
    }
}

/// The page in headless Chromium: a visible tab gets level frames every tick, a hidden one (`visibilitychange`) none,
/// and shown again it gets them at once.
final class WebMeterHiddenTabBrowserTests: JACKServerTestCase {
    func testAHiddenTabGetsNoLevelFramesAndAShownOneAtOnce() throws {
        let (rig, port, tokens) = try LiveControlRig.web(server: serverName, testCase: self, signals: [.voice(level: -12)])
        defer { rig.close() }
        let browser = try WebDriverSession(width: 390, height: 844)
        defer { browser.close() }
        try browser.open("http://127.0.0.1:\(port)/?token=\(try XCTUnwrap(tokens["iem"]))")
        try browser.wait(until: "return [...document.querySelectorAll('.meter .rms')].some(e => parseFloat(e.style.width) > 0)", "moving meters")
        _ = try browser.run("""
            window.levelFrames = 0;
            window.foldbackSocket.addEventListener('message', (e) => { if (typeof e.data !== 'string') window.levelFrames++; });
            window.showTab = (hidden) => {
              Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
              document.dispatchEvent(new Event('visibilitychange'));
            };
            """)
        func frames(over seconds: Double) throws -> Int {
            _ = try browser.run("window.levelFrames = 0;")
            usleep(UInt32(seconds * 1_000_000))   // a rate is counted over a time
            return try XCTUnwrap(try browser.run("return window.levelFrames") as? Int)
        }
        let visible = Double(try frames(over: 2)) / 2
        print("browser: \(visible) level frames a second in a visible tab")
        XCTAssertGreaterThanOrEqual(visible, 20, "level frames a second in a visible tab")
        _ = try browser.run("window.showTab(true);")
        _ = try frames(over: 0.3)   // frames already on their way
        XCTAssertEqual(try frames(over: 2.5), 0, "none in a hidden tab (not even the 2 s refresh)")
        _ = try browser.run("window.levelFrames = 0; window.showTab(false);")
        try browser.wait(until: "return window.levelFrames > 0", timeout: 0.5, "frames again within 0.5 s of the tab showing")
    }
}
