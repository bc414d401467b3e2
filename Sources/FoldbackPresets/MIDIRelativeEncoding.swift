// How a relative (endless) encoder spells its steps in controller values, for `[[midi.cc]] relative = …`. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The three ways encoders send "turned by N detents" as a controller value (0…127); a mapping with one
/// moves its parameter from where it is by N × `step`, within its `min`…`max`.
public enum MIDIRelativeEncoding: String, Sendable, Hashable, CaseIterable {
    /// Two's complement ("relative 1", Mackie, X-Touch): 1…63 up by 1…63, 127…64 down by 1…64.
    case twos
    /// Binary offset ("relative 2", Arturia, Akai): 64 is no move, 65 up by 1, 63 down by 1.
    case offset
    /// Sign bit ("relative 3", Behringer BCR, Native Instruments): 1…63 up, 65…127 down by 1…63.
    case sign

    /// The detents (signed) that controller value `value` says the encoder turned.
    public func detents(forControllerValue value: Int) -> Int {
        let value = min(max(value, 0), 127)
        switch self {
        case .twos: return value < 64 ? value : value - 128
        case .offset: return value - 64
        case .sign: return value < 64 ? value : -(value - 64)
        }
    }

    /// The step of one detent when a mapping gives none: 0.5 for a level in dB, else 1/127 of its `min`…`max`
    /// (whole numbers: 1).
    public static func defaultStep(minimum: Float, maximum: Float, isDecibels: Bool, isWholeNumber: Bool) -> Float {
        if isWholeNumber { return 1 }
        if isDecibels { return 0.5 }
        return abs(maximum - minimum) / 127
    }
}
