// The running session as a preset: parameter values set live and the connections its ports have now. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackEngine
package import FoldbackControl
package import FoldbackPresets
import FoldbackGraph

extension LiveSession {
    /// `base` (the session's preset, with any MIDI-learned mappings) with every value set since the graph
    /// was installed and, for each port, the JACK ports connected to it now: what a session save writes.
    /// Also returns the changed parameters the preset has no place for (EQ band parameters), for a warning.
    package func snapshot(base: Preset) -> (preset: Preset, skipped: [ParameterAddress]) {
        guard let graph = engine.graph else { return (base, []) }
        var (preset, skipped) = base.applying(engine.changedValues, graph: graph)
        for index in preset.strips.indices where preset.strips[index].hasInputPorts {
            let strip = preset.strips[index]
            preset.strips[index].connections = currentConnections(PortNaming.inputPortNames(strip: strip.name, channels: strip.channels))
        }
        for index in preset.buses.indices where preset.buses[index].hasOutput {
            let bus = preset.buses[index]
            preset.buses[index].connections = currentConnections(PortNaming.outputPortNames(bus: bus.name, channels: bus.channels))
        }
        return (preset, skipped)
    }

    /// For each of this client's ports (short names), the full names of the ports connected to it, sorted.
    private func currentConnections(_ ports: [String]) -> [[String]] {
        ports.map { port in
            guard let fullName = host.fullName(ofPort: port) else { return [] }
            return host.client.connections(ofPort: fullName).sorted()
        }
    }
}

extension LiveSession {
    /// What ``writeChain(to:base:)`` could not put in the file.
    package struct ChainOmissions {
        /// Changed values the preset has no key for (EQ band parameters).
        var skipped: [ParameterAddress]
        /// Plugins whose state could not be saved, with why.
        var pluginWarnings: [String]
    }

    /// Writes the running chain to `path`: ``snapshot(base:)`` of `base`, with each LV2 plugin's state
    /// saved in `<path without .toml>.plugin-state/` and each ring-out's notches as its feedback unit's bands. Used by OSC's preset save and by NSM's save.
    package func writeChain(to path: String, base: Preset) throws(PresetError) -> ChainOmissions {
        var (preset, skipped) = snapshot(base: base)
        let directory = (path.hasSuffix(".toml") ? String(path.dropLast(5)) : path) + ".plugin-state"
        let warnings = engine.graph.map { PluginStateCapture.saveStates(of: $0, into: &preset, directory: directory) } ?? []
        if let graph = engine.graph { FeedbackNotchCapture.saveNotches(of: graph, into: &preset) }
        try PresetWriter.write(preset, to: path)
        return ChainOmissions(skipped: skipped, pluginWarnings: warnings)
    }

    /// OSC `/foldback/preset/save`: ``writeChain(to:base:)`` of the preset playing now, with a report.
    package func saveChain(toPath path: String) throws(ControlError) -> String {
        let omissions: ChainOmissions
        do {
            omissions = try writeChain(to: path, base: state.preset)
        } catch {
            throw .failed("cannot write \(path): \(error)")
        }
        var report = "wrote the running chain to \(path)"
        if !omissions.skipped.isEmpty { report += "; \(omissions.skipped.count) changed value(s) have no preset key and were left out" }
        if !omissions.pluginWarnings.isEmpty { report += "; plugin state not saved: " + omissions.pluginWarnings.joined(separator: ", ") }
        return report
    }
}
