// The feedback suppressors in the realtime scenario (on strips and on a bus), their analysis workers running, and the count of notch changes they made. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
import FoldbackDSP
import FoldbackEngine
import FoldbackFeedback

extension RealtimeScenario {
    /// Feedback units in the scenario (continued, notches and all, on the odd graph swaps as the plugins are).
    static let feedbackUnitCount = 3

    /// Notch changes made by every feedback unit of the run (placed on the file source's pure tone, released after the hold).
    static let feedbackChanges = ManagedAtomic<Int>(0)

    /// Live changes to strip 2's feedback unit (index 5: after trim, EQ, compressor, graphic EQ and delay):
    /// `max_depth_db`, `mode`; and to bus `iem_vox`'s (index 1, after its trim): `max_depth_db`, `hold_s`, a bypass.
    static let feedbackParameterChanges: [(ParameterAddress, Float)] = [
        (.unitParameter(strip: 2, unit: 5, parameter: 1), -18), (.unitParameter(strip: 2, unit: 5, parameter: 0), 1),
        (.busUnitParameter(bus: 1, unit: 1, parameter: 1), -15), (.busUnitParameter(bus: 1, unit: 1, parameter: 2), 0.5),
        (.busUnitBypass(bus: 1, unit: 1), 1), (.busUnitBypass(bus: 1, unit: 1), 0),
    ]

    /// The feedback unit on strips 2 and 5 (nil elsewhere). Strip 5 (stereo) plays the file source's pure
    /// 382 Hz sine, which each new graph's analysis takes for a ring as its window fills: live, with a 0.3 s
    /// hold, its notches come and go through the command ring. Strip 2 (mono; the driver's 128-frame
    /// periodic tone is harmonic, so no ring) is a ring-out starting with a fixed notch at 3 kHz.
    static func feedbackUnit(strip: Int) -> FeedbackUnit? {
        guard strip == 2 || strip == 5 else { return nil }
        var settings = FeedbackSettings()
        settings.holdSeconds = 0.3
        if strip == 2 {
            settings.mode = .ringOut
            settings.fixedNotches = [EQBand(type: .peak, frequency: 3000, gainDB: -9, q: 16)]
        }
        let changes = feedbackChanges
        return FeedbackUnit(settings: settings, label: "rtcheck strip\(strip)") { _ in changes.wrappingIncrement(ordering: .relaxed) }
    }

    /// The feedback unit on bus `iem_vox` (stereo, a wedge's place): live, starting with a saved notch at 1 kHz, its
    /// analysis running on the whole mix (strip 5's sine sits beside the periodic tone's 375 Hz fundamental there, so
    /// it finds no ring; the notch commands are the strip units' part), its parameters and bypass moved live.
    static func busFeedbackUnit() -> FeedbackUnit {
        var settings = FeedbackSettings()
        settings.holdSeconds = 0.3
        settings.fixedNotches = [EQBand(type: .peak, frequency: 1000, gainDB: -9, q: 16)]
        let changes = feedbackChanges
        return FeedbackUnit(settings: settings, label: "rtcheck bus iem_vox") { _ in changes.wrappingIncrement(ordering: .relaxed) }
    }
}
