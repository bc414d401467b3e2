// A unit parameter's one declaration: key, range, default, value type, unit, display curve, smoothing. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// What kind of value a parameter takes.
public enum ParameterValueType: String, Sendable, Hashable, Encodable {
    /// Any number within the range.
    case number
    /// Whole numbers within the range.
    case integer
    /// 0 (off) or 1 (on).
    case toggle
    /// One of ``ParameterDescriptor/choices``, stored as its value.
    case choice
    /// A press: any value does it (`cue/clear`).
    case trigger
}

/// How a control should spread the range along its travel.
public enum ParameterCurve: String, Sendable, Hashable, Encodable {
    /// Evenly.
    case linear
    /// A level in dB: a fader's travel (more room near 0 dB).
    case decibels = "db"
    /// Logarithmically (frequencies, times).
    case logarithmic = "log"
}

/// A named value of a choice parameter (`detection = "rms"` is 1).
public struct ParameterChoice: Sendable, Hashable, Encodable {
    /// The name written in presets and shown on pages.
    public var name: String
    /// The number the engine takes.
    public var value: Float

    /// A choice.
    public init(name: String, value: Float) {
        self.name = name
        self.value = value
    }
}

/// A parameter a unit exposes for live control: the unit's single declaration of it, which presets, OSC,
/// MIDI, the web pages and reports all read (through ``ParameterTree``).
public struct ParameterDescriptor: Sendable, Hashable {
    /// The key, as in presets and OSC paths (carries its unit, e.g. `gain_db`).
    public var key: String
    /// The allowed values.
    public var range: ClosedRange<Float>
    /// The value a new unit starts with.
    public var defaultValue: Float
    /// What kind of value it takes.
    public var type: ParameterValueType
    /// The named values of a ``ParameterValueType/choice`` (empty otherwise).
    public var choices: [ParameterChoice]
    /// The unit's symbol (`dB`, `Hz`, `ms`, `s`, `%`), empty for a plain number.
    public var unit: String
    /// How a control spreads the range.
    public var curve: ParameterCurve
    /// Whether the engine glides to a new value (no click) rather than jumping.
    public var isSmoothed: Bool
    /// One line for documentation and reports.
    public var summary: String

    /// A parameter with its key, range and default. The unit and curve follow the key's suffix unless
    /// given (`_db`: dB on the dB curve, `_hz`: Hz on the log curve, `_ms`/`_s`: time on the log curve).
    public init(
        key: String, range: ClosedRange<Float>, defaultValue: Float, type: ParameterValueType = .number,
        choices: [ParameterChoice] = [], unit: String? = nil, curve: ParameterCurve? = nil, isSmoothed: Bool? = nil, summary: String = ""
    ) {
        self.key = key
        self.range = range
        self.defaultValue = defaultValue
        self.type = choices.isEmpty ? type : .choice
        self.choices = choices
        let suffix = Self.suffixUnit(key)
        self.unit = unit ?? suffix.unit
        self.curve = curve ?? (type == .number ? suffix.curve : .linear)
        self.isSmoothed = isSmoothed ?? (self.type == .number)
        self.summary = summary
    }

    /// An on/off parameter.
    public static func toggle(key: String, defaultValue: Float, summary: String = "") -> ParameterDescriptor {
        ParameterDescriptor(key: key, range: 0...1, defaultValue: defaultValue, type: .toggle, summary: summary)
    }

    /// The unit and curve a key's suffix names.
    static func suffixUnit(_ key: String) -> (unit: String, curve: ParameterCurve) {
        if key.hasSuffix("_db") { return ("dB", .decibels) }
        if key.hasSuffix("_hz") { return ("Hz", .logarithmic) }
        if key.hasSuffix("_ms") { return ("ms", .logarithmic) }
        if key.hasSuffix("_s") { return ("s", .logarithmic) }
        return ("", .linear)
    }

    /// The smallest step that matters: 1 for whole-number types, 0.01 dB for levels, else a 10⁻⁴ part of the range.
    public var resolution: Float {
        switch type {
        case .toggle, .choice, .integer, .trigger: return 1
        case .number:
            if unit == "dB" { return 0.01 }
            let span = range.upperBound - range.lowerBound
            return span.isFinite && span > 0 ? span * 1e-4 : 1e-4
        }
    }
}
