// What a show records (`--record DIR` and its companions) and the recorder made from it for a preset. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackEngine
package import FoldbackPresets
package import FoldbackRender
import Foundation

/// The recording options of a show: where, which buses and strips, which format, armed or rolling.
package struct RecordingSettings: Sendable {
    /// The folder takes go to (created if missing), or nil for no recording.
    package var directory: String?
    /// Buses to record (nil: every bus when no strips are named).
    package var buses: [String]?
    /// Strips to record post-fader (nil: none).
    package var strips: [String]?
    /// The file format.
    package var format: RecordingFormat = .wav
    /// Arm the recorder but wait for SIGUSR1 (or OSC) to start the first take.
    package var paused = false
    /// The folder raw-input sound-check takes go to (`--record-inputs`), or nil.
    package var inputsDirectory: String?
    /// The sound-check take to play through the strips (`--soundcheck`), or nil.
    package var soundcheckTake: String?

    /// No recording.
    package init() {}

    /// The tap points asked for, checked against `preset`.
    /// - Throws: ``ShowError/usage(_:)`` naming a bus or strip the preset does not have.
    package func points(in preset: Preset) throws(ShowError) -> [TapPoint] {
        let busNames = preset.buses.map(\.name)
        let stripNames = preset.strips.map(\.name)
        let chosenStrips = try Self.check(strips ?? [], option: "--record-strips", known: stripNames, kind: "strip")
        let defaultBuses = chosenStrips.isEmpty ? busNames : []
        let chosenBuses = try buses.map { names throws(ShowError) in try Self.check(names, option: "--record-buses", known: busNames, kind: "bus") } ?? defaultBuses
        return chosenBuses.map { TapPoint.bus($0) } + chosenStrips.map { TapPoint.strip($0) }
    }

    /// The recorder for ``directory``, or nil without one; its rings fit `graph`'s channel counts.
    /// - Throws: ``ShowError/usage(_:)`` for companions without a directory, a folder that cannot be
    ///   created or written, or a bus or strip `preset` does not have.
    package func makeRecorder(preset: Preset, graph: EngineGraph) throws(ShowError) -> Recorder? {
        guard let directory else {
            if buses != nil || strips != nil || paused {
                throw .usage("--record-buses, --record-strips and --record-paused need --record DIR")
            }
            return nil
        }
        let url = try Self.writableDirectory(directory)
        let points = try points(in: preset).map { ($0, graph.tapChannels(at: $0) ?? 2) }
        return Recorder(directory: url, points: points, format: format, onMessage: { StandardError.writeLine("foldback: \($0)") })
    }

    /// `directory`, created if missing. - Throws: ``ShowError/usage(_:)`` when it cannot be created or written.
    static func writableDirectory(_ directory: String) throws(ShowError) -> URL {
        let url = URL(fileURLWithPath: directory, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw .usage("cannot create the record directory \(directory): \(error.localizedDescription)")
        }
        guard FileManager.default.isWritableFile(atPath: url.path) else { throw .usage("the record directory \(directory) is not writable") }
        return url
    }

    private static func check(_ names: [String], option: String, known: [String], kind: String) throws(ShowError) -> [String] {
        for name in names where !known.contains(name) {
            throw .usage("\(option): there is no \(kind) named '\(name)' (the preset has: \(known.joined(separator: ", ")))")
        }
        return names
    }

    /// The names in a comma-separated list (`--record-buses a, b`), blanks dropped.
    package static func names(inList list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
