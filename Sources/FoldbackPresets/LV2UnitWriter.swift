// Writes an `lv2` unit's plugin, preset, state file, port mapping and control values for PresetWriter. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// An `lv2` unit's keys: `uri`, then `preset`, `state`, `state_right`, `inputs`/`outputs`, `isolation`, `on_fault` when set, then every control
/// value the preset holds as `controls = { symbol = value, … }` (symbols in order, so output is stable).
enum LV2UnitWriter {
    static func write(_ unit: UnitSpec, into text: inout TOMLText) {
        guard let plugin = unit.lv2 else { return }
        text.key("uri", string: plugin.uri)
        text.key("preset", string: plugin.preset)
        text.key("state", string: plugin.stateFile)
        text.key("state_right", string: plugin.rightStateFile)
        if let inputs = plugin.inputs { text.raw("inputs", list(inputs)) }
        if let outputs = plugin.outputs { text.raw("outputs", list(outputs)) }
        // Each unit's isolation as the preset set it (on the unit or in [preset], which is not kept), so a saved preset runs
        // its plugins where they ran; unset stays unset.
        if let isolation = plugin.isolation { text.key("isolation", string: isolation.rawValue) }
        if plugin.onFault == .mute { text.key("on_fault", string: PluginFaultAction.mute.rawValue) }
        guard !unit.parameters.isEmpty else { return }
        let entries = unit.parameters.keys.sorted().map { symbol in
            "\(TOMLPath.isBare(symbol) ? symbol : TOMLText.quoted(symbol)) = \(NumberFormatting.plain(unit.parameters[symbol] ?? 0))"
        }
        text.raw("controls", "{ " + entries.joined(separator: ", ") + " }")
    }

    private static func list(_ symbols: [String]) -> String {
        "[" + symbols.map(TOMLText.quoted).joined(separator: ", ") + "]"
    }
}
