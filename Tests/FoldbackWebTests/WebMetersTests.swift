// The meters push: loudness per bus and the in-ear dose, as the page reads them. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackAnalysis
import FoldbackEngine
@testable import FoldbackWeb
import Foundation
import XCTest

final class WebMetersTests: XCTestCase {
    /// Loudness goes out per bus as [M, S, I, TP] in tenths (silence as −144), the dose only for in-ear buses.
    func testLoudnessAndDoseAreEncodedPerBus() throws {
        let reading = LoudnessReading(
            momentaryLUFS: -18.24, shortTermLUFS: -19.01, integratedLUFS: -18.66, truePeakDBTP: -3.14, maximumTruePeakDBTP: -1)
        let meters = WebMeters(
            MeterSnapshot(strips: [], buses: [], units: []), load: 4.12, xruns: 0,
            loudness: [
                BusLoudness(name: "iem_vox", reading: reading, dosePercent: 12.4, projectedDosePercent: 80.2),
                BusLoudness(name: "wedge", reading: .silent, dosePercent: nil, projectedDosePercent: nil),
            ])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(meters.jsonText().utf8)) as? [String: Any])
        let loudness = try XCTUnwrap(json["loudness"] as? [String: [Double]])
        XCTAssertEqual(try XCTUnwrap(loudness["iem_vox"]), [-18.2, -19, -18.7, -3.1], accuracy: 1e-4)
        XCTAssertEqual(loudness["wedge"], [-144, -144, -144, -144])
        let dose = try XCTUnwrap(json["dose"] as? [String: [Double]])
        XCTAssertEqual(dose["iem_vox"], [12, 80])
        XCTAssertNil(dose["wedge"], "no dose for a bus that is not in-ear")
    }
}

private func XCTAssertEqual(_ lhs: [Double], _ rhs: [Double], accuracy: Double, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(lhs.count, rhs.count, file: file, line: line)
    for (left, right) in zip(lhs, rhs) { XCTAssertEqual(left, right, accuracy: accuracy, file: file, line: line) }
}
