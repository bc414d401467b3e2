// Loading a preset whose `lv2` units are checked against the LV2 plugins installed here (lilv). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackPresets
import FoldbackLV2

extension PresetLoader {
    /// Reads and validates the preset file at `path`, its `lv2` units checked against the installed plugins.
    /// - Throws: ``PresetError`` if the file cannot be read or the preset is invalid.
    public static func load(path: String) throws(PresetError) -> Preset {
        try load(path: path, plugins: .installed)
    }

    /// Validates preset text, its `lv2` units checked against the installed plugins; `path` names the file in diagnostics.
    /// - Throws: ``PresetError`` listing every problem found.
    public static func parse(_ text: String, path: String) throws(PresetError) -> Preset {
        try parse(text, path: path, plugins: .installed)
    }
}
