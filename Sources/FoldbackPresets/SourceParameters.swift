// The live parameters of a strip's file source (tempo, key, cents): names, ranges, defaults, for presets and every surface. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// One changeable parameter of a file source, as a preset key and an OSC/MIDI/web parameter
/// (`/foldback/strip/<name>/source/<key> f`).
public struct SourceParameter: Sendable, Equatable {
    /// The preset key and the last part of the address: `tempo`, `pitch_semitones`, `cents`.
    public let key: String
    /// The values accepted (out-of-range values are an error in a preset, clamped live).
    public let range: ClosedRange<Float>
    /// As recorded.
    public let defaultValue: Float
    /// What it does, for `--help`, the web page and the docs.
    public let summary: String

    /// The value clamped into ``range``.
    public func clamped(_ value: Float) -> Float { min(max(value, range.lowerBound), range.upperBound) }
}

/// The file-source parameters a strip has when it plays a file; the parameter tree adopts them under
/// `strip/<name>/source/`.
public enum SourceParameters {
    /// Speed, 1 as recorded.
    public static let tempo = SourceParameter(key: "tempo", range: 0.5...2.0, defaultValue: 1, summary: "speed (1 = as recorded)")
    /// Key shift, semitones.
    public static let pitchSemitones = SourceParameter(
        key: "pitch_semitones", range: -12...12, defaultValue: 0, summary: "key shift, semitones")
    /// Fine key shift, cents.
    public static let cents = SourceParameter(key: "cents", range: -100...100, defaultValue: 0, summary: "fine key shift, cents")
    /// All three, in address order.
    public static let all = [tempo, pitchSemitones, cents]

    /// The parameter named `key`, or nil.
    public static func named(_ key: String) -> SourceParameter? { all.first { $0.key == key } }

    /// The values the Rubber Band engine key accepts: `finer` (R3, the default) or `faster` (R2).
    public static let engines = ["finer", "faster"]
}
