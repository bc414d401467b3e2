// OSC `/foldback/strip/<strip>/unit/<id>/save` and `/foldback/bus/<bus>/unit/<id>/save`: a feedback unit's ring-out written into the preset. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackPresets

extension ControlRouter {
    /// Whether `parts` (the address after `/foldback/`) is `strip/<strip>/unit/<id>/save` or `bus/<bus>/unit/<id>/save`.
    static func isUnitSave(_ parts: [Substring]) -> Bool {
        parts.count == 5 && (parts[0] == "strip" || parts[0] == "bus") && parts[2] == "unit" && parts[4] == "save"
    }

    /// Saves the running chain (as `/foldback/preset/save` does: over the current preset's file, or the allowed
    /// `file` given), which writes the `feedback` unit `<id>`'s ring-out notches as its bands; replies
    /// `/foldback/<kind>/<owner>/unit/<id>/saved s file s report`, where `kind` is `strip` or `bus`.
    func unitSave(_ message: OSCMessage, kind: Substring, owner: String, unit id: String, surface: ControlSurface) throws(ControlError) -> [OSCMessage] {
        let preset = target.currentPreset
        let isBus = kind == "bus"
        let owners: [(name: String, units: [UnitSpec])] = isBus ? preset.buses.map { ($0.name, $0.units) } : preset.strips.map { ($0.name, $0.units) }
        let noun = isBus ? "bus" : "strip"
        guard let units = owners.first(where: { $0.name == owner })?.units else {
            throw .unknownAddress("no \(noun) named '\(owner)'; \(noun == "bus" ? "buses" : "strips"): \(owners.map(\.name).joined(separator: ", "))")
        }
        guard let unit = units.first(where: { $0.id == id }) else {
            throw .unknownAddress("\(noun) '\(owner)' has no unit '\(id)'; units: \(units.map(\.id).joined(separator: ", "))")
        }
        guard unit.type == UnitSchema.feedback.type else {
            throw .failed("only a feedback unit saves itself ('\(id)' is a '\(unit.type)'); /foldback/preset/save saves the whole chain")
        }
        let path = try saveTarget(message, defaultPath: preset.path)
        let report = try target.saveChain(toPath: path)
        note("\(message.path): \(report)", from: surface)
        return [OSCMessage("\(Self.root)/\(noun)/\(owner)/unit/\(id)/saved", [.string(path), .string(report)])]
    }
}
