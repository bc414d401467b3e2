// Tap tempo: runs of taps, a lone tap, jitter, new runs, and the synced echo time a tempo gives.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackDSP
import XCTest

final class TapTempoTests: XCTestCase {
    /// Four taps 500 ms apart: the first sets nothing, the second 120 BPM, the next two (on the beat) change
    /// nothing; a 1/4 echo at that tempo is 24,000 samples at 48 kHz.
    func testFourTapsHalfASecondApartGive120BPMAndAQuarterOf24000Samples() throws {
        var tapper = TapTempo()
        XCTAssertNil(tapper.tap(at: 10.0), "a lone tap is ignored")
        XCTAssertNil(tapper.bpm)
        XCTAssertEqual(try XCTUnwrap(tapper.tap(at: 10.5)), 120, accuracy: 1e-9)
        XCTAssertNil(tapper.tap(at: 11.0))
        XCTAssertNil(tapper.tap(at: 11.5))
        let bpm = try XCTUnwrap(tapper.bpm)
        XCTAssertEqual(bpm, 120, accuracy: 1e-9)
        XCTAssertEqual(EchoParameters(sync: .quarter, tempo: Float(bpm)).frames(sampleRate: 48000), 24000)
    }

    /// Taps 9 ms off the beat leave 120 BPM alone; a run 600 ms apart moves it to 100 BPM; a tap after more
    /// than 2 s starts a new run and alone changes nothing.
    func testJitterIsIgnoredAndSlowerRunsRetime() throws {
        var tapper = TapTempo(bpm: 120)
        for time in [0.0, 0.509, 1.0, 1.491, 2.0] { XCTAssertNil(tapper.tap(at: time), "tap at \(time)") }
        XCTAssertEqual(tapper.bpm, 120)
        XCTAssertNil(tapper.tap(at: 5.0), "more than 2 s later: a new run, and a lone tap")
        XCTAssertEqual(try XCTUnwrap(tapper.tap(at: 5.6)), 100, accuracy: 1e-9)
        XCTAssertNil(tapper.tap(at: 6.2))
        XCTAssertEqual(try XCTUnwrap(tapper.bpm), 100, accuracy: 1e-9)
        XCTAssertEqual(EchoParameters(sync: .eighth, tempo: 96).seconds, 0.3125, accuracy: 1e-12, "1/8 at 96 BPM is 312.5 ms")
    }
}
