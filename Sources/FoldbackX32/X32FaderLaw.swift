// The X32 / X-Air fader law: a 0…1 fader position ↔ dB in four straight segments, 1024 steps. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The law X32 and X-Air consoles use for faders and send levels (`mix/fader`, `mix/NN/level`, `dca/N/fader`):
/// four straight segments through −90 dB at 0 (off), −60 dB at 0.0625, −30 dB at 0.25, −10 dB at 0.5 (0 dB at 0.75)
/// and +10 dB at 1, the position held in 1024 steps as the console stores it.
public enum X32FaderLaw {
    /// Positions a fader can take (0…1023 / 1023).
    public static let steps = 1024
    /// The top of the fader, dB.
    public static let maxDB: Float = 10
    /// The bottom of the law, dB; position 0 is off (silence).
    public static let minDB: Float = -90

    /// The segment breakpoints `(position, dB)`, in order.
    public static let breakpoints: [(position: Float, decibels: Float)] = [
        (0, -90), (0.0625, -60), (0.25, -30), (0.5, -10), (1, 10),
    ]

    /// `position` (clamped to 0…1) to the nearest of the 1024 steps.
    public static func quantised(_ position: Float) -> Float {
        guard position.isFinite else { return 0 }
        let clamped = min(max(position, 0), 1)
        return (clamped * Float(steps - 1)).rounded() / Float(steps - 1)
    }

    /// The level at fader `position` (quantised first): −∞ at 0.
    public static func decibels(position: Float) -> Float {
        let position = quantised(position)
        guard position > 0 else { return -.infinity }
        if position >= 0.5 { return position * 40 - 30 }
        if position >= 0.25 { return position * 80 - 50 }
        if position >= 0.0625 { return position * 160 - 70 }
        return position * 480 - 90
    }

    /// The fader step for `decibels` (−∞ and anything at or below −90 dB is 0; above +10 dB is 1).
    public static func position(decibels: Float) -> Float {
        guard !decibels.isNaN, decibels > minDB else { return 0 }
        guard decibels < maxDB else { return 1 }
        let position: Float
        if decibels >= -10 {
            position = (decibels + 30) / 40
        } else if decibels >= -30 {
            position = (decibels + 50) / 80
        } else if decibels >= -60 {
            position = (decibels + 70) / 160
        } else {
            position = (decibels + 90) / 480
        }
        return quantised(position)
    }
}
