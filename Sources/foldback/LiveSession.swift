// A running preset: the engine, its JACK host, graph rebuilds on format changes, and the main loop. Non-realtime.
import CFoldback
import Foundation
import FoldbackEngine
import FoldbackJACK
import FoldbackPresets

/// One preset hosted live on a JACK server.
final class LiveSession: @unchecked Sendable {
    /// The preset playing now (preset switches replace it).
    var preset: Preset { state.preset }
    let state: LivePresetState
    let engine: Engine
    let host: JACKHost
    private let serverName: String?

    /// The longest chunk the engine renders at once; JACK periods longer than this are split.
    static let engineChunkFrames = 4096

    /// Opens the JACK client, builds the graph at the server's format, and activates.
    init(preset: Preset, clientName: String, serverName: String?) throws {
        let state = LivePresetState(preset)
        self.state = state
        self.serverName = serverName
        engine = Engine(configuration: EngineConfiguration(maxFrames: Self.engineChunkFrames))
        let engine = engine
        host = try JACKHost(
            engine: engine, layout: try PresetGraphBuilder.layout(for: preset), clientName: clientName, serverName: serverName,
            onFormatChange: { sampleRate, bufferSize in
                // JACK's notification thread: rebuild off the audio thread; the engine splits long cycles meanwhile.
                do {
                    try state.switching.withLock {   // never interleaved with a preset switch
                        try engine.install(Self.graph(for: state.preset, sampleRate: sampleRate, bufferSize: bufferSize))
                    }
                } catch {
                    FileHandle.standardError.write(Data("foldback: could not re-prepare for \(sampleRate) Hz / \(bufferSize) frames: \(error)\n".utf8))
                }
            })
        let graph = try Self.graph(for: preset, sampleRate: host.sampleRate, bufferSize: host.bufferSize)
        try engine.install(graph, crossfade: .none)
        try host.updatePorts(for: graph.layout)
        try host.activate()
    }

    /// The preset's graph prepared for the server's format (periods longer than the engine's chunk are split).
    static func graph(for preset: Preset, sampleRate: Double, bufferSize: Int) throws(PresetError) -> EngineGraph {
        try PresetGraphBuilder.graph(for: preset, sampleRate: sampleRate, maxFrames: min(bufferSize, engineChunkFrames))
    }

    /// Makes the connections the preset lists; returns a warning for each one not made.
    func connect() -> [JACKConnectionWarning] {
        host.connect(PresetGraphBuilder.connectionPlan(for: preset))
    }

    /// What is running, where, with which ports.
    var summary: String {
        let layout = host.layout
        let title = preset.name.map { "'\($0)'" } ?? preset.path
        return """
            foldback: running \(title) as JACK client '\(host.actualName)' on server '\(serverName ?? "default")' \
            (\(Int(host.sampleRate)) Hz, \(host.bufferSize) frames)
              inputs:  \(layout.inputPorts.map(\.name).joined(separator: " "))
              outputs: \(layout.outputPorts.map(\.name).joined(separator: " "))
            """
    }

    /// Runs the main loop until a stop signal (returns 0) or a server shutdown (returns 1).
    func runUntilStopped(showStatus: Bool) -> Int32 {
        let status = LiveStatus(isTerminal: isatty(STDOUT_FILENO) != 0)
        var tick = 0
        while true {
            if fb_stop_signal() != 0 {
                status.finish()
                return 0
            }
            if let shutdown = host.shutdown {
                status.finish()
                FileHandle.standardError.write(Data("foldback: \(shutdown)\n".utf8))
                return 1
            }
            engine.collectGarbage()
            if showStatus && tick % status.ticksPerLine == 0 {
                status.show(load: host.cpuLoad, xruns: host.xrunCount, meters: engine.meters())
            }
            tick += 1
            usleep(100_000)
        }
    }

    /// Deactivates and closes the client.
    func close() {
        host.deactivate()
        host.close()
        engine.collectGarbage()
    }
}
