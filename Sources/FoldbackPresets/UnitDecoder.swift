// Validates a strip's `[[strip.unit]]` tables against UnitSchema and gives each a unique id. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine

/// Reads and checks a strip's unit chain.
enum UnitDecoder {
    /// The keys every unit accepts, whatever its type.
    static let commonKeys = ["type", "id", "bypass", "recall_safe"]

    /// The units in order; those with a missing or unknown type are reported and left out.
    static func decodeChain(_ readers: [TableReader], owner: String, plugins: any PluginCatalog) -> [UnitSpec] {
        var ids = NameRegistry(what: "unit id")
        var decoded: [(unit: UnitSpec, hasExplicitID: Bool)] = []
        for reader in readers {
            guard let (unit, hasExplicitID) = decode(reader, plugins: plugins) else { continue }
            if hasExplicitID {
                ids.register(unit.id, at: reader.valueLocation("id"), context: " in \(owner)", log: reader.log)
            }
            decoded.append((unit, hasExplicitID))
        }
        // Units without an id take their type, then type_2, type_3…, skipping ids already taken.
        var units: [UnitSpec] = []
        var taken = Set(decoded.filter(\.hasExplicitID).map(\.unit.id))
        for entry in decoded {
            var unit = entry.unit
            if !entry.hasExplicitID {
                var candidate = unit.type
                var ordinal = 1
                while taken.contains(candidate) {
                    ordinal += 1
                    candidate = "\(unit.type)_\(ordinal)"
                }
                unit.id = candidate
                taken.insert(candidate)
            }
            units.append(unit)
        }
        return units
    }

    /// One unit with every schema parameter filled in, and whether its id was written in the file.
    private static func decode(_ reader: TableReader, plugins: any PluginCatalog) -> (UnitSpec, Bool)? {
        guard let type = reader.requiredString("type") else {
            reader.checkKeys(allowed: commonKeys + UnitSchema.all.flatMap { $0.parameters.map(\.key) } + EQDecoder.unitKeys
                + DelayDecoder.unitKeys)
            return nil
        }
        guard let schema = UnitSchema.named(type) else {
            let known = UnitSchema.knownTypes.joined(separator: ", ")
            let suggestion = Suggestion.closest(to: type, in: UnitSchema.knownTypes).map { "; did you mean '\($0)'?" } ?? ""
            reader.log.error("unknown unit type '\(type)'\(suggestion) (known types: \(known))", at: reader.valueLocation("type"))
            return nil
        }
        var typed = reader
        typed.label = "a '\(type)' unit"
        let isEQ = type == UnitSchema.eq.type
        let isLV2 = type == UnitSchema.lv2.type
        let isDelay = type == UnitSchema.delay.type
        let isFeedback = type == UnitSchema.feedback.type       // its saved ring-out notches are `band`s
        typed.checkKeys(allowed: commonKeys + schema.parameters.map(\.key) + (isEQ ? EQDecoder.unitKeys : [])
            + (isLV2 ? LV2UnitDecoder.unitKeys : []) + (isDelay ? DelayDecoder.unitKeys : []) + (isFeedback ? ["band"] : []))
        let id = typed.name("id", what: "unit id", required: false)
        let isBypassed = typed.bool("bypass", default: false)
        var parameters: [String: Float] = [:]
        for parameter in schema.parameters {
            parameters[parameter.key] = typed.parameter(parameter)
        }
        var unit = UnitSpec(type: type, id: id ?? type, isBypassed: isBypassed, parameters: parameters, location: reader.location)
        unit.isRecallSafe = typed.bool("recall_safe", default: false)
        if isEQ || isFeedback { (unit.curve, unit.bands) = EQDecoder.decode(typed) }
        if isDelay { DelayDecoder.decode(typed, parameters: &unit.parameters) }
        if isLV2 {
            guard let (plugin, controls) = LV2UnitDecoder.decode(typed, plugins: plugins) else { return nil }
            (unit.lv2, unit.parameters) = (plugin, controls)
        }
        return (unit, id != nil)
    }
}
