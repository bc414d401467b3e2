// Writes an `lv2` unit's plugin, preset, state file, port mapping and control values for PresetWriter. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// An `lv2` unit's keys: `uri`, then `preset`, `state`, `state_right`, `inputs`/`outputs` when set, then every control
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
