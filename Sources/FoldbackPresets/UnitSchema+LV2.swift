// The `lv2` unit type: an installed LV2 plugin, its keys checked against the plugin itself. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

extension UnitSchema {
    /// `"lv2"`: an installed LV2 plugin. Its keys (`uri`, `controls`, `preset`, `state`, `inputs`,
    /// `outputs`) are read by ``LV2UnitDecoder``; its parameters are the plugin's control inputs.
    public static let lv2 = UnitSchema(
        type: "lv2",
        summary: "An installed LV2 plugin (uri = \"…\"); its control inputs, by symbol, are its parameters.",
        parameters: []
    )
}
