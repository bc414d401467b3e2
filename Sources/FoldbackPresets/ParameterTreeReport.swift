// The listing `foldback check PRESET --parameters` prints: every parameter of the tree with its range, default and unit. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine

/// Lines describing a ``ParameterTree``, one per parameter, in show order.
public enum ParameterTreeReport {
    /// `Parameters (N) …` then `  strip/vox/gain_db   -inf … 24 dB   default -2   db   smoothed   engineer, musician of iem` lines;
    /// a host-side node (a file source's tempo and key, an input switch) says `host` where others say `smoothed`.
    public static func render(_ tree: ParameterTree) -> String {
        let rows = tree.nodes.map { node -> [String] in
            let descriptor = node.descriptor
            let range: String
            switch descriptor.type {
            case .toggle: range = "off/on"
            case .trigger: range = "press"
            case .choice: range = descriptor.choices.map(\.name).joined(separator: "|")
            case .number, .integer:
                range = "\(NumberFormatting.plain(descriptor.range.lowerBound)) … \(NumberFormatting.plain(descriptor.range.upperBound))"
                    + (descriptor.unit.isEmpty ? "" : " \(descriptor.unit)")
            }
            let value = descriptor.choices.first { $0.value == node.presetValue }?.name ?? NumberFormatting.plain(node.presetValue)
            let who = node.musicianBus.map { "engineer, musician of \($0)" } ?? "engineer"
            return [node.path, range, "default \(value)", descriptor.type.rawValue, descriptor.curve.rawValue,
                    node.isHostSide ? "host" : descriptor.isSmoothed ? "smoothed" : "stepped", who]
        }
        let widths = (0..<7).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = "Parameters  (\(tree.nodes.count); OSC /foldback/<path>, MIDI target = the path with dots; host: applied off the engine's queue)\n"
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }
            text += "  " + cells.joined(separator: "  ") + "\n"
        }
        return text
    }
}
