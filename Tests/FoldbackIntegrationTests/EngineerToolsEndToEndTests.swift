// Cue, talkback and compensated trim on a running `foldback run` over a dummy jackd, driven over OSC, measured. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACK
import Foundation
import XCTest

final class EngineerToolsEndToEndTests: JACKServerTestCase {
    /// vox (noise) into main and iem (iem with a zero-latency limiter, so no path has latency), a talkback `tb` (a sine) to iem, and a cue.
    private func rig() throws -> LiveControlRig {
        let preset = try LiveControlRig.temporaryFolder() + "/tools.toml"
        try LiveControlRig.writePreset(to: preset, voxGainDB: 0, extra: """
              [[strip.send]]
              bus = "iem"
              gain_db = -6
              pre_fader = true
            [[bus]]
            name = "iem"
            channels = 1
            limiter_mode = "zero_latency"
            [[strip]]
            name = "tb"
            talkback = true
            talk_to = ["iem"]
            dim_db = -12
            gain_db = -3
            [cue]
            """)
        return try LiveControlRig(
            server: serverName, arguments: [preset], testCase: self,
            signals: [.noise(seed: 3, level: -20), .sine(frequency: 440, level: -20)], playInto: ["vox_in", "tb_in"], recordFrom: ["main", "iem", "cue_L", "cue_R"])
    }

    /// Least-squares gains of each recorded channel on the played vox and tb signals (solving the 2 × 2 system).
    private func gains(_ rig: LiveControlRig) throws -> [(vox: Double, tb: Double)] {
        let recording = try rig.client.record(frames: 8_192, settleFrames: 4_800, attempts: 5)
        return recording.channels.map { channel in
            var vv = 0.0, tt = 0.0, vt = 0.0, yv = 0.0, yt = 0.0
            for (index, sample) in channel.enumerated() {
                let time = recording.frameTime(ofSample: index)
                let vox = Double(rig.client.expectedSample(channel: 0, frameTime: time)), tb = Double(rig.client.expectedSample(channel: 1, frameTime: time))
                vv += vox * vox; tt += tb * tb; vt += vox * tb; yv += Double(sample) * vox; yt += Double(sample) * tb
            }
            let determinant = vv * tt - vt * vt
            return ((yv * tt - yt * vt) / determinant, (yt * vv - yv * vt) / determinant)
        }
    }

    func testCueTalkbackAndCompensatedTrimLive() throws {
        let rig = try rig()
        defer { rig.close() }
        var now = try gains(rig)
        XCTAssertEqual(decibels(now[0].vox), 0, accuracy: 0.1, "main")
        XCTAssertEqual(decibels(now[1].vox), -6, accuracy: 0.1, "iem")
        XCTAssertEqual(now[1].tb, 0, accuracy: 1e-4, "talkback silent until pressed")
        XCTAssertEqual(now[2].vox, 0, accuracy: 1e-6, "nothing cued")

        XCTAssertNil(try rig.request("/foldback/cue/bus/iem", [.int(1)], timeout: 0.5))
        XCTAssertEqual(try rig.request("/foldback/cue/get"), OSCMessage("/foldback/cue", [.string("bus/iem")]))
        let recording = try rig.client.record(frames: 8_192, settleFrames: 4_800, attempts: 5)
        let iem = recording.channels[1], cueL = recording.channels[2], cueR = recording.channels[3]
        XCTAssertGreaterThan(iem.map(abs).max() ?? 0, 0.01)
        XCTAssertLessThanOrEqual(zip(iem, cueL).map { abs($0 - $1) }.max() ?? 1, 1e-6, "cue L is the iem's output, sample-aligned")
        XCTAssertLessThanOrEqual(zip(iem, cueR).map { abs($0 - $1) }.max() ?? 1, 1e-6, "cue R too")

        XCTAssertNil(try rig.request("/foldback/talkback/tb", [.int(1)], timeout: 0.5))
        XCTAssertEqual(try rig.request("/foldback/talkback/tb/get"), OSCMessage("/foldback/talkback/tb", [.int(1)]))
        now = try gains(rig)
        XCTAssertEqual(decibels(now[1].vox), -18, accuracy: 0.1, "iem dimmed by 12 dB")
        XCTAssertEqual(decibels(now[1].tb), -3, accuracy: 0.1, "the talkback at its fader")
        XCTAssertEqual(decibels(now[0].vox), 0, accuracy: 0.1, "main untouched")
        XCTAssertEqual(now[0].tb, 0, accuracy: 1e-4, "main never hears the talkback")
        XCTAssertNil(try rig.request("/foldback/talkback/tb", [.int(0)], timeout: 0.5))
        XCTAssertEqual(try rig.request("/foldback/talkback/tb/get"), OSCMessage("/foldback/talkback/tb", [.int(0)]))

        XCTAssertNil(try rig.request("/foldback/strip/vox/trim_db", [.float(12), .int(1)], timeout: 0.5))
        XCTAssertEqual(try rig.request("/foldback/strip/vox/trim_db/get"), OSCMessage("/foldback/strip/vox/trim_db", [.float(12)]))
        now = try gains(rig)
        XCTAssertEqual(decibels(now[0].vox), 0, accuracy: 0.1, "main within 0.1 dB after a compensated +12 dB trim")
        XCTAssertEqual(decibels(now[1].vox), -6, accuracy: 0.1, "iem too")
        XCTAssertEqual(now[1].tb, 0, accuracy: 1e-4, "talkback released")
    }
}
