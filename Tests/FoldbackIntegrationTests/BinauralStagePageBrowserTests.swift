// A musician drags a source on their binaural bus's stage plot in headless Chromium (touch input through chromedriver); a JACK client measures the bus's interaural time difference. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackHRTF
import Foundation
import XCTest

final class BinauralStagePageBrowserTests: JACKServerTestCase {
    /// The test server's rate (JACKServerTestCase's default).
    private static let rate = 48_000.0

    /// Noise into vox, sent to the binaural bus `ears` in front at 1 m. On the `ears` musician's phone page a finger drags
    /// vox's dot a quarter turn clockwise round the listener (front → right, same radius): the page sets azimuth 90 ± 4°
    /// and distance 1 ± 0.1 m, and the recorded bus's left ear lags the right by the KEMAR set's own ITD at 90° (the
    /// lag of the cross-correlation peak of its 90° pair) within ±1.5 frames (31 µs); before, in front, the ears were
    /// aligned within 0.5 frames. Dragged the mirrored way, the ITD flips sign.
    func testADragOnThePhoneMovesASourceFromFrontToRightAndTheITDFollows() throws {
        let (rig, port, tokens) = try LiveControlRig.web(server: serverName, testCase: self, extraStrip: """
              [[strip.send]]
              bus = "ears"
              pre_fader = true
              azimuth_deg = 0.0
              distance_m = 1.0
            [[bus]]
            name = "ears"
            channels = 2
            binaural = true
            limiter = false
            """, recordFrom: ["ears_L", "ears_R"])
        defer { rig.close() }
        let expected = try Self.setITD(azimuthDeg: 90)
        XCTAssertGreaterThan(expected, 20, "KEMAR's left ear hears a source at 90° right about 0.6 ms late")
        let front = try measuredITD(rig)
        XCTAssertEqual(front, 0, accuracy: 0.5, "a source in front reaches both ears together")

        let browser = try WebDriverSession()
        defer { browser.close() }
        try browser.open("http://127.0.0.1:\(port)/?token=\(try XCTUnwrap(tokens["ears"]))")
        let dot = #"document.querySelector('svg.stage circle.source[data-send="strip/vox/send/ears/"]')"#
        try browser.wait(until: "return \(dot) !== null && !document.body.classList.contains('offline')", "the stage plot with vox's dot")
        XCTAssertEqual(try browser.run(#"return document.querySelector('input[aria-label="strip/vox/send/ears/elevation_deg"]') !== null"#) as? Bool, true,
                       "vox's height control beside its level")
        XCTAssertEqual(try browser.run("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool, true, "nothing wider than the phone")

        for (turn, sign) in [(90.0, 1.0), (-90.0, -1.0)] {
            try browser.drag(try arc(browser, dot: dot, fromDeg: turn == 90 ? 0 : 90, toDeg: turn))
            let azimuth = try waitForAzimuth(rig, near: Float(turn))
            let distance = try XCTUnwrap(try rig.request("/foldback/strip/vox/send/ears/distance_m/get")?.arguments.first?.number)
            XCTAssertEqual(distance, 1, accuracy: 0.1, "the drag kept the radius")
            let itd = try measuredITD(rig)
            XCTAssertEqual(itd, sign * expected, accuracy: 1.5, "the bus's ITD at \(azimuth)° against the set's \(sign * expected) frames")
            print("BinauralStagePageBrowserTests: dragged to \(azimuth)° at \(distance) m: ITD \(itd) frames (\(itd / Self.rate * 1e6) µs), set's \(sign * expected) frames; front was \(front)")
        }
    }

    /// A binaural bus with a room: its musician's page shows the room's level under the stage plot, and moving it to
    /// the bottom of its travel sets the bus's `room_db` to −40 dB (±0.5), read back over OSC.
    func testTheMusiciansPageSetsTheirRoomsLevel() throws {
        let (rig, port, tokens) = try LiveControlRig.web(server: serverName, testCase: self, extraStrip: """
              [[strip.send]]
              bus = "ears"
              azimuth_deg = 30.0
            [[bus]]
            name = "ears"
            channels = 2
            binaural = true
            room = true
            room_db = -6.0
            limiter = false
            """)
        defer { rig.close() }
        let browser = try WebDriverSession()
        defer { browser.close() }
        try browser.open("http://127.0.0.1:\(port)/?token=\(try XCTUnwrap(tokens["ears"]))")
        let room = #"document.querySelector('.room input[aria-label="bus/ears/room_db"]')"#
        try browser.wait(until: "return \(room) !== null && !document.body.classList.contains('offline')", "the room's level on the musician's page")
        _ = try browser.run("const r = \(room); r.value = 0; r.dispatchEvent(new Event('input')); r.dispatchEvent(new Event('change')); return true")
        let deadline = Date().addingTimeInterval(5)
        var level: Float = .nan
        repeat {
            level = try XCTUnwrap(try rig.request("/foldback/bus/ears/room_db/get")?.arguments.first?.number)
            if abs(level + 40) <= 0.5 { break }
            usleep(20_000)
        } while Date() < deadline
        XCTAssertEqual(level, -40, accuracy: 0.5, "the page's room control set the bus's room level")
    }

    /// Viewport points along the circle of the dot's radius around the listener, from `fromDeg` to `toDeg` (0 ahead,
    /// positive right), every 10°: the plot's centre and scale read from the page.
    private func arc(_ browser: WebDriverSession, dot: String, fromDeg: Double, toDeg: Double) throws -> [(x: Double, y: Double)] {
        let box = try XCTUnwrap(try browser.run("""
            const d = \(dot); d.scrollIntoView({ block: 'center' });
            const s = d.ownerSVGElement.getBoundingClientRect(), c = d.getBoundingClientRect();
            return [s.left + s.width / 2, s.top + s.height / 2, c.left + c.width / 2, c.top + c.height / 2];
            """) as? [Double])
        XCTAssertEqual(box.count, 4)
        let (cx, cy) = (box[0], box[1])
        let radius = hypot(box[2] - cx, box[3] - cy)
        let steps = Int(abs(toDeg - fromDeg) / 10)
        return (0...steps).map { step in
            let angle = (fromDeg + (toDeg - fromDeg) * Double(step) / Double(steps)) * .pi / 180
            return (cx + radius * sin(angle), cy - radius * cos(angle))
        }
    }

    /// Waits for the engine's azimuth of vox's send to settle within 4° of `target`.
    private func waitForAzimuth(_ rig: LiveControlRig, near target: Float) throws -> Float {
        let deadline = Date().addingTimeInterval(5)
        var azimuth: Float = .nan
        repeat {
            azimuth = try XCTUnwrap(try rig.request("/foldback/strip/vox/send/ears/azimuth_deg/get")?.arguments.first?.number)
            if abs(azimuth - target) <= 4 { return azimuth }
            usleep(20_000)
        } while Date() < deadline
        XCTFail("the page's drag set azimuth \(azimuth), not \(target) ± 4")
        return azimuth
    }

    /// The lag (frames, fractional by a parabola through the peak) by which the recorded left ear follows the right:
    /// positive for a source on the right.
    private func measuredITD(_ rig: LiveControlRig) throws -> Double {
        let recording = try rig.client.record(frames: 16_384, settleFrames: 4_800, attempts: 5)
        return Self.lag(of: recording.channels[0].map(Double.init), behind: recording.channels[1].map(Double.init))
    }

    /// The KEMAR set's own ITD at `azimuthDeg` on the horizontal plane, frames at the test rate: the cross-correlation lag
    /// of its measured left and right responses there.
    static func setITD(azimuthDeg: Float) throws -> Double {
        let set = try SOFALoader.read(path: SOFALoader.defaultPath, sampleRate: rate)
        let index = try XCTUnwrap(set.directions.indices.min { a, b in
            let da = set.directions[a], db = set.directions[b]
            return abs(da.azimuthDeg - azimuthDeg) + abs(da.elevationDeg) < abs(db.azimuthDeg - azimuthDeg) + abs(db.elevationDeg)
        })
        return lag(of: set.response(direction: index, ear: 0).map(Double.init), behind: set.response(direction: index, ear: 1).map(Double.init))
    }

    /// The lag (−48 … 48 frames) maximising Σ late[n] · early[n − lag], refined by a parabola through the peak.
    static func lag(of late: [Double], behind early: [Double], most: Int = 48) -> Double {
        func correlation(_ lag: Int) -> Double {
            var sum = 0.0
            for n in max(0, lag)..<min(late.count, early.count + lag) { sum += late[n] * early[n - lag] }
            return sum
        }
        let values = (-most...most).map(correlation)
        guard let peak = values.indices.max(by: { values[$0] < values[$1] }) else { return 0 }
        guard peak > 0, peak < values.count - 1 else { return Double(peak - most) }
        let (a, b, c) = (values[peak - 1], values[peak], values[peak + 1])
        let denominator = a - 2 * b + c
        return Double(peak - most) + (denominator == 0 ? 0 : 0.5 * (a - c) / denominator)
    }
}
