// Which JACK ports a preset switch adds and removes, for its report and its new connections. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackEngine

/// Which ports a switch added and removed, by short name.
package struct PortChange {
    package var added: Set<String>
    package var removed: Set<String>

    package init(from old: GraphLayout, to new: GraphLayout) {
        let oldNames = Set((old.inputPorts + old.outputPorts).map(\.name))
        let newNames = Set((new.inputPorts + new.outputPorts).map(\.name))
        added = newNames.subtracting(oldNames)
        removed = oldNames.subtracting(newNames)
    }

    /// "ports added: a b", "ports removed: c" (only the non-empty ones).
    package var descriptions: [String] {
        var parts: [String] = []
        if !added.isEmpty { parts.append("ports added: " + added.sorted().joined(separator: " ")) }
        if !removed.isEmpty { parts.append("ports removed: " + removed.sorted().joined(separator: " ")) }
        return parts
    }
}
