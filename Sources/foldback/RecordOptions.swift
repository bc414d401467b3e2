// `foldback run` recording options: which buses and strips to tap, where, in which format. Non-realtime.
import ArgumentParser
import FoldbackLive
import Foundation
import FoldbackEngine
import FoldbackPresets
import FoldbackRender

/// `--record-format` values: the ``RecordingFormat`` cases.
enum RecordFormatArgument: String, ExpressibleByArgument, CaseIterable {
    case wav, w64, flac

    var format: RecordingFormat { RecordingFormat(rawValue: rawValue) ?? .wav }
}

/// `--record DIR` and its companions.
struct RecordOptions: ParsableArguments {
    @Option(name: .customLong("record"), help: ArgumentHelp(
        "Record to this directory (created if missing): one file per tapped bus or strip per take. SIGUSR1 stops and starts takes.",
        valueName: "dir"))
    var directory: String?

    @Option(name: .customLong("record-buses"), help: ArgumentHelp(
        "Buses to record, comma-separated (default: every bus when no --record-strips is given).", valueName: "a,b"))
    var buses: String?

    @Option(name: .customLong("record-strips"), help: ArgumentHelp(
        "Strips to record post-fader, comma-separated.", valueName: "x,y"))
    var strips: String?

    @Option(name: .customLong("record-format"), help: "File format: wav (32-bit float), w64 (no 4 GiB limit) or flac (24-bit).")
    var format: RecordFormatArgument = .wav

    @Flag(name: .customLong("record-paused"), help: "Arm the recorder but wait for SIGUSR1 to start the first take.")
    var paused = false

    /// The tap points asked for, checked against `preset`; exit status 2 naming a bad value.
    func points(in preset: Preset) throws -> [TapPoint] {
        let busNames = preset.buses.map(\.name)
        let stripNames = preset.strips.map(\.name)
        let chosenStrips = try Self.names(strips, option: "--record-strips", known: stripNames, kind: "strip")
        let defaultBuses = chosenStrips.isEmpty ? busNames : []
        let chosenBuses = try buses.map { try Self.names($0, option: "--record-buses", known: busNames, kind: "bus") } ?? defaultBuses
        return chosenBuses.map { TapPoint.bus($0) } + chosenStrips.map { TapPoint.strip($0) }
    }

    /// The recorder for `--record`, or nil without it; its rings fit `graph`'s channel counts.
    func makeRecorder(preset: Preset, graph: EngineGraph) throws -> Recorder? {
        guard let directory else {
            if buses != nil || strips != nil || paused {
                throw Self.usage("--record-buses, --record-strips and --record-paused need --record DIR")
            }
            return nil
        }
        let url = URL(fileURLWithPath: directory, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw Self.usage("cannot create the record directory \(directory): \(error.localizedDescription)")
        }
        guard FileManager.default.isWritableFile(atPath: url.path) else { throw Self.usage("the record directory \(directory) is not writable") }
        let points = try points(in: preset).map { ($0, graph.tapChannels(at: $0) ?? 2) }
        return Recorder(directory: url, points: points, format: format.format, onMessage: { StandardError.writeLine("foldback: \($0)") })
    }

    private static func names(_ list: String?, option: String, known: [String], kind: String) throws -> [String] {
        guard let list else { return [] }
        let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for name in names where !known.contains(name) {
            throw usage("\(option): there is no \(kind) named '\(name)' (the preset has: \(known.joined(separator: ", ")))")
        }
        return names
    }

    private static func usage(_ message: String) -> ExitCode {
        StandardError.writeLine("foldback: \(message)")
        return ExitCode(2)
    }
}
