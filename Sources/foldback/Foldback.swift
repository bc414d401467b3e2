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
            Foldback joins JACK as one client. Each strip in a preset becomes an input port (two for \
            stereo) with its own chain of units, fader and pan; each bus becomes an output port (or \
            a stereo pair) carrying a mix of strip sends: a front-of-house mix, a singer's in-ear mix, \
            a wedge. Presets are TOML files; see docs/presets.md for every key.

            VERBS
              check   Validate a preset and print the chain it describes: ports,
                      units with every parameter, faders, sends, connections.
                      Nothing touches JACK.
              run     Load a preset and run it as a live JACK client.
              render  Render audio files through a preset offline, with the
                      live engine (no JACK server needed).
              curves  List the factory EQ curves, print one's bands and response,
                      or plot it as SVG.
              bench   Measure the speed of every built-in unit and of the
                      reference vocal chain.
              plugins List the installed LV2 plugins (filter by text).
              plugin  Show one LV2 plugin's ports, presets and latency.

            Preset errors name file:line:column, like a compiler. Bad input (a broken
            preset, a mistyped option) exits with status 2.

            EXAMPLES
              Validate a preset before the show and see which ports it will create:
                foldback check presets/vocal-monitor.toml

              Run it (a JACK server must be running):
                foldback run presets/vocal-monitor.toml

              Learn a verb's options:
                foldback help check
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
