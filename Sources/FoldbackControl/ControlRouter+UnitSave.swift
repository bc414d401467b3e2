// OSC `/foldback/strip/<strip>/unit/<id>/save`: a feedback unit's ring-out written into the preset. Non-realtime.
import FoldbackPresets

extension ControlRouter {
    /// Whether `parts` (the address after `/foldback/`) is `strip/<strip>/unit/<id>/save`.
    static func isUnitSave(_ parts: [Substring]) -> Bool {
        parts.count == 5 && parts[0] == "strip" && parts[2] == "unit" && parts[4] == "save"
    }

    /// Saves the running chain (as `/foldback/preset/save` does: over the current preset's file, or the allowed
    /// `file` given), which writes the `feedback` unit `<id>`'s ring-out notches as its bands; replies
    /// `/foldback/strip/<strip>/unit/<id>/saved s file s report`.
    func unitSave(_ message: OSCMessage, strip: String, unit id: String) throws(ControlError) -> [OSCMessage] {
        let preset = target.currentPreset
        guard let stripSpec = preset.strips.first(where: { $0.name == strip }) else {
            throw .unknownAddress("no strip named '\(strip)'; strips: \(preset.strips.map(\.name).joined(separator: ", "))")
        }
        guard let unit = stripSpec.units.first(where: { $0.id == id }) else {
            throw .unknownAddress("strip '\(strip)' has no unit '\(id)'; units: \(stripSpec.units.map(\.id).joined(separator: ", "))")
        }
        guard unit.type == UnitSchema.feedback.type else {
            throw .failed("only a feedback unit saves itself ('\(id)' is a '\(unit.type)'); /foldback/preset/save saves the whole chain")
        }
        let path = try saveTarget(message, defaultPath: preset.path)
        let report = try target.saveChain(toPath: path)
        log("\(message.path): \(report)")
        return [OSCMessage("\(Self.root)/strip/\(strip)/unit/\(id)/saved", [.string(path), .string(report)])]
    }
}
