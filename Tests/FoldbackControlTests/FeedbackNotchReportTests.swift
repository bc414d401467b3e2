// Feedback notch changes as OSC messages: placed, deepened, unchanged, released. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine
import XCTest

final class FeedbackNotchReportTests: XCTestCase {
    /// `owner` as the engine's meters name it: a strip, or `bus/<name>` for a bus's unit.
    private func snapshot(_ notches: [(slot: Int, frequency: Float, depth: Float)], owner: String = "vox") -> MeterSnapshot {
        var readings = [UnitMeterReading(key: "notches_active", value: Float(notches.count))]
        for notch in notches {
            readings.append(UnitMeterReading(key: "notch\(notch.slot)_freq_hz", value: notch.frequency))
            readings.append(UnitMeterReading(key: "notch\(notch.slot)_depth_db", value: notch.depth))
        }
        return MeterSnapshot(strips: [], buses: [], units: [(owner, "fbx", readings), ("vox", "comp", [UnitMeterReading(key: "gain_reduction_db", value: -3)])])
    }

    private func texts(_ messages: [OSCMessage]) -> [String] {
        messages.map { message in
            message.path + " " + message.arguments.map { argument in
                if case .float(let value) = argument { return String(value) }
                return "?"
            }.joined(separator: " ")
        }
    }

    /// A unit publishing ages (`notch<n>_age_s`) has each change carry the notch's age, to 0.1 s; an age going up
    /// alone is no change; a release has none.
    func testChangesCarryTheNotchesAge() {
        func aged(_ depth: Float, age: Float) -> MeterSnapshot {
            var snapshot = snapshot([(3, 2538, depth)])
            snapshot.units[0].readings += [UnitMeterReading(key: "notch3_age_s", value: age), UnitMeterReading(key: "notch3_changed_s", value: 0)]
            return snapshot
        }
        var report = FeedbackNotchReport()
        XCTAssertEqual(texts(report.changes(in: aged(-9, age: 0))), ["/foldback/strip/vox/feedback 2538.0 -9.0 0.0"])
        XCTAssertEqual(texts(report.changes(in: aged(-9, age: 4))), [], "older, not changed")
        XCTAssertEqual(texts(report.changes(in: aged(-12, age: 12.34))), ["/foldback/strip/vox/feedback 2538.0 -12.0 12.3"])
        XCTAssertEqual(texts(report.changes(in: snapshot([]))), ["/foldback/strip/vox/feedback 2538.0 0.0"])
        XCTAssertEqual(FeedbackNotchReport.notches(in: aged(-9, age: 7).units[0].readings).first?.sinceChange, 0)
        XCTAssertTrue(FeedbackNotchReport.isNotchKey("notch3_age_s") && FeedbackNotchReport.isNotchKey("notch16_changed_s"))
    }

    func testEachChangeIsSentOnceAndAReleaseAsDepthZero() {
        var report = FeedbackNotchReport()
        XCTAssertEqual(texts(report.changes(in: snapshot([]))), [])
        XCTAssertEqual(texts(report.changes(in: snapshot([(1, 2538, -9)]))), ["/foldback/strip/vox/feedback 2538.0 -9.0"])
        XCTAssertEqual(texts(report.changes(in: snapshot([(1, 2538, -9)]))), [], "nothing changed")
        XCTAssertEqual(texts(report.changes(in: snapshot([(1, 2538, -12), (2, 820, -9)]))),
                       ["/foldback/strip/vox/feedback 2538.0 -12.0", "/foldback/strip/vox/feedback 820.0 -9.0"])
        XCTAssertEqual(texts(report.changes(in: snapshot([(2, 820, -9)]))), ["/foldback/strip/vox/feedback 2538.0 0.0"])
    }

    /// A bus's feedback unit (meters name it `bus/wedge`) reports on `/foldback/bus/wedge/feedback`; a strip's beside it keeps its own address.
    func testABusUnitReportsOnItsBusAddress() {
        var report = FeedbackNotchReport()
        XCTAssertEqual(texts(report.changes(in: snapshot([(1, 2538, -9)], owner: "bus/wedge"))), ["/foldback/bus/wedge/feedback 2538.0 -9.0"])
        var both = snapshot([(1, 2538, -12)], owner: "bus/wedge")
        both.units.append(("vox", "fbx", [UnitMeterReading(key: "notches_active", value: 1),
                                           UnitMeterReading(key: "notch1_freq_hz", value: 820), UnitMeterReading(key: "notch1_depth_db", value: -9)]))
        XCTAssertEqual(texts(report.changes(in: both)), ["/foldback/bus/wedge/feedback 2538.0 -12.0", "/foldback/strip/vox/feedback 820.0 -9.0"])
        XCTAssertEqual(texts(report.changes(in: snapshot([], owner: "bus/wedge"))),
                       ["/foldback/bus/wedge/feedback 2538.0 0.0", "/foldback/strip/vox/feedback 820.0 0.0"])
    }
}
