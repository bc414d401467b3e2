// The live status line at 80 columns: the setlist's song and the buses that need attention (clipping, limiting, muted) come first. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import FoldbackLive
import FoldbackDSP
@testable import FoldbackEngine
import FoldbackPresets
import XCTest

final class StatusLineAttentionTests: XCTestCase {
    /// Seven buses as the show had them: `foh` without a limiter peaking at 0 dBFS, `iem_keys` 0.2 dB under
    /// its −1 dBFS ceiling, `wedge` muted live, the rest quiet.
    private func show() throws -> (Preset, MeterSnapshot) {
        let preset = try PresetLoader.parse("""
            [[bus]]
            name = "iem_singer"
            [[bus]]
            name = "iem_guitar"
            [[bus]]
            name = "iem_bass"
            [[bus]]
            name = "iem_drums"
            [[bus]]
            name = "iem_keys"
            [[bus]]
            name = "wedge"
            [[bus]]
            name = "foh"
            limiter = false
            [[strip]]
            name = "vox"
            send = [{ bus = "foh" }]
            """, path: "status.toml")
        func reading(_ decibels: Float) -> MeterReading {
            MeterReading(peak: Decibels.linearGain(fromDecibels: decibels), rms: Decibels.linearGain(fromDecibels: decibels - 10))
        }
        let meters = MeterSnapshot(strips: [], buses: [
            ("iem_singer", reading(-18)), ("iem_guitar", reading(-20)), ("iem_bass", reading(-24)), ("iem_drums", reading(-22)),
            ("iem_keys", reading(-1.2)), ("wedge", reading(-30)), ("foh", reading(0)),
        ])
        return (preset, meters)
    }

    func testAttentionIsClippingLimitingAndMutedAsMeasured() throws {
        let (preset, meters) = try show()
        let live: [ParameterAddress: Float] = [.busMute(bus: 5): 1]
        let attention = BusAttention.of(meters, preset: preset) { live[$0] }
        XCTAssertEqual(attention, ["foh": .clipping, "iem_keys": .limiting, "wedge": .muted], "−1.2 dBFS is within 0.5 dB of the −1 dBFS ceiling")
        let lowered = BusAttention.of(meters, preset: preset) { $0 == .busLimiterCeiling(bus: 4) ? -0.5 : live[$0] }
        XCTAssertNil(lowered["iem_keys"], "0.7 dB under a −0.5 dBFS ceiling is not limiting")
    }

    /// At 80 columns the line keeps the head, the song and the three buses in trouble, before any quiet bus.
    func testTheSongAndTheBusesInTroubleComeFirstAt80Columns() throws {
        let (preset, meters) = try show()
        let live: [ParameterAddress: Float] = [.busMute(bus: 5): 1]
        let line = LiveStatus.line(
            load: 12.4, xruns: 0, meters: meters, width: 80, song: "song 2/5 'Blackbird'",
            attention: BusAttention.of(meters, preset: preset) { live[$0] })
        print("status at 80 columns: \(line)")
        XCTAssertLessThanOrEqual(line.count, 80, line)
        XCTAssertEqual(line, "DSP  12%  song 2/5 'Blackbird'  iem_keys LIMIT  wedge MUTED  foh CLIP  +5 more",
                       "the song and the buses in trouble in bus order; the four quiet buses and the xrun count counted")
        let wide = LiveStatus.line(
            load: 12.4, xruns: 2, meters: meters, width: 200, song: "song 2/5 'Blackbird'", attention: BusAttention.of(meters, preset: preset) { live[$0] })
        XCTAssertTrue(wide.hasPrefix("DSP  12%  xruns 2  song 2/5 'Blackbird'  iem_keys LIMIT  wedge MUTED  foh CLIP  iem_singer  -18.0 dBFS"), wide)
        let plain = LiveStatus.line(load: 12.4, xruns: 0, meters: meters, width: 80)
        XCTAssertFalse(plain.contains("CLIP") || plain.contains("song"), "without attention or a song, no words: \(plain)")
    }
}
