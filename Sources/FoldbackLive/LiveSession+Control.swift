// Preset switching for a live session: load and build off the audio thread, crossfade, update ports, report. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackAnalysis
package import FoldbackControl
package import FoldbackEngine
import FoldbackJACK
package import FoldbackPresets
import FoldbackGraph
import Foundation

extension LiveSession: LiveControlTarget {
    /// Every bus's latest loudness and in-ear dose.
    package func busLoudness() -> [BusLoudness] { loudness.snapshot() }

    /// The equal-power crossfade between presets (within the issue's 50 ms bound).
    package static let switchCrossfade = Crossfade(duration: 0.030, law: .equalPower)

    package var currentPreset: Preset { state.preset }

    package var liveTempo: ShowTempo? { showTempo }

    package var lastRecall: RecallReport? { state.recall.lastReport }

    /// Loads `path`, builds its graph at the server's format, crossfades to it and makes the JACK ports
    /// match: ports whose names persist keep their connections, new ones are registered (and connected
    /// as the preset lists, unless `--no-connect`), vanished ones removed. LV2 plugins the new preset has
    /// in the same place with the same setup keep running (tails and state carry on; see
    /// ``PresetGraphBuilder/graph(for:sampleRate:maxFrames:hosting:continuing:)``); `recall_safe` buses keep
    /// their running sends, level and mute; every live move the new file does not change survives (``RecallScope``).
    /// Returns what changed, and what was recalled and kept.
    package func switchPreset(toPath path: String) throws(ControlError) -> String {
        try switchPreset(toPath: path, tempo: nil)
    }

    /// ``switchPreset(toPath:)`` with every echo of the new preset at `tempo` BPM when it is given.
    package func switchPreset(toPath path: String, tempo: Float?) throws(ControlError) -> String {
        state.switching.lock()
        defer { state.switching.unlock() }
        if let tempo { _ = showTempo.offer(Double(tempo), from: .setlist) }   // the song's bpm, if the tempo source takes it
        let loaded: Preset
        do {
            loaded = try state.files.load(path: path).settingTempo(showTempo.bpm.map(Float.init))   // one tempo per show
        } catch {
            throw Self.rejection(error, path: path)
        }
        let (preset, recall) = state.recall.carry(into: loaded, from: self)   // live moves and musicians' own mixes survive the switch
        let sources = transport.fileSources
        var sourcesBefore: FilePlayers.Selection?   // the song's own source files, opened here, off the audio thread
        do {
            sourcesBefore = try sources?.select(preset)
        } catch {
            throw .presetRejected("\(error)\n\(path): a source file cannot be read; the current preset keeps playing")
        }
        var switched = false
        defer {
            if !switched, let sources, let sourcesBefore {   // back to the song playing; close what the failed one opened
                sources.restore(sourcesBefore)
                sources.retireUnused()
            }
        }
        var graph = try build(preset, path: path, continuing: engine.runningGraph)
        let before = host.layout
        var failure = install(graph)
        if failure == .predecessorNotRunning {   // the running graph changed meanwhile: start its plugins afresh
            graph = try build(preset, path: path, continuing: nil)
            failure = install(graph)
        }
        if let failure { throw .presetRejected("\(path): \(failure); the current preset keeps playing") }
        switched = true
        state.preset = preset
        state.recall.commit(loaded: loaded, report: recall)
        startSongSources(of: preset)
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
        sources?.retireUnused()   // the previous graph is retired: players no song plays now stop reading ahead
        let title = preset.name.map { "'\($0)'" } ?? path
        let kept = graph.continuedUnits.isEmpty ? [] : ["kept running: " + graph.continuedUnits.map { "\($0.strip)/\($0.unit)" }.joined(separator: ", ")]
        return (["switched to \(title)", recall.summary] + kept + change.descriptions + warnings.map { "warning: \($0)" }).joined(separator: "; ")
    }

    /// `preset`'s graph at the server's format, continuing `predecessor`'s plugins where it can, with the
    /// running recording and file sources attached.
    private func build(_ preset: Preset, path: String, continuing predecessor: EngineGraph?) throws(ControlError) -> EngineGraph {
        let graph: EngineGraph
        do {
            graph = try Self.graph(
                for: preset, sampleRate: host.sampleRate, period: host.bufferSize, priority: host.realtimePriority, continuing: predecessor,
                loudness: loudness)
        } catch {
            throw Self.rejection(error, path: path)
        }
        do {
            try prepareGraph(graph)
        } catch {
            throw .presetRejected("\(path): the running recording or file sources need it: \(error); the current preset keeps playing")
        }
        return graph
    }

    /// Installs `graph` with the switch crossfade; the error if it was refused.
    private func install(_ graph: EngineGraph) -> EngineError? {
        do {
            try engine.install(graph, crossfade: Self.switchCrossfade)
            return nil
        } catch {
            return error
        }
    }

    private static func rejection(_ error: PresetError, path: String) -> ControlError {
        let count = error.errors.count
        return .presetRejected(error.description + "\n\(path) has \(count) \(count == 1 ? "error" : "errors"); the current preset keeps playing")
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
    package func setTransport(recorder: Bool, on: Bool) throws(ControlError) -> String {
        let report = recorder ? transport.record(on) : transport.play(on)
        guard let report else {
            throw .failed(recorder ? "not recording: start foldback run with --record DIR" : "no strip plays a file")
        }
        return report
    }
}

extension LiveSession {
    /// The take playing (`--soundcheck`), for the web page.
    package var soundcheckStatus: SoundcheckStatus? { transport.soundcheckState }

    /// OSC's `/foldback/soundcheck/...`.
    package func soundcheck(_ command: SoundcheckCommand) throws(ControlError) -> String {
        guard let report = try transport.soundcheck(command) else { throw .failed(HostParameter.noTakeMessage) }
        return report
    }
}
