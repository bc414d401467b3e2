// Preset switching for a live session: load and build off the audio thread, crossfade, update ports, report. Non-realtime.
import FoldbackControl
import FoldbackEngine
import FoldbackJACK
import FoldbackPresets
import Foundation

extension LiveSession: LiveControlTarget {
    /// The equal-power crossfade between presets (within the issue's 50 ms bound).
    static let switchCrossfade = Crossfade(duration: 0.030, law: .equalPower)

    var currentPreset: Preset { state.preset }

    /// Loads `path`, builds its graph at the server's format, crossfades to it and makes the JACK ports
    /// match: ports whose names persist keep their connections, new ones are registered (and connected
    /// as the preset lists, unless `--no-connect`), vanished ones removed. Returns what changed.
    func switchPreset(toPath path: String) throws(ControlError) -> String {
        state.switching.lock()
        defer { state.switching.unlock() }
        let preset: Preset
        let graph: EngineGraph
        do {
            preset = try PresetLoader.load(path: path)
            graph = try Self.graph(for: preset, sampleRate: host.sampleRate, period: host.bufferSize)
        } catch {
            let count = error.errors.count
            throw .presetRejected(error.description + "\n\(path) has \(count) \(count == 1 ? "error" : "errors"); the current preset keeps playing")
        }
        do {
            try prepareGraph(graph)
        } catch {
            throw .presetRejected("\(path): the running recording or file sources need it: \(error); the current preset keeps playing")
        }
        let before = host.layout
        do {
            try engine.install(graph, crossfade: Self.switchCrossfade)
        } catch {
            throw .presetRejected("\(path): \(error); the current preset keeps playing")
        }
        state.preset = preset
        state.period = host.bufferSize
        for observer in onPresetSwitched { observer(preset) }
        do {
            try host.updatePorts(for: graph.layout)
        } catch {
            throw .failed("\(path) is playing, but its JACK ports could not be updated: \(error)")
        }
        let change = PortChange(from: before, to: graph.layout)
        var warnings: [JACKConnectionWarning] = []
        if state.makesConnections {
            let plan = PresetGraphBuilder.connectionPlan(for: preset).filter { change.added.contains($0.key) }
            warnings = host.connect(plan)
        }
        waitForFadeToFinish()
        let title = preset.name.map { "'\($0)'" } ?? path
        return (["switched to \(title)"] + change.descriptions + warnings.map { "warning: \($0)" }).joined(separator: "; ")
    }

    /// Waits (up to 1 s) until the audio thread has retired the previous graph, so a burst of switches
    /// never overfills the engine's swap queue.
    private func waitForFadeToFinish() {
        let deadline = Date().addingTimeInterval(1)
        while Date() < deadline && host.shutdown == nil {
            engine.collectGarbage()
            if engine.liveGraphCount <= 1 { return }
            Thread.sleep(forTimeInterval: 0.002)
        }
    }
}

extension LiveSession {
    /// OSC's `/foldback/record/start|stop` and `/foldback/player/start|stop`.
    func setTransport(recorder: Bool, on: Bool) throws(ControlError) -> String {
        let report = recorder ? transport.record(on) : transport.play(on)
        guard let report else {
            throw .failed(recorder ? "not recording: start foldback run with --record DIR" : "no strip plays a file")
        }
        return report
    }
}
