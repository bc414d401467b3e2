// The `foldback` root command: version, the overview `--help` shows, and the verbs. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackLive
import ArgumentParser

/// `foldback`: a JACK mixing host for live monitor mixes, driven by preset files.
@main
struct Foldback: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "foldback",
        abstract: "A realtime JACK mixing host for live monitor mixes, configured by preset files.",
        discussion: """
            Each strip of a preset becomes a JACK input port with its own units, fader and pan; each bus a \
            mix of strip sends on its own output ports: front of house, a singer's in-ears, a wedge. Presets \
            are TOML files (docs/presets.md). Bad input (a broken preset, a mistyped option) is reported as \
            file:line:column and exits with status 2. 'foldback VERB --help' teaches each verb; the manual \
            is in docs/ (docs/run.md, docs/commands.md).

            EXAMPLES
              foldback check presets/vocal-monitor.toml
              foldback run presets/vocal-monitor.toml --start-server dummy --web-port 8080
            """,
        version: "0.1.0",
        subcommands: [RunCommand.self, CheckCommand.self, RenderCommand.self, BenchCommand.self, CurvesCommand.self, PluginsCommand.self, PluginCommand.self]
    )

    /// Runs the command line; usage mistakes exit with status 2 like any other bad input
    /// (ArgumentParser's default would be 64), so scripts test one status.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            StandardError.writeLine(fullMessage(for: error))
            exit(withError: ExitCode(2))
        }
    }
}
