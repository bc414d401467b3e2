// The running session as a preset: parameter values set live and the connections its ports have now. Non-realtime.
import FoldbackEngine
import FoldbackControl
import FoldbackPresets

extension LiveSession {
    /// `base` (the session's preset, with any MIDI-learned mappings) with every value set since the graph
    /// was installed and, for each port, the JACK ports connected to it now: what a session save writes.
    /// Also returns the changed parameters the preset has no place for (EQ band parameters), for a warning.
    func snapshot(base: Preset) -> (preset: Preset, skipped: [ParameterAddress]) {
        guard let graph = engine.graph else { return (base, []) }
        var (preset, skipped) = base.applying(engine.changedValues, graph: graph)
        for index in preset.strips.indices {
            let strip = preset.strips[index]
            preset.strips[index].connections = currentConnections(PortNaming.inputPortNames(strip: strip.name, channels: strip.channels))
        }
        for index in preset.buses.indices {
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
    /// Writes the running chain to `path` (OSC `/foldback/preset/save`): ``snapshot(base:)`` of the preset
    /// playing now, with each LV2 plugin's state saved in `<path without .toml>.plugin-state/`.
    func saveChain(toPath path: String) throws(ControlError) -> String {
        var (preset, skipped) = snapshot(base: state.preset)
        let directory = (path.hasSuffix(".toml") ? String(path.dropLast(5)) : path) + ".plugin-state"
        let warnings = engine.graph.map { PluginStateCapture.saveStates(of: $0, into: &preset, directory: directory) } ?? []
        do {
            try PresetWriter.write(preset, to: path)
        } catch {
            throw .failed("cannot write \(path): \(error)")
        }
        var report = "wrote the running chain to \(path)"
        if !skipped.isEmpty { report += "; \(skipped.count) changed value(s) have no preset key and were left out" }
        if !warnings.isEmpty { report += "; plugin state not saved: " + warnings.joined(separator: ", ") }
        return report
    }
}
