// The --meters view's bars: RMS and peak lengths in dB, peak hold and its fall, gain reduction. Non-realtime.
@testable import foldback
import Foundation
import XCTest

final class MeterViewTests: XCTestCase {
    /// Bar cells (40 over 60 dB) of `line`: solid RMS, shaded peak, `|` hold.
    private func cells(_ line: String) -> (rms: Int, peak: Int, hold: Int?) {
        let bar = Array(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        let rms = bar.filter { $0 == "█" }.count
        let peak = rms + bar.filter { $0 == "▒" }.count
        return (rms, peak, bar.firstIndex(of: "|").map { $0 + 1 })
    }

    func testBarsShowRMSAndPeakInDecibelsAndThePeakHoldFallsAfterItsTime() {
        let view = MeterView(isTerminal: false)
        let start = Date()
        let loud = view.meterLines(
            strips: [.init(name: "vox", peak: 0.5, rms: 0.25)], buses: [.init(name: "main", peak: 1, rms: 0.1)],
            reductions: [("vox/comp", 6)], now: start)
        XCTAssertEqual(loud[0], "strips (pre-fader)")
        // −6.0 dBFS peak → (60 − 6) / 60 · 40 = 36 cells; −12.0 dBFS RMS → 32 cells; the hold sits on the peak.
        XCTAssertTrue(loud[1].hasPrefix("vox      "), loud[1])
        XCTAssertTrue(loud[1].hasSuffix("  -6.0 /  -12.0 dBFS"), loud[1])
        XCTAssertEqual(cells(loud[1]).rms, 32)
        XCTAssertEqual(cells(loud[1]).hold, 36)
        XCTAssertTrue(loud[3].hasSuffix("   0.0 /  -20.0 dBFS"), loud[3])
        XCTAssertEqual(loud[4], "gain reduction")
        XCTAssertTrue(loud[5].hasPrefix("vox/comp ██████████·"), "6 of 24 dB = 10 cells: \(loud[5])")
        XCTAssertTrue(loud[5].hasSuffix("   6.0 dB"), loud[5])

        let quieter = view.meterLines(strips: [.init(name: "vox", peak: 0.125, rms: 0.0625)], buses: [], reductions: [], now: start.addingTimeInterval(1))
        XCTAssertEqual(cells(quieter[1]).peak, 28, "−18 dBFS peak")
        XCTAssertEqual(cells(quieter[1]).hold, 36, "the hold stays at −6 dBFS for 1.5 s")
        let later = view.meterLines(strips: [.init(name: "vox", peak: 0.125, rms: 0.0625)], buses: [], reductions: [], now: start.addingTimeInterval(1.6))
        XCTAssertEqual(cells(later[1]).hold, 28, "then falls to the current peak")
        let silent = view.meterLines(strips: [.init(name: "vox", peak: 0, rms: 0)], buses: [], reductions: [], now: start.addingTimeInterval(5))
        XCTAssertTrue(silent[1].hasSuffix("  -inf /   -inf dBFS"), silent[1])
        XCTAssertEqual(cells(silent[1]).peak, 0)
    }
}
