// `foldback run` recording options: which buses and strips to tap, where, in which format. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import ArgumentParser
import FoldbackLive
import FoldbackRender

/// `--record-format` values: the ``RecordingFormat`` cases.
extension RecordingFormat: ExpressibleByArgument {}

/// `--record DIR` and its companions.
struct RecordOptions: ParsableArguments {
    @Option(name: .customLong("record"), help: ArgumentHelp(
        "Record every bus to this directory; SIGUSR1 stops and starts takes.",
        valueName: "dir"))
    var directory: String?

    @Option(name: .customLong("record-buses"), help: ArgumentHelp(
        "Buses to record, comma-separated (default: every bus when no --record-strips is given).", valueName: "a,b", visibility: .hidden))
    var buses: String?

    @Option(name: .customLong("record-strips"), help: ArgumentHelp(
        "Strips to record post-fader, comma-separated.", valueName: "x,y", visibility: .hidden))
    var strips: String?

    @Option(name: .customLong("record-format"), help: ArgumentHelp("File format: wav (32-bit float), w64 (no 4 GiB limit) or flac (24-bit).", visibility: .hidden))
    var format: RecordingFormat = .wav

    @Flag(name: .customLong("record-paused"), help: ArgumentHelp("Arm the recorder but wait for SIGUSR1 to start the first take.", visibility: .hidden))
    var paused = false

    @Option(name: .customLong("record-inputs"), help: ArgumentHelp(
        "Record every strip's raw input (its ports, before trim and units) to this directory: a sound-check take, one file per strip, all from the same frame.",
        valueName: "dir", visibility: .hidden))
    var inputsDirectory: String?

    @Option(name: .customLong("soundcheck"), help: ArgumentHelp(
        "Play a --record-inputs take through the strips instead of their ports (a directory: its newest take; or DIR/<stamp>). OSC /foldback/soundcheck/... controls it.",
        valueName: "take", visibility: .hidden))
    var soundcheckTake: String?

    /// The options as the show takes them (comma-separated names split, blanks dropped).
    var settings: RecordingSettings {
        var settings = RecordingSettings()
        (settings.directory, settings.format, settings.paused) = (directory, format, paused)
        (settings.buses, settings.strips) = (buses.map(RecordingSettings.names(inList:)), strips.map(RecordingSettings.names(inList:)))
        (settings.inputsDirectory, settings.soundcheckTake) = (inputsDirectory, soundcheckTake)
        return settings
    }
}
