// `foldback check`: validates a preset and prints the chain it resolves to. Non-realtime.
import ArgumentParser
import FoldbackPresets

/// Loads a preset without touching JACK, prints its resolved chain, and reports every problem.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a preset and print the chain it describes.",
        discussion: """
            Reads the preset, checks every key, and prints what 'foldback run' would build: for each \
            strip its JACK input ports and connections, its units in order with every parameter \
            (defaults included), fader, pan, mute, solo and sends; for each bus its output ports, \
            connections, gain and mute. JACK is not contacted.

            Problems are printed to standard error as file:line:column: error: message, all of them \
            at once, and the exit status is 2. Warnings (a strip with no sends, a bus nothing feeds) \
            are printed too but do not fail the check.

            EXAMPLES
              foldback check presets/vocal-monitor.toml
              foldback check --client-name monitors my-show.toml
              foldback check show.toml && foldback run show.toml
            """
    )

    @Argument(help: "The preset file (TOML) to validate.")
    var preset: String

    @Option(help: "The JACK client name used to spell full port names in the report.")
    var clientName = "foldback"

    @Flag(name: .shortAndLong, help: "Print only problems; say nothing when the preset is valid.")
    var quiet = false

    func run() throws {
        let loaded = try PresetLoading.load(preset)
        for warning in loaded.warnings { StandardError.writeLine(warning.description) }
        guard !quiet else { return }
        print(PresetReport.render(loaded, clientName: clientName), terminator: "")
    }
}
