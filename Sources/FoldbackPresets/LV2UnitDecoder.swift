// Reads and checks an `lv2` unit table against the installed plugin: URI, controls, preset, state file, port mapping. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import Glibc

/// Checks an `[[strip.unit]]` table of type `lv2` against the plugin the catalogue has for its URI.
enum LV2UnitDecoder {
    /// The keys an `lv2` unit takes besides the common ones.
    static let unitKeys = ["uri", "controls", "preset", "state", "state_right", "inputs", "outputs", "isolation", "on_fault"]

    /// The plugin's part of the spec and its control values by symbol; nil when the URI is missing or unknown (reported).
    static func decode(_ reader: TableReader, plugins: any PluginCatalog) -> (LV2UnitSpec, [String: Float])? {
        guard let uri = reader.requiredString("uri") else { return nil }
        let info: PluginDescription
        do {
            info = try plugins.plugin(uri: uri)
        } catch {
            reader.log.error(error.description, at: reader.valueLocation("uri"))
            return nil
        }
        var spec = LV2UnitSpec(uri: uri, declaredParameters: info.controls)
        if let reason = info.unsupportedReason { reader.log.error(reason, at: reader.valueLocation("uri")) }
        if let preset = reader.string("preset") {
            if info.preset(named: preset) == nil {
                let message = PluginDescription.unknownPresetMessage(uri: uri, preset: preset, available: info.presets.map(\.label))
                reader.log.error(message, at: reader.valueLocation("preset"))
            } else {
                spec.preset = preset
            }
        }
        spec.stateFile = stateFile(reader, "state")
        spec.rightStateFile = stateFile(reader, "state_right")
        spec.inputs = symbols(reader, "inputs", among: info.audioInputs)
        spec.outputs = symbols(reader, "outputs", among: info.audioOutputs)
        spec.isolation = reader.keyword("isolation", as: PluginIsolation.self)
        spec.onFault = reader.keyword("on_fault", as: PluginFaultAction.self)
        return (spec, controls(reader, info: info))
    }

    /// The readable state file `key` names (resolved against the preset's directory), or nil (an unreadable one is reported).
    private static func stateFile(_ reader: TableReader, _ key: String) -> String? {
        guard let state = reader.string(key) else { return nil }
        let path = resolve(state, against: reader.location.file)
        guard access(path, R_OK) == 0 else {
            reader.log.error("state file '\(state)' cannot be read (looked for \(path))", at: reader.valueLocation(key))
            return nil
        }
        return path
    }

    /// `controls = { symbol = value }`, each checked against the plugin's control inputs and ranges.
    private static func controls(_ reader: TableReader, info: PluginDescription) -> [String: Float] {
        guard let table = reader.subtable("controls", label: "controls of \(info.uri)") else { return [:] }
        let symbols = info.controls.map(\.key)
        var values: [String: Float] = [:]
        for symbol in table.table.keys.sorted() {
            guard let port = info.controls.first(where: { $0.key == symbol }) else {
                let hint = Suggestion.closest(to: symbol, in: symbols).map { "did you mean '\($0)'? " } ?? ""
                reader.log.error("\(info.name) has no control input '\(symbol)'; \(hint)its controls: \(symbols.joined(separator: ", "))",
                                 at: table.keyLocation(symbol))
                continue
            }
            let value = table.number(symbol, in: port.range, default: .nan)
            if !value.isNaN { values[symbol] = value }
        }
        return values
    }

    /// `inputs = ["in_l", "in_r"]`: audio port symbols, each checked against the plugin's.
    private static func symbols(_ reader: TableReader, _ key: String, among valid: [String]) -> [String]? {
        guard let value = reader.table[key] else { return nil }
        guard let array = value.array, (0..<array.count).allSatisfy({ array[$0].string != nil }) else {
            reader.reportType(key, expected: "an array of port symbols (\(valid.joined(separator: ", ")))", found: value)
            return nil
        }
        let chosen = (0..<array.count).compactMap { array[$0].string }
        for symbol in chosen where !valid.contains(symbol) {
            reader.log.error("'\(key)': '\(symbol)' is not an audio \(key == "inputs" ? "input" : "output") of the plugin; "
                + "its audio \(key): \(valid.joined(separator: ", "))", at: reader.valueLocation(key))
        }
        return chosen
    }

    /// `uri=<…> preset="…"` and the other plugin keys, for `foldback check`.
    static func reportFields(_ plugin: LV2UnitSpec) -> [String] {
        var fields = ["uri=<\(plugin.uri)>"]
        if let preset = plugin.preset { fields.append("preset=\"\(preset)\"") }
        if let state = plugin.stateFile { fields.append("state=\"\(state)\"") }
        if let state = plugin.rightStateFile { fields.append("state_right=\"\(state)\"") }
        if let inputs = plugin.inputs { fields.append("inputs=\(inputs.joined(separator: ","))") }
        if let outputs = plugin.outputs { fields.append("outputs=\(outputs.joined(separator: ","))") }
        // Where it runs live (`foldback render` runs an unset one in its own process).
        let isolation = PluginIsolation.resolved(plugin.isolation, offline: false)
        if isolation.isSandboxed {
            fields.append("isolation=\(isolation.rawValue) on_fault=\((plugin.onFault ?? .bypass).rawValue)")
        }
        return fields
    }

    /// `path` as written, or relative to the directory of `presetFile`.
    private static func resolve(_ path: String, against presetFile: String) -> String {
        guard !path.hasPrefix("/"), let slash = presetFile.lastIndex(of: "/") else { return path }
        return String(presetFile[...slash]) + path
    }
}
