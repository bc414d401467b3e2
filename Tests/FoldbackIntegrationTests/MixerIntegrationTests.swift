// The mixer's signal facts measured through real JACK ports at 48 kHz, period 256. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackJACK
import XCTest

/// Each test plays hashed noise into foldback's inputs and checks every recorded sample against the
/// mix law applied to what was played at the same frame time: gains, pan, sends, mute and solo are
/// exact to 1e-6, and "same frame time" proves zero added latency.
final class MixerIntegrationTests: JACKServerTestCase {
    private let centre = 0.70710678118654752

    func testFaderUnitGainAndBusGainMultiply() throws {
        let rig = try FoldbackRig(serverName: serverName, description: GraphDescription(
            strips: [
                StripDescription(name: "vox", channels: 1, units: [GainUnit(gainDB: -3.5)], sends: [SendDescription(bus: 0, gainDB: -2)], gainDB: -6),
                StripDescription(name: "flip", channels: 1, units: [GainUnit(gainDB: 2, isInverted: true)], sends: [SendDescription(bus: 1)]),
            ],
            buses: [BusDescription(name: "wedge", channels: 1, gainDB: 1.5), BusDescription(name: "spare", channels: 1)]))
        defer { rig.close() }
        let recording = try rig.record()
        rig.assertOutput(recording, "wedge") { rig.input(0, $0) * gain(-3.5 - 6 - 2 + 1.5) }
        rig.assertOutput(recording, "spare") { -rig.input(1, $0) * gain(2) }
        XCTAssertGreaterThan(SignalCheck.peak(recording, channel: 0), 0.05, "the signal must actually flow")
    }

    func testMonoIntoStereoUsesConstantPowerPan() throws {
        let rig = try FoldbackRig(serverName: serverName, description: GraphDescription(
            strips: [-1, 0, 1].enumerated().map { index, pan in
                StripDescription(name: "s\(index)", channels: 1, sends: [SendDescription(bus: index)], pan: Float(pan))
            },
            buses: (0..<3).map { BusDescription(name: "b\($0)", channels: 2) }))
        defer { rig.close() }
        let recording = try rig.record()
        rig.assertOutput(recording, "b0_L") { rig.input(0, $0) }
        rig.assertOutput(recording, "b0_R") { _ in 0 }
        rig.assertOutput(recording, "b1_L") { rig.input(1, $0) * self.centre }
        rig.assertOutput(recording, "b1_R") { rig.input(1, $0) * self.centre }
        rig.assertOutput(recording, "b2_L") { _ in 0 }
        rig.assertOutput(recording, "b2_R") { rig.input(2, $0) }
    }

    func testStereoStripUsesBalanceAndSumsIntoMono() throws {
        let rig = try FoldbackRig(serverName: serverName, description: GraphDescription(
            strips: [
                StripDescription(name: "left", channels: 2, sends: [SendDescription(bus: 0)], pan: -0.5),
                StripDescription(name: "right", channels: 2, sends: [SendDescription(bus: 1), SendDescription(bus: 2)], pan: 0.25),
            ],
            buses: [BusDescription(name: "a", channels: 2), BusDescription(name: "b", channels: 2), BusDescription(name: "m", channels: 1)]))
        defer { rig.close() }
        let recording = try rig.record()
        rig.assertOutput(recording, "a_L") { rig.input(0, $0) }
        rig.assertOutput(recording, "a_R") { rig.input(1, $0) * 0.5 }
        rig.assertOutput(recording, "b_L") { rig.input(2, $0) * 0.75 }
        rig.assertOutput(recording, "b_R") { rig.input(3, $0) }
        // Stereo into mono: 0.5·(bL·L + bR·R), the balance (0.75, 1) applied before the sum.
        rig.assertOutput(recording, "m") { 0.5 * (0.75 * rig.input(2, $0) + rig.input(3, $0)) }
    }

    func testPreFaderSendIgnoresTheFaderAndPostFaderFollowsIt() throws {
        let rig = try FoldbackRig(serverName: serverName, description: GraphDescription(
            strips: [StripDescription(name: "gtr", channels: 1, units: [GainUnit(gainDB: 3)], sends: [
                SendDescription(bus: 0, gainDB: -1, isPreFader: true), SendDescription(bus: 1, gainDB: -1),
            ], gainDB: -12)],
            buses: [BusDescription(name: "pre", channels: 1), BusDescription(name: "post", channels: 1)]))
        defer { rig.close() }
        let recording = try rig.record()
        rig.assertOutput(recording, "pre") { rig.input(0, $0) * gain(3 - 1) }
        rig.assertOutput(recording, "post") { rig.input(0, $0) * gain(3 - 12 - 1) }
    }

    func testMuteDisableAndBusMuteSilenceEverySend() throws {
        let rig = try FoldbackRig(serverName: serverName, description: GraphDescription(
            strips: [
                StripDescription(name: "muted", channels: 1, sends: [SendDescription(bus: 0), SendDescription(bus: 1, isPreFader: true)], isMuted: true),
                StripDescription(name: "off", channels: 1, sends: [SendDescription(bus: 0), SendDescription(bus: 1, isPreFader: true)], isEnabled: false),
                StripDescription(name: "live", channels: 1, sends: [SendDescription(bus: 0), SendDescription(bus: 2)]),
            ],
            buses: [BusDescription(name: "mix", channels: 1), BusDescription(name: "pre", channels: 1), BusDescription(name: "gone", channels: 1, isMuted: true)]))
        defer { rig.close() }
        let recording = try rig.record()
        rig.assertOutput(recording, "mix") { rig.input(2, $0) }
        rig.assertOutput(recording, "pre") { _ in 0 }
        rig.assertOutput(recording, "gone") { _ in 0 }
    }

    func testSoloInPlaceLeavesOnlySoloedStrips() throws {
        let rig = try FoldbackRig(serverName: serverName, description: GraphDescription(
            strips: [
                StripDescription(name: "lead", channels: 1, sends: [SendDescription(bus: 0)], gainDB: -3, isSoloed: true),
                StripDescription(name: "keys", channels: 1, sends: [SendDescription(bus: 0), SendDescription(bus: 1)]),
                StripDescription(name: "harm", channels: 1, sends: [SendDescription(bus: 1, isPreFader: true)], isSoloed: true),
            ],
            buses: [BusDescription(name: "a", channels: 1), BusDescription(name: "b", channels: 1)]))
        defer { rig.close() }
        let recording = try rig.record()
        rig.assertOutput(recording, "a") { rig.input(0, $0) * gain(-3) }
        rig.assertOutput(recording, "b") { rig.input(2, $0) }
    }

    /// Output frame k of a cycle comes from input frame k of the same cycle: the recording matches the
    /// input at the same frame time exactly and matches no shifted copy of it.
    func testZeroAddedLatency() throws {
        let rig = try FoldbackRig(serverName: serverName, description: GraphDescription(
            strips: [StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0)])],
            buses: [BusDescription(name: "out", channels: 1)]))
        defer { rig.close() }
        let recording = try rig.record(frames: 8_192)
        XCTAssertEqual(SignalCheck.maxError(recording, channel: 0) { rig.input(0, $0) }, 0)
        for shift: UInt32 in [1, 2, 64, UInt32(rig.host.bufferSize)] {
            let error = SignalCheck.maxError(recording, channel: 0) { rig.input(0, $0 &- shift) }
            XCTAssertGreaterThan(error, 0.01, "a \(shift)-frame delay must not match")
        }
    }
}
