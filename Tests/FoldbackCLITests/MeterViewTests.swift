// The --meters view's bars: RMS and peak lengths in dB, peak hold and its fall, gain reduction. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import foldback
@testable import FoldbackLive
import FoldbackAnalysis
import FoldbackControl
import FoldbackPresets
@testable import FoldbackEngine
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

    /// What Foldback adds and the round trip per bus, in-ear buses starred and flagged past 5 ms.
    /// The loudness block: M / S / I in LUFS, true peak in dBTP, −∞ for silence; in-ear buses add their dose
    /// now → projected, `!` past 100 %.
    func testTheLoudnessLinesShowLUFSTruePeakAndInEarDose() {
        let reading = LoudnessReading(
            momentaryLUFS: -16.24, shortTermLUFS: -16.9, integratedLUFS: -17.4, truePeakDBTP: -3.1, maximumTruePeakDBTP: -1)
        let lines = MeterView.loudnessLines([
            BusLoudness(name: "main", reading: .silent, dosePercent: nil, projectedDosePercent: nil),
            BusLoudness(name: "iem_vox", reading: reading, dosePercent: 12.4, projectedDosePercent: 134),
        ])
        XCTAssertEqual(lines, [
            "loudness",
            "bus/main    M     -∞  S     -∞  I     -∞ LUFS  TP     -∞ dBTP",
            "bus/iem_vox M  -16.2  S  -16.9  I  -17.4 LUFS  TP   -3.1 dBTP  dose 12 % → 134 %!",
        ])
        XCTAssertEqual(MeterView.loudnessLines([]), [])
    }

    func testTheLatencyLineShowsAddedAndRoundTripPerBusAndFlagsInEarBusesOverBudget() {
        let figures = [
            BusLatencyFigures(bus: "main", isInEar: false, sampleRate: 48000, addedFrames: 72, roundTripFrames: 840, reachesPlayback: true),
            BusLatencyFigures(bus: "iem", isInEar: true, sampleRate: 48000, addedFrames: 0, roundTripFrames: 256, reachesPlayback: true),
            BusLatencyFigures(bus: "iem2", isInEar: true, sampleRate: 48000, addedFrames: 0, roundTripFrames: 128, reachesPlayback: true),
            BusLatencyFigures(bus: "away", isInEar: false, sampleRate: 48000, addedFrames: 0, roundTripFrames: nil, reachesPlayback: false),
        ]
        XCTAssertEqual(
            MeterView.latencyLine(figures),
            "latency  main +1.50 ms, rt 17.50 ms   iem* +0.00 ms, rt 5.33 ms!   iem2* +0.00 ms, rt 2.67 ms   away +0.00 ms, rt ? ms")
        XCTAssertNil(figures[0].budgetWarning, "only in-ear buses have a budget")
        XCTAssertEqual(figures[1].budgetWarning, "in-ear bus 'iem' has a round trip of 5.33 ms, over the 5 ms a singer tolerates (Foldback adds 0.00 ms of it): use a smaller JACK period")
        XCTAssertNil(figures[2].budgetWarning)
    }

    func testBarsShowRMSAndPeakInDecibelsAndThePeakHoldFallsAfterItsTime() {
        let view = MeterView(isTerminal: false)
        let start = Date()
        let loud = view.meterLines(
            strips: [.init(name: "vox", peak: 0.5, rms: 0.25)], buses: [.init(name: "main", peak: 1, rms: 0.1)],
            reductions: [DynamicsReadout(unit: "vox/comp", kind: .compression, decibels: 6),
                         DynamicsReadout(unit: "vox/comp", kind: .gate, decibels: 80)], now: start)
        XCTAssertEqual(loud[0], "strips (pre-fader)")
        // −6.0 dBFS peak → (60 − 6) / 60 · 40 = 36 cells; −12.0 dBFS RMS → 32 cells; the hold sits on the peak.
        XCTAssertTrue(loud[1].hasPrefix("vox         "), loud[1])
        XCTAssertTrue(loud[1].hasSuffix("  -6.0 /  -12.0 dBFS"), loud[1])
        XCTAssertEqual(cells(loud[1]).rms, 32)
        XCTAssertEqual(cells(loud[1]).hold, 36)
        XCTAssertTrue(loud[3].hasSuffix("   0.0 /  -20.0 dBFS"), loud[3])
        XCTAssertEqual(loud[4], "gain reduction")
        XCTAssertTrue(loud[5].hasPrefix("vox/comp GR   ██████████·"), "6 of 24 dB = 10 cells: \(loud[5])")
        XCTAssertTrue(loud[5].hasSuffix("  -6.0 dB"), loud[5])
        XCTAssertTrue(loud[6].hasPrefix("vox/comp gate " + String(repeating: "█", count: 40)), "a closed gate fills the bar: \(loud[6])")
        XCTAssertTrue(loud[6].hasSuffix("  -80 dB"), loud[6])

        let quieter = view.meterLines(strips: [.init(name: "vox", peak: 0.125, rms: 0.0625)], buses: [], reductions: [], now: start.addingTimeInterval(1))
        XCTAssertEqual(cells(quieter[1]).peak, 28, "−18 dBFS peak")
        XCTAssertEqual(cells(quieter[1]).hold, 36, "the hold stays at −6 dBFS for 1.5 s")
        let later = view.meterLines(strips: [.init(name: "vox", peak: 0.125, rms: 0.0625)], buses: [], reductions: [], now: start.addingTimeInterval(1.6))
        XCTAssertEqual(cells(later[1]).hold, 28, "then falls to the current peak")
        let silent = view.meterLines(strips: [.init(name: "vox", peak: 0, rms: 0)], buses: [], reductions: [], now: start.addingTimeInterval(5))
        XCTAssertTrue(silent[1].hasSuffix("  -inf /   -inf dBFS"), silent[1])
        XCTAssertEqual(cells(silent[1]).peak, 0)
    }

    func testPluginControlOutputsAreShownInTheViewAndTheStatusLine() {
        var meters = MeterSnapshot(strips: [], buses: [])
        meters.units = [
            ("vox", "comp", [UnitMeterReading(key: "gain_reduction_db", value: 4), UnitMeterReading(key: "expansion_db", value: 0)]),
            ("vox", "darc", [UnitMeterReading(key: "gain_min", value: 12.5), UnitMeterReading(key: "gain_max", value: -3.25)]),
        ]
        let lines = MeterView(isTerminal: false).meterLines(meters, now: Date())
        let start = try? XCTUnwrap(lines.firstIndex(of: "plugin outputs"))
        XCTAssertNotNil(start, "\(lines)")
        XCTAssertEqual(lines.count, (start ?? 0) + 3, "two plugin outputs, the compressor's GR stays in its own section")
        XCTAssertTrue(lines[(start ?? 0) + 1].hasPrefix("vox/darc gain_min") && lines[(start ?? 0) + 1].hasSuffix("12.500"), lines[(start ?? 0) + 1])
        let status = LiveStatus.line(load: 10, xruns: 0, meters: meters)
        XCTAssertTrue(status.contains("vox/comp GR -4.0 dB  vox/darc"), "no expansion shown while the expander is open: \(status)")
        XCTAssertTrue(status.contains("vox/darc gain_min 12.50") && status.contains("vox/darc gain_max -3.25"), status)
    }

    /// A feedback unit's notches get their own section and a count in the status line, not plugin-output rows;
    /// a bus's unit (`[[bus.unit]]`, meters name its owner `bus/<bus>`) shows under its bus.
    func testFeedbackNotchesAreShownPerUnit() {
        var meters = MeterSnapshot(strips: [], buses: [])
        meters.units = [
            ("vox", "fbx", [UnitMeterReading(key: "notches_active", value: 2),
                            UnitMeterReading(key: "notch1_freq_hz", value: 2537.6), UnitMeterReading(key: "notch1_depth_db", value: -12),
                            UnitMeterReading(key: "notch3_freq_hz", value: 820.2), UnitMeterReading(key: "notch3_depth_db", value: -9)]),
            ("keys", "fbx", [UnitMeterReading(key: "notches_active", value: 0)]),
            ("bus/wedge", "fb", [UnitMeterReading(key: "notches_active", value: 1),
                                 UnitMeterReading(key: "notch2_freq_hz", value: 2452.4), UnitMeterReading(key: "notch2_depth_db", value: -9)]),
        ]
        let lines = MeterView(isTerminal: false).meterLines(meters, now: Date())
        let start = try? XCTUnwrap(lines.firstIndex(of: "feedback notches"))
        XCTAssertNotNil(start, "\(lines)")
        XCTAssertEqual(Array(lines[((start ?? 0) + 1)...]), [
            "vox/fbx                  2 notches: 2538 Hz -12 dB, 820 Hz -9 dB",
            "keys/fbx                 no notches",
            "bus/wedge/fb             1 notch: 2452 Hz -9 dB",
        ])
        let status = LiveStatus.line(load: 10, xruns: 0, meters: meters)
        XCTAssertTrue(status.hasSuffix("vox/fbx 2 notches  keys/fbx no notches  bus/wedge/fb 1 notch"), status)
    }

    /// The status line tells compression from expansion: a gated silence reads `gate -80 dB` beside `GR  0.0 dB`,
    /// partial expansion `exp -12.0 dB`, and compression alone `GR -6.0 dB`.
    func testStatusLineTellsCompressionFromExpansionAndGate() {
        func comp(_ compression: Float, _ expansion: Float) -> [UnitMeterReading] {
            [UnitMeterReading(key: "gain_reduction_db", value: compression), UnitMeterReading(key: "expansion_db", value: expansion)]
        }
        var meters = MeterSnapshot(strips: [], buses: [])
        meters.units = [("vox", "comp", comp(6, 0)), ("kick", "gate", comp(0, 80)), ("gtr", "comp", comp(0, 12)), ("bass", "comp", comp(0, 0.01)),
                        ("hat", "comp", comp(0, 79.2))]
        let status = LiveStatus.line(load: 1, xruns: 0, meters: meters)
        XCTAssertTrue(status.hasSuffix("vox/comp GR -6.0 dB  kick/gate GR  0.0 dB  gate -80 dB  gtr/comp GR  0.0 dB  exp -12.0 dB  bass/comp GR  0.0 dB  hat/comp GR  0.0 dB  gate -80 dB"),
                      status)
        XCTAssertFalse(status.contains("expansion_db"), "the expansion reading is not listed as a plugin output: \(status)")
        let rows = MeterView(isTerminal: false).meterLines(meters, now: Date()).filter { $0.hasPrefix("kick/gate") || $0.hasPrefix("gtr/comp") }
        XCTAssertEqual(rows.count, 4, "\(rows)")
        XCTAssertTrue(rows[1].hasPrefix("kick/gate gate") && rows[1].hasSuffix("-80 dB"), rows[1])
        XCTAssertTrue(rows[3].hasPrefix("gtr/comp exp") && rows[3].hasSuffix("-12.0 dB"), rows[3])
    }

    /// With 64 compressed strips the status line fits an 80-column terminal: the head, the buses, the deepest
    /// gain reductions first, then `+N more` counting exactly what was left out; unlimited, it lists them all.
    func testStatusLineFitsTheTerminalWidth() {
        func comp(_ compression: Float) -> [UnitMeterReading] {
            [UnitMeterReading(key: "gain_reduction_db", value: compression), UnitMeterReading(key: "expansion_db", value: 0)]
        }
        var meters = MeterSnapshot(strips: [], buses: [("main", MeterReading(peak: 0.5, rms: 0.1)), ("iem", MeterReading(peak: 0.25, rms: 0.1))])
        meters.units = (0..<64).map { ("ch\($0)", "comp", comp(Float($0 % 8))) }
        let full = LiveStatus.line(load: 3, xruns: 0, meters: meters)
        XCTAssertGreaterThan(full.count, 1_000, "unlimited (a log) lists every unit")
        for width in [40, 79, 120, 200] {
            let line = LiveStatus.line(load: 3, xruns: 0, meters: meters, extra: ["REC 0:12"], width: width)
            XCTAssertLessThanOrEqual(line.count, width, line)
            XCTAssertTrue(line.hasPrefix("DSP   3%"), line)
            let shownUnits = line.components(separatedBy: "/comp GR").count - 1
            let last = line.components(separatedBy: "  ").last ?? ""
            guard last.hasPrefix("+"), last.hasSuffix(" more"), let leftOut = Int(last.dropFirst().dropLast(5)) else { return XCTFail("no +N more: \(line)") }
            let shownOthers = ["main ", "iem ", "REC 0:12", "xruns 0"].filter { line.contains($0) }.count
            XCTAssertEqual(shownUnits + shownOthers + leftOut, 64 + 4, "every part is shown or counted: \(line)")
            if shownUnits > 0 { XCTAssertTrue(line.contains("GR -7.0 dB"), "the deepest reductions come first: \(line)") }
        }
        let wide = LiveStatus.line(load: 3, xruns: 0, meters: meters, extra: ["REC 0:12"], width: 120)
        XCTAssertTrue(wide.contains("main   -6.0 dBFS  iem  -12.0 dBFS  ch7/comp GR -7.0 dB"), "buses come before gain reductions: \(wide)")
        XCTAssertFalse(wide.contains("GR -1.0 dB"), "shallow reductions give way to deep ones: \(wide)")
    }

    /// The groups line: each DCA's live gain (or MUTED) and each mute group's state; none without groups.
    func testTheGroupLineShowsDCAsAndMuteGroupsAsTheyAreNow() throws {
        let preset = try PresetLoader.parse("""
            [[bus]]
            name = "main"
            [[strip]]
            name = "kick"
              [[strip.send]]
              bus = "main"
            [[dca]]
            name = "drums"
            strips = ["kick"]
            gain_db = -3
            [[mute_group]]
            name = "band"
            strips = ["kick"]
            """, path: "groups.toml")
        XCTAssertEqual(MeterView.groupLine(preset: preset) { _ in nil }, "groups  dca drums -3.0 dB   mute_group band off")
        let live: [ParameterAddress: Float] = [.dcaMute(dca: 0): 1, .muteGroup(group: 0): 1]
        XCTAssertEqual(MeterView.groupLine(preset: preset) { live[$0] }, "groups  dca drums MUTED   mute_group band on")
    }

    /// The view's rows are named by the running tree: strips, buses and units by their paths, a plugin's output by
    /// its path and port name (x42 darc's `rms` is lilv's `Signal Level`).
    func testRowsAreLabelledByTheParameterTree() throws {
        let preset = try PresetLoader.parse("""
            [[bus]]
            name = "foh"
              [[bus.unit]]
              type = "compressor"
              id = "bus_comp"
            [[strip]]
            name = "vox"
            send = [{ bus = "foh" }]
              [[strip.unit]]
              type = "lv2"
              id = "darc"
              uri = "http://gareus.org/oss/lv2/darc#mono"
            """, path: "/tmp/meter-labels.toml")
        let loudness = BusLoudnessMonitor(showSeconds: 3600, runsWorker: false) { _ in }
        let graph = try LiveSession.graph(for: preset, sampleRate: 48000, period: 256, loudness: loudness)
        let labels = MeterLabels(tree: ParameterPath.tree(graph: graph, preset: preset), graph: graph)
        let lines = MeterView(isTerminal: false).meterLines(graph.meters(), now: Date(), labels: labels)
        for row in ["strip/vox ", "bus/foh ", "bus/foh/unit/bus_comp GR", "strip/vox/unit/darc/rms (Signal Level)"] {
            XCTAssertTrue(lines.contains { $0.hasPrefix(row) }, "a row '\(row)' in \(lines)")
        }
        XCTAssertEqual(MeterLabels().unit("vox/comp"), "vox/comp", "without a tree a row keeps its meter name")
    }
}
