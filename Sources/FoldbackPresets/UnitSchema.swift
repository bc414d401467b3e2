// The registry of unit types and the preset keys each one accepts. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine

/// The preset keys a unit type accepts, with their kinds, ranges and defaults.
///
/// Adding a unit type to presets is adding an entry to ``all``: the loader validates its keys,
/// fills in defaults and stores values in ``UnitSpec/parameters``; `foldback check` prints them.
public struct UnitSchema: Sendable {
    /// The `type = "…"` string.
    public var type: String
    /// One line saying what the unit does.
    public var summary: String
    /// The unit's parameter keys, in the order reports list them.
    public var parameters: [ParameterSchema]

    /// Creates a schema.
    public init(type: String, summary: String, parameters: [ParameterSchema]) {
        self.type = type
        self.summary = summary
        self.parameters = parameters
    }

    /// Every known unit type. Each type's schema lives in its own `UnitSchema+Type.swift` file.
    public static let all: [UnitSchema] = [
        gain,
        compressor,
        deesser,
        eq,
        reverb,
        echo,
        geq,
        delay,
        feedback,
        lv2,
    ]

    /// The names of every known unit type, in registry order.
    public static var knownTypes: [String] { all.map(\.type) }

    /// The schema for `type`, if it is known.
    public static func named(_ type: String) -> UnitSchema? { all.first { $0.type == type } }

    /// The parameter with the given key, if the type has it.
    public func parameter(_ key: String) -> ParameterSchema? { parameters.first { $0.key == key } }

    /// `"gain"`: a trim stage with polarity inversion.
    public static let gain = UnitSchema(
        type: "gain",
        summary: "Trim gain with optional polarity inversion.",
        parameters: GainUnit.declaredParameters.map(ParameterSchema.init(descriptor:))
    )
}

/// One key of a unit type: what values it takes and its default.
public struct ParameterSchema: Sendable {
    /// A named value a choice key accepts, and the number it is stored as.
    public struct Choice: Sendable, Hashable {
        /// The string written in the preset.
        public var name: String
        /// The value stored in ``UnitSpec/parameters``.
        public var value: Float

        /// Creates a choice.
        public init(name: String, value: Float) {
            self.name = name
            self.value = value
        }
    }

    /// The kind of value a key takes.
    public enum Kind: Sendable {
        /// A number (integers accepted) within the closed range; the key's suffix names its unit.
        case number(ClosedRange<Float>)
        /// `true` or `false`, stored as 1 or 0.
        case bool
        /// One of the named strings, stored as its value.
        case choice([Choice])
    }

    /// The preset key, unit suffix included (`gain_db`, `attack_ms`, `freq_hz`).
    public var key: String
    /// What values the key accepts.
    public var kind: Kind
    /// The stored value used when the key is absent.
    public var defaultValue: Float
    /// One line for documentation.
    public var summary: String

    /// Creates a parameter schema.
    public init(key: String, kind: Kind, defaultValue: Float, summary: String) {
        self.key = key
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
    }

    /// The preset key of a unit's parameter declaration: a toggle is a `bool`, a choice its named values.
    public init(descriptor: ParameterDescriptor) {
        let kind: Kind
        switch descriptor.type {
        case .toggle: kind = .bool
        case .choice: kind = .choice(descriptor.choices.map { Choice(name: $0.name, value: $0.value) })
        case .number, .integer, .trigger: kind = .number(descriptor.range)
        }
        self.init(key: descriptor.key, kind: kind, defaultValue: descriptor.defaultValue, summary: descriptor.summary)
    }

    /// The preset spelling of a stored value: the choice name, `true`/`false`, or the number.
    public func displayValue(_ value: Float) -> String {
        switch kind {
        case .number: return NumberFormatting.plain(value)
        case .bool: return value != 0 ? "true" : "false"
        case .choice(let choices):
            return choices.first { $0.value == value }?.name ?? NumberFormatting.plain(value)
        }
    }
}
