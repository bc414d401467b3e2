// The live parameters of a strip's file source (tempo, key, cents): names, ranges, defaults, for presets and every surface. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine

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
    /// The unit symbol a page shows ("" for a plain factor).
    public var unit = ""

    /// The value clamped into ``range``.
    public func clamped(_ value: Float) -> Float { min(max(value, range.lowerBound), range.upperBound) }

    /// Its declaration in the parameter tree: a host-side node (the source's disk thread applies it, the
    /// stretcher's own smooth change, heard within 100 ms).
    public var descriptor: ParameterDescriptor {
        ParameterDescriptor(key: key, range: range, defaultValue: defaultValue, unit: unit, curve: .linear, isSmoothed: true, summary: summary)
    }

    /// The host-side address of this parameter of strip `strip`'s source.
    public func hostParameter(strip: Int) -> HostParameter {
        switch key {
        case SourceParameters.tempo.key: .sourceTempo(strip: strip)
        case SourceParameters.pitchSemitones.key: .sourcePitchSemitones(strip: strip)
        default: .sourceCents(strip: strip)
        }
    }
}

/// The file-source parameters a strip has when it plays a file; the parameter tree adopts them under
/// `strip/<name>/source/`.
public enum SourceParameters {
    /// Speed, 1 as recorded.
    public static let tempo = SourceParameter(key: "tempo", range: 0.5...2.0, defaultValue: 1, summary: "speed (1 = as recorded)")
    /// Key shift, semitones.
    public static let pitchSemitones = SourceParameter(
        key: "pitch_semitones", range: -12...12, defaultValue: 0, summary: "key shift, semitones", unit: "st")
    /// Fine key shift, cents.
    public static let cents = SourceParameter(key: "cents", range: -100...100, defaultValue: 0, summary: "fine key shift, cents", unit: "ct")
    /// All three, in address order.
    public static let all = [tempo, pitchSemitones, cents]

    /// The parameter named `key`, or nil.
    public static func named(_ key: String) -> SourceParameter? { all.first { $0.key == key } }

    /// The source parameter a host-side address names, and its strip; nil for a sound-check input switch.
    public static func parameter(of host: HostParameter) -> (parameter: SourceParameter, strip: Int)? {
        switch host {
        case let .sourceTempo(strip): (tempo, strip)
        case let .sourcePitchSemitones(strip): (pitchSemitones, strip)
        case let .sourceCents(strip): (cents, strip)
        case .stripInput, .allInputs, .showTempo, .tempoSource, .pluginFaulted: nil
        }
    }

    /// The value of `parameter` in `source`.
    public static func value(of parameter: SourceParameter, in source: FileSourceSpec) -> Float {
        switch parameter.key {
        case tempo.key: source.tempo
        case pitchSemitones.key: source.pitchSemitones
        default: source.cents
        }
    }

    /// The values the Rubber Band engine key accepts: `finer` (R3, the default) or `faster` (R2).
    public static let engines = ["finer", "faster"]
}
