// A LiveControlTarget over an offline engine, and the preset text the control tests use. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine
import FoldbackPresets
import FoldbackGraph
import Foundation
import Synchronization

/// An offline engine playing a preset, switching presets the way the live session does (minus JACK).
final class OfflineTarget: LiveControlTarget, @unchecked Sendable {
    let engine = Engine(configuration: EngineConfiguration(maxFrames: 256))
    private let preset: Mutex<Preset>
    /// Paths switched to, in order.
    let switches = Mutex<[String]>([])
    /// What switches recall and keep, as the live session's.
    let recall: RecallScope

    init(text: String = ControlFixtures.preset, path: String = "/tmp/control-test.toml") throws {
        let loaded = try PresetLoader.parse(text, path: path)
        preset = Mutex(loaded)
        recall = RecallScope(loaded: loaded)
        try engine.install(PresetGraphBuilder.graph(for: loaded, sampleRate: 48000, maxFrames: 256), crossfade: .none)
    }

    var currentPreset: Preset { preset.withLock { $0 } }

    var lastRecall: RecallReport? { recall.lastReport }

    func switchPreset(toPath path: String) throws(ControlError) -> String {
        try switchPreset(toPath: path, tempo: nil)
    }

    func switchPreset(toPath path: String, tempo: Float?) throws(ControlError) -> String {
        do {
            let loaded = try PresetLoader.load(path: path).settingTempo(tempo)
            let (carried, report) = recall.carry(into: loaded, from: self)
            let graph = try PresetGraphBuilder.graph(for: carried, sampleRate: 48000, maxFrames: 256)
            engine.renderCycle(frames: 16)   // lets the previous swap be taken
            engine.collectGarbage()
            try engine.install(graph, crossfade: .none)
            preset.withLock { $0 = carried }
            recall.commit(loaded: loaded, report: report)
            switches.withLock { $0.append(path) }
            return "switched to \(path); \(report.summary)"
        } catch let error as PresetError {
            throw .presetRejected(error.description)
        } catch {
            throw .failed("\(error)")
        }
    }

    /// Writes the current preset with every ring-out feedback unit's notches (the CLI also writes live values,
    /// connections and plugin states).
    func saveChain(toPath path: String) throws(ControlError) -> String {
        var saved = currentPreset
        let notches = engine.graph.map { FeedbackNotchCapture.saveNotches(of: $0, into: &saved) } ?? 0
        do {
            try PresetWriter.write(saved, to: path)
        } catch {
            throw .failed("\(error)")
        }
        return "wrote \(path) with \(notches) feedback notches"
    }
}

enum ControlFixtures {
    /// A vocal strip with a trim and a compressor, sending to two buses.
    static let preset = """
        [[bus]]
        name = "main"
        [[bus]]
        name = "iem"
        gain_db = -3.0

        [[strip]]
        name = "vox"
        gain_db = -2.0
        pan = 0.25
          [[strip.unit]]
          type = "gain"
          id = "trim"
          gain_db = 6.0
          [[strip.unit]]
          type = "compressor"
          id = "comp"
          threshold_db = -20.0
          [[strip.send]]
          bus = "main"
          [[strip.send]]
          bus = "iem"
          gain_db = 3.0
        """

    /// Writes `text` to a fresh temporary file named `name` and returns its path.
    static func write(_ text: String, name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-control-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}

extension OfflineTarget {
    /// Renders DC `inputs` (one value per input channel) for `cycles` cycles of 256 frames; the last sample
    /// of each of the first `outputs` output channels.
    func lastSamples(dc inputs: [Float], outputs: Int, cycles: Int = 40) -> [Float] {
        let sources = inputs.map { value in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 256)
            buffer.initialize(repeating: value, count: 256)
            return buffer
        }
        let destinations = (0..<outputs).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 256) }
        defer { (sources + destinations).forEach { $0.deallocate() } }
        let io = engine.io
        io.pointee.inputCount = inputs.count
        io.pointee.outputCount = outputs
        for (channel, source) in sources.enumerated() { io.pointee.inputs[channel] = UnsafePointer(source) }
        for (channel, destination) in destinations.enumerated() { io.pointee.outputs[channel] = destination }
        for _ in 0..<cycles { engine.renderCycle(frames: 256) }
        return destinations.map { $0[255] }
    }
}
