// Formats LV2 plugins for a preset author: `foldback plugins`' list and `foldback plugin`'s description. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackLV2
import FoldbackPresets
import Foundation

/// The text `foldback plugins` and `foldback plugin URI` print.
public enum PluginReport {
    /// A header and one line per plugin: URI, audio inputs and outputs, class and name.
    public static func listing(_ plugins: [LV2PluginSummary]) -> String {
        let width = plugins.map(\.uri.count).max() ?? 0
        var lines = ["URI".padding(toLength: width, withPad: " ", startingAt: 0) + "  in out  class / name"]
        for plugin in plugins {
            let ports = String(repeating: " ", count: max(0, 3 - "\(plugin.audioInputs)".count)) + "\(plugin.audioInputs)"
                + String(repeating: " ", count: max(1, 4 - "\(plugin.audioOutputs)".count)) + "\(plugin.audioOutputs)"
            lines.append(plugin.uri.padding(toLength: width, withPad: " ", startingAt: 0) + " " + ports + "  \(plugin.className): \(plugin.name)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Name, class, features, latency, ports and presets of `info`.
    public static func text(for info: LV2PluginInfo) -> String {
        var lines = [
            info.name,
            "  URI:       \(info.uri)",
            "  class:     \(info.summary.className)",
            "  audio:     \(info.audioInputs.count) in, \(info.audioOutputs.count) out",
            "  bundle:    \(info.bundle)",
            "  latency:   " + latency(of: info),
            "  realtime:  " + (info.isHardRTCapable ? "hard-realtime capable" : "not declared hard-realtime capable"),
            "  requires:  " + (info.requiredFeatures.isEmpty ? "nothing" : info.requiredFeatures.joined(separator: ", ")),
            "  optional:  " + (info.optionalFeatures.isEmpty ? "nothing" : info.optionalFeatures.joined(separator: ", ")),
            "",
            "ports:",
        ]
        for port in info.ports { lines.append("  " + describe(port)) }
        lines.append("")
        lines.append(info.presets.isEmpty ? "presets: none" : "presets:")
        for preset in info.presets { lines.append("  \(preset.label)  <\(preset.uri)>") }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func latency(of info: LV2PluginInfo) -> String {
        guard let index = info.latencyPortIndex else { return "none" }
        return "reported by port \(index) (\(info.ports[index].symbol))"
    }

    private static func describe(_ port: LV2PortInfo) -> String {
        let index = "\(port.index)".padding(toLength: 3, withPad: " ", startingAt: 0)
        let kind = port.kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
        var text: String = index + (port.isInput ? "in  " : "out ") + kind + port.symbol
        if port.kind == .control {
            if let range = port.range {
                text += "  \(NumberFormatting.plain(range.lowerBound))…\(NumberFormatting.plain(range.upperBound))"
            }
            if let value = port.defaultValue, port.isInput { text += "  default \(NumberFormatting.plain(value))" }
            if let unit = port.unit { text += " \(unit)" }
            if port.isToggled { text += "  toggle" }
            if port.isEnabledDesignation { text += "  (plugin bypass)" }
        }
        return text + "  \"\(port.name)\""
    }
}
