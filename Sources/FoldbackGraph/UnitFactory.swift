// Makes engine units from validated preset unit specs. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackPresets
public import FoldbackEngine
public import FoldbackLV2
import FoldbackDSP
import FoldbackFeedback

/// Turns a ``UnitSpec`` (already validated against its ``UnitSchema``) into a fresh engine unit.
///
/// A unit object is prepared once, by one graph; rebuilding a graph (new sample rate, reload) makes new units.
public enum UnitFactory {
    /// A new unit for `spec`, its plugins hosted for `hosting`; throws for a type with no implementation
    /// behind its schema, or a plugin that cannot be loaded. `owner` (`strip 'vox'`, `bus 'wedge'`) names
    /// where the unit sits in the lines it logs.
    public static func makeUnit(_ spec: UnitSpec, hosting: PluginHosting = .live, owner: String? = nil) throws(PresetError) -> any EngineUnit {
        switch spec.type {
        case "gain":
            return GainUnit(gainDB: spec.parameters["gain_db"] ?? 0, isInverted: (spec.parameters["polarity"] ?? 0) >= 0.5)
        case "compressor":
            return CompressorUnit(values: spec.parameters)
        case "eq":
            return EQUnit(bands: spec.bands.map(\.band), gainDB: Double(spec.parameters["gain_db"] ?? 0))
        case "reverb":
            return ReverbUnit(values: spec.parameters)
        case "deesser":
            return DeesserUnit(values: spec.parameters)
        case "echo":
            return EchoUnit(values: spec.parameters)
        case "geq":
            return GraphicEQUnit(values: spec.parameters)
        case "delay":
            return DelayUnit(milliseconds: spec.parameters["delay_ms"] ?? 0)
        case "feedback":
            guard spec.bands.count <= NotchBank.maximumNotches else {
                throw PresetError(diagnostics: [PresetDiagnostic(
                    location: spec.location, message: "a feedback unit holds at most \(NotchBank.maximumNotches) notches, not \(spec.bands.count) bands",
                    severity: .error)])
            }
            var settings = FeedbackSettings()
            settings.mode = FeedbackMode(rawValue: Int(spec.parameters["mode"] ?? 1)) ?? .live
            settings.maxDepthDB = spec.parameters["max_depth_db"] ?? -12
            settings.holdSeconds = spec.parameters["hold_s"] ?? 10
            settings.fixedNotches = spec.bands.map(\.band)
            return FeedbackUnit(settings: settings, label: "feedback unit '\(spec.id)'" + (owner.map { " on \($0)" } ?? ""))
        case "lv2" where spec.lv2 != nil:
            return try makePlugin(spec, hosting: hosting, owner: owner)
        // One case per built-in type, each returning its unit from `spec`.
        default:
            throw PresetError(diagnostics: [PresetDiagnostic(
                location: spec.location, message: "unit type '\(spec.type)' has no implementation in this build", severity: .error)])
        }
    }
}
