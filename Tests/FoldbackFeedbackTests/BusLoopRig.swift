// A preset's whole graph in the simulated stage's loop: mic strip `vox` in, wedge bus `wedge` out, offline. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackFeedback
import FoldbackFeedbackTesting
import FoldbackPresets
import FoldbackGraph

/// Loads a preset (one mono strip `vox` sending to one mono bus `wedge`: input 0, output 0), installs its graph
/// in an ``Engine`` and closes the loop from the wedge bus back into the mic strip through a ``RoomModel``.
/// Feedback units (on strips or buses) are driven as an offline render drives them: after every 5 ms of audio.
final class BusLoopRig {
    let preset: Preset
    let engine: Engine
    let graph: EngineGraph
    let sampleRate: Double
    let blockSize: Int

    init(_ text: String, sampleRate: Double, blockSize: Int) throws {
        preset = try PresetLoader.parse(text, path: "bus-loop.toml")
        self.sampleRate = sampleRate
        self.blockSize = blockSize
        engine = Engine(configuration: EngineConfiguration(sampleRate: sampleRate, maxFrames: blockSize))
        graph = try PresetGraphBuilder.graph(for: preset, sampleRate: sampleRate, maxFrames: blockSize)
        try engine.install(graph, crossfade: .none)
        graph.offlineDrivenUnits.forEach { $0.beginOfflineRendering() }
    }

    /// The feedback unit `id` of bus `bus`.
    func busUnit(_ id: String, bus: String = "wedge") -> FeedbackUnit? {
        guard let description = graph.description.buses.first(where: { $0.name == bus }),
              let index = description.unitIDs.firstIndex(of: id) else { return nil }
        return description.units[index] as? FeedbackUnit
    }

    /// Runs the loop for `seconds` with room noise (and `source`) at the mic; returns the wedge (after its amplifier).
    func run(seconds: Double, room: RoomModel = RoomModel(), source: ((Int) -> Float)? = nil, loopGainDB: @escaping (Int) -> Double) -> [Float] {
        let engine = engine
        let graph = graph
        let stage = SimulatedStage(room: room, sampleRate: sampleRate, maxFrames: blockSize, path: { mic, wedge, frames in
            let io = engine.io
            io.pointee.inputs[0] = mic
            io.pointee.outputs[0] = wedge
            io.pointee.inputCount = 1
            io.pointee.outputCount = 1
            engine.renderCycle(frames: frames)
        }, analyze: { graph.offlineDrivenUnits.forEach { $0.offlineStep() } })
        let noise = StageMeasurements.roomNoise(sampleRate: sampleRate)
        return stage.run(frames: Int(seconds * sampleRate), blockSize: blockSize, source: { noise($0) + (source?($0) ?? 0) }, loopGainDB: loopGainDB)
    }

    /// A wedge bus (mono, no limiter) holding `units` (`[[bus.unit]]` tables), fed by mic strip `vox`.
    static func preset(busUnits units: String) -> String {
        """
        [[bus]]
        name = "wedge"
        channels = 1
        limiter = false
        \(units)
        [[strip]]
        name = "vox"
        channels = 1
          [[strip.send]]
          bus = "wedge"
        """
    }
}
