// What each feedback suppressor is doing, as the status line and the meter view show it: its active notches. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
package import FoldbackEngine

/// One `feedback` unit's notches, read from its meter readings (`notches_active`, `notch<n>_freq_hz`,
/// `notch<n>_depth_db`): shown as `2 notches: 2538 Hz -12 dB, 820 Hz -9 dB`, or `no notches`.
package struct FeedbackReadout {
    /// `strip/unit`, or `bus/<bus>/unit` for a bus's unit.
    package var unit: String
    /// Active notches in slot order: frequency (Hz) and depth (dB).
    package var notches: [(frequency: Float, depth: Float)]

    /// The readouts of every feedback unit in `meters`.
    package static func readouts(_ meters: MeterSnapshot) -> [FeedbackReadout] {
        meters.units.compactMap { unit in
            guard unit.readings.contains(where: { $0.key == "notches_active" }) else { return nil }
            let notches = FeedbackNotchReport.notches(in: unit.readings).map { (frequency: $0.frequency, depth: $0.depth) }
            return FeedbackReadout(unit: "\(unit.strip)/\(unit.unit)", notches: notches)
        }
    }

    /// Whether `key` is one of the readings shown here (not a plugin's control output).
    package static func isFeedbackKey(_ key: String) -> Bool { FeedbackNotchReport.isNotchKey(key) }

    /// `2 notches: 2538 Hz -12 dB, 820 Hz -9 dB`, `1 notch: …` or `no notches`.
    package var text: String {
        guard !notches.isEmpty else { return "no notches" }
        let list = notches.map { "\(Int($0.frequency.rounded())) Hz \(Int($0.depth.rounded())) dB" }.joined(separator: ", ")
        return "\(notches.count) notch\(notches.count == 1 ? "" : "es"): \(list)"
    }

    /// The short form for the status line: `2 notches`.
    package var shortText: String { notches.isEmpty ? "no notches" : "\(notches.count) notch\(notches.count == 1 ? "" : "es")" }
}
