// A musician's page taps the show tempo only where the preset says `[web] musicians_tap_tempo = true`; otherwise the tap is refused and logged. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackPresets
@testable import FoldbackWeb
import Foundation
import XCTest

final class WebMusicianTapTests: XCTestCase {
    private final class Log: @unchecked Sendable {
        let lock = NSLock()
        var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    /// The test preset with a 1/4 echo on vox (at 90 BPM until a tap moves it), and `web` as its `[web]` section.
    private func control(web: String) throws -> (WebTestTarget, WebControl, Log) {
        let text = WebTestTarget.preset.replacingOccurrences(of: """
              [[strip.unit]]
              type = "compressor"
              id = "comp"
            """, with: """
              [[strip.unit]]
              type = "compressor"
              id = "comp"
              [[strip.unit]]
              type = "echo"
              id = "echo"
              sync = "1/4"
              tempo_bpm = 90
            """) + "\n" + web
        let target = try WebTestTarget(text: text)
        let log = Log()
        return (target, WebControl(router: ControlRouter(target: target), log: { log.append($0) }), log)
    }

    private static let tap = #"{"command":"tempo/tap"}"#

    /// Two taps 500 ms apart as `role` (timed around each request): the echo's tempo, and the beat the taps could have
    /// made (60 / the longest and shortest possible spacing).
    private func tapTwice(_ control: WebControl, as role: WebRole) throws -> ClosedRange<Double> {
        let clock = ContinuousClock()
        let first = clock.now
        try control.apply(text: Self.tap, as: role)
        let afterFirst = clock.now
        usleep(500_000)   // the beat itself: taps are timed by the router's clock
        let second = clock.now
        try control.apply(text: Self.tap, as: role)
        let afterSecond = clock.now
        func seconds(_ duration: Duration) -> Double { Double(duration.components.attoseconds) / 1e18 + Double(duration.components.seconds) }
        return 60 / seconds(afterSecond - first)...60 / seconds(second - afterFirst)
    }

    /// Without `musicians_tap_tempo` the singer's tap is refused (`forbidden`, naming the setting), logged, and the echo
    /// stays at 90 BPM; the engineer's taps still set it; the musician's state says no tap button.
    func testAMusiciansTapIsRefusedAndLoggedUnlessThePresetAllowsIt() throws {
        let (target, control, log) = try control(web: "")
        for _ in 0..<2 {
            XCTAssertThrowsError(try control.apply(text: Self.tap, as: .musician(bus: "iem_vox"))) { error in
                guard case let .forbidden(reason)? = error as? WebRefusal else { return XCTFail("\(error)") }
                XCTAssertTrue(reason.contains("musicians_tap_tempo"), reason)
            }
        }
        XCTAssertEqual(log.all.filter { $0.contains("refused") && $0.contains("musician of bus 'iem_vox'") && $0.contains("tap") }.count, 2, "\(log.all)")
        XCTAssertEqual(try target.value("strip/vox/unit/echo/tempo_bpm"), 90)
        XCTAssertFalse(WebState.read(target, setlist: nil).seen(by: .musician(bus: "iem_vox")).musicians_tap)
        let beat = try tapTwice(control, as: .engineer)
        let bpm = Double(try target.value("strip/vox/unit/echo/tempo_bpm"))
        XCTAssertTrue((beat.lowerBound - 0.1...beat.upperBound + 0.1).contains(bpm), "the engineer's taps: \(bpm) BPM, beat \(beat)")
        print("WebMusicianTapTests: engineer's taps 500 ms apart: \(bpm) BPM (taps allowed \(beat))")
    }

    /// With `[web] musicians_tap_tempo = true` the singer's two taps 500 ms apart set the echo to the tempo of the
    /// spacing the requests really took (120 BPM on an idle machine; a loaded one delays the second request, so the
    /// bound is the measured spacing ±0.1 BPM, not 120 ±1), the musician's state asks for the tap button, and other
    /// commands stay refused.
    func testAMusicianTapsWhereThePresetAllowsIt() throws {
        let (target, control, _) = try control(web: "[web]\nmusicians_tap_tempo = true\n")
        XCTAssertTrue(WebState.read(target, setlist: nil).seen(by: .musician(bus: "iem_vox")).musicians_tap)
        let beat = try tapTwice(control, as: .musician(bus: "iem_vox"))
        let bpm = Double(try target.value("strip/vox/unit/echo/tempo_bpm"))
        XCTAssertTrue((beat.lowerBound - 0.1...beat.upperBound + 0.1).contains(bpm), "the singer's taps: \(bpm) BPM, beat \(beat)")
        print("WebMusicianTapTests: singer's taps 500 ms apart: \(bpm) BPM (taps allowed \(beat))")
        XCTAssertThrowsError(try control.apply(text: #"{"command":"setlist/next"}"#, as: .musician(bus: "iem_vox"))) { error in
            guard case .forbidden? = error as? WebRefusal else { return XCTFail("\(error)") }
        }
    }
}
