// A running preset: the engine, its JACK host, graph rebuilds on format changes, and the main loop. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import Foundation
import Synchronization
package import FoldbackAnalysis
package import FoldbackControl
package import FoldbackEngine
package import FoldbackJACK
package import FoldbackPresets
import FoldbackGraph

/// One preset hosted live on a JACK server.
package final class LiveSession: @unchecked Sendable {
    /// The preset playing now (preset switches replace it).
    package var preset: Preset { state.preset }
    package let state: LivePresetState
    package let engine: Engine
    package let host: JACKHost
    package let serverName: String?
    /// Loudness of every bus and the ear dose of in-ear buses, from analysis taps on every graph.
    package let loudness: BusLoudnessMonitor
    /// The engineer's spectrum analyser, its tap attached to every graph (never nil for a live session).
    package let analyser: SpectrumMonitor?
    /// Work the main loop does every tick (100 ms), e.g. run-time record and player toggles.
    package var tickHandlers: [() -> Void] = []
    /// Extra status-line parts (recording, file players); nil for nothing to show.
    package var statusParts: [() -> String?] = []
    /// The setlist's position (`song 2/5 'name'`) for the status line; nil without a setlist.
    package var songText: (() -> String?)?
    /// Called with the new preset after each preset switch (e.g. the MIDI controller adopts its map).
    package var onPresetSwitched: [@Sendable (Preset) -> Void] = []
    /// Start/stop of the record tap and file players (signals and OSC).
    package let transport = LiveTransport()
    /// The show tempo (`tempo/bpm`, `tempo/source`): every echo follows it, whichever preset plays.
    package let showTempo: ShowTempo
    /// Attaches record taps and file sources to a graph before it is installed.
    package let prepareGraph: @Sendable (EngineGraph) throws -> Void
    private let stopRequest = Mutex(false)

    /// The longest chunk the engine renders at once; JACK periods longer than this are split.
    package static let engineChunkFrames = 4096
    /// JACK input ports a live session can carry at least (a large show has 96 to 128 inputs); a larger
    /// starting preset (or a larger song of the setlist, passed as `alsoFitting`) sizes the engine to itself.
    /// Presets switched to later must fit.
    package static let inputChannelCapacity = 256
    /// JACK output ports a live session can carry at least.
    package static let outputChannelCapacity = 128

    /// Opens the JACK client, builds the graph at the server's format, and activates.
    /// `prepare` runs on every graph built (at start, on format changes and preset switches) before it is
    /// installed: it attaches record taps and file sources. `renderThreads` threads share each cycle (the
    /// process callback's and workers JACK creates; check the count with ``RenderThreads/problem(with:)``).
    package init(
        preset: Preset, clientName: String, serverName: String?,
        prepare: @escaping @Sendable (EngineGraph) throws -> Void = { _ in }, showSeconds: Double = 2 * 3600,
        renderThreads: Int = 1, alsoFitting others: [Preset] = []
    ) throws {
        let state = LivePresetState(preset)
        self.state = state
        showTempo = ShowTempo(bpm: preset.echoTempo.map(Double.init))
        let loudness = BusLoudnessMonitor(showSeconds: showSeconds) { StandardError.writeLine("foldback: \($0)") }
        self.loudness = loudness
        let analyser = SpectrumMonitor()
        self.analyser = analyser
        let prepareWithTap: @Sendable (EngineGraph) throws -> Void = { graph in   // every graph carries the analyser's tap
            analyser.attach(to: graph)
            try prepare(graph)
        }
        self.prepareGraph = prepareWithTap
        self.serverName = serverName
        let layout = try PresetGraphBuilder.layout(for: preset)
        let layouts = [layout] + others.compactMap { try? PresetGraphBuilder.layout(for: $0) }
        var configuration = EngineConfiguration(
            maxFrames: Self.engineChunkFrames,
            inputCapacity: max(Self.inputChannelCapacity, layouts.map { ($0.inputPorts.map(\.channel).max() ?? -1) + 1 }.max() ?? 0),
            outputCapacity: max(Self.outputChannelCapacity, layouts.map { ($0.outputPorts.map(\.channel).max() ?? -1) + 1 }.max() ?? 0),
            renderThreads: renderThreads)
        configuration.buildsBinauralMovesOnWorker = true   // live: a move's filter building stays off the audio thread
        engine = Engine(configuration: configuration)
        let engine = engine
        host = try JACKHost(
            engine: engine, layout: layout, clientName: clientName, serverName: serverName,
            onFormatChange: { sampleRate, bufferSize in
                // JACK's notification thread. A new period needs no rebuild for built-in units: graphs are
                // prepared for the engine's chunk and the engine splits longer cycles. A new rate, or a new
                // period when LV2 plugins (told the period as their nominal block length) are hosted,
                // re-prepares the units off the audio thread and crossfades to them.
                let periodChanged = state.dependsOnPeriod && bufferSize != state.period
                guard sampleRate != engine.graph?.sampleRate || periodChanged else { return }
                do {
                    try state.switching.withLock {   // never interleaved with a preset switch
                        let graph = try Self.graph(for: state.preset, sampleRate: sampleRate, period: bufferSize, loudness: loudness)
                        state.period = bufferSize
                        try prepareWithTap(graph)
                        let liveValues = engine.changedValues   // set over OSC/MIDI: carried to the new graph
                        try engine.install(graph)
                        for (address, value) in liveValues { try? engine.set(address, to: value) }
                    }
                } catch {
                    FileHandle.standardError.write(Data("foldback: could not re-prepare for \(sampleRate) Hz / \(bufferSize) frames: \(error)\n".utf8))
                }
            })
        let graph = try Self.graph(
            for: preset, sampleRate: host.sampleRate, period: host.bufferSize, priority: host.realtimePriority, loudness: loudness)
        state.period = host.bufferSize
        try prepareWithTap(graph)
        try engine.install(graph, crossfade: .none)
        try host.updatePorts(for: graph.layout)
        try host.activate()
        host.startWatchdog(onStuck: StuckCycleExit.handler(engine: engine))
        engine.setHostApplier(self)   // file sources' tempo and key, the take's input switches (LiveSession+Source.swift)
    }

    /// The preset's graph prepared for the server's rate and the engine's chunk, so any JACK period
    /// (32 to 4096 and beyond: longer periods are split) runs it; LV2 plugins are told `period` as
    /// their nominal block length. Plugins of `predecessor` (the running graph) continue where they can;
    /// a new rate or period never continues them (they re-instantiate). Every bus gets its analysis tap
    /// from `loudness`. Sandboxed plugins' threads run at SCHED_FIFO `priority` (the JACK client's), if given.
    package static func graph(
        for preset: Preset, sampleRate: Double, period: Int, priority: Int32? = nil, continuing predecessor: EngineGraph? = nil,
        loudness: BusLoudnessMonitor
    ) throws(PresetError) -> EngineGraph {
        let graph = try PresetGraphBuilder.graph(
            for: preset, sampleRate: sampleRate, maxFrames: engineChunkFrames, hosting: .live(period: period, priority: priority),
            continuing: predecessor)
        do {
            try loudness.attach(to: graph, buses: preset.buses.map {
                LoudnessBus(name: $0.name, channels: $0.channels, isInEar: $0.isInEar, measuresTruePeak: $0.hasOutput || $0.isInEar)
            })
        } catch {   // the buses come from the graph's own preset: a refusal is a bug, and metering is not worth the show
            StandardError.writeLine("foldback: warning: no loudness metering for this preset: \(error)")
        }
        return graph
    }

    /// Makes the connections the preset lists; returns a warning for each one not made.
    package func connect() -> [JACKConnectionWarning] {
        host.connect(PresetGraphBuilder.connectionPlan(for: preset))
    }

    /// What is running, where, with which ports.
    package var summary: String {
        let layout = host.layout
        let title = preset.name.map { "'\($0)'" } ?? preset.path
        return """
            foldback: running \(title) as JACK client '\(host.actualName)' on server '\(serverName ?? "default")' \
            (\(Int(host.sampleRate)) Hz, \(host.bufferSize) frames)
              inputs:  \(Self.portList(layout.inputPorts.map(\.name)))
              outputs: \(Self.portList(layout.outputPorts.map(\.name)))
            """
    }

    /// Port names separated by spaces; past 24 of them, the first 16 and the last 4 around the count.
    package static func portList(_ names: [String]) -> String {
        guard names.count > 24 else { return names.joined(separator: " ") }
        return (names.prefix(16) + ["… (\(names.count) ports) …"] + names.suffix(4)).joined(separator: " ")
    }

    /// Makes ``runUntilStopped(showStatus:)`` return at its next tick, as a stop signal would (a session
    /// manager opening another session, say). Safe from any thread, tick handlers included.
    package func requestStop() { stopRequest.withLock { $0 = true } }

    /// Runs the main loop until a stop signal or ``requestStop()`` (returns 0), riding out server restarts
    /// (see `waitForServerAndReopen`).
    package func runUntilStopped(showStatus: Bool) -> Int32 {
        let status = LiveStatus(isTerminal: isatty(STDOUT_FILENO) != 0)
        let stallWatch = CycleStallWatch()
        var tick = 0
        while true {
            if fb_stop_signal() != 0 || stopRequest.withLock({ $0 }) {
                status.finish()
                return 0
            }
            if let shutdown = host.shutdown {
                guard waitForServerAndReopen(after: shutdown, status: status, showStatus: showStatus) else {
                    status.finish()
                    return 0
                }
                continue
            }
            // While the server runs no cycles its connections are not ours to judge: a net slave drops them.
            let stalled = stallWatch.check(self, status: status, showStatus: showStatus)
            if !stalled { reportConnectionChanges(restored: host.maintainConnections(), forgotten: host.takeForgottenConnections()) }
            engine.collectGarbage()
            for handler in tickHandlers { handler() }
            if showStatus && !stalled && tick % status.ticksPerLine == 0 {
                let meters = engine.meters()
                status.show(
                    load: host.cpuLoad, xruns: host.xrunCount, meters: meters, extra: statusParts.compactMap { $0() } + [engine.graph?.faultedPluginsStatus].compactMap { $0 },
                    song: songText?(),
                    attention: BusAttention.of(meters, preset: preset) { engine.value(at: $0) })
            }
            tick += 1
            usleep(100_000)
        }
    }

    /// Deactivates and closes the client.
    package func close() {
        loudness.stop()
        analyser?.stop()
        host.deactivate()
        host.close()
        engine.collectGarbage()
    }
}
