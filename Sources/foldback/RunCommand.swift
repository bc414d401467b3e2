// `foldback run`: parses the show's options and runs it (FoldbackLive's ShowRunner) until SIGINT/SIGTERM. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import FoldbackLive

/// Parses `foldback run`'s options into a ``ShowOptions`` and runs the show (``ShowRunner``).
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a preset as a live JACK client.",
        discussion: """
            Joins JACK (a port per strip and bus channel), mixes until Ctrl-C and prints the ports, latency \
            and links first; the status line shows the song and the buses that need attention. SIGHUP \
            reloads the preset. Plugins run sandboxed (docs/sandbox.md); the manual: docs/run.md; all \
            options: --help-hidden.

            EXAMPLES
              foldback run presets/first-show.toml --start-server dummy --web-port 8080
              foldback run --setlist tonight.toml --osc-port 9000 --web-port 8080 --web-bind 0.0.0.0
            """
    )

    @Argument(help: "The preset file (TOML) or a shipped preset's name (vocal-monitor); omit it with --setlist.")
    var preset: String?

    @Option(name: .long, help: "JACK client name (default: foldback).")
    var name: String?

    @Option(name: .long, help: "JACK server name (default: $JACK_DEFAULT_SERVER).")
    var server: String?

    @Flag(name: .long, help: ArgumentHelp("Do not make the connections the preset lists.", visibility: .hidden))
    var noConnect = false

    @Option(name: .long, help: ArgumentHelp(
        "Start a private JACK server: 'dummy' (no sound card) or 'net' (docs/network.md).",
        valueName: "dummy|net"))
    var startServer: PrivateServerDriver?

    @Option(name: .long, help: ArgumentHelp(
        "With --start-server net: the netjack2 master's address, or its multicast group (225.3.19.154 is netjack2's).",
        valueName: "ADDR", visibility: .hidden))
    var master: String?

    @Option(name: .customLong("net-port"), help: ArgumentHelp("With --start-server net: the master's UDP port.", visibility: .hidden))
    var netPort = 19000

    @Option(name: .customLong("net-latency"), help: ArgumentHelp(
        "With --start-server net: network latency in periods (1…30); the round trip through the network is (CYCLES + 1) periods.",
        valueName: "CYCLES", visibility: .hidden))
    var netLatency = 2

    @Option(name: .customLong("net-name"), help: ArgumentHelp(
        "With --start-server net: the slave's client name on the master (default: the JACK client name).", valueName: "NAME", visibility: .hidden))
    var netName: String?

    @Option(name: .long, help: ArgumentHelp("Sample rate of a server started with --start-server, Hz.", visibility: .hidden))
    var rate = 48000

    @Option(name: .long, help: ArgumentHelp("Period (frames per cycle) of a server started with --start-server.", visibility: .hidden))
    var period = 256

    @Option(name: .customLong("show-minutes"), help: ArgumentHelp(
        "Length of the show, minutes: in-ear buses warn when their ear dose, projected to the end, passes 100 %.",
        valueName: "minutes", visibility: .hidden))
    var showMinutes: Double = 120

    @Flag(name: .long, help: "No live status line.")
    var quiet = false

    @Option(name: .long, help: ArgumentHelp(
        "Render each cycle on N realtime threads (1…CPUs): strips and buses in parallel, output bit-identical to one thread.",
        valueName: "N", visibility: .hidden))
    var threads = 1

    @OptionGroup(title: "Recording")
    var recording: RecordOptions

    @OptionGroup(title: "Live control")
    var control: ControlOptions

    func validate() throws {
        if let problem = options.sourceProblem { throw ValidationError(problem) }
    }

    /// The command line as the show takes it.
    var options: ShowOptions {
        var options = ShowOptions()
        (options.presetPath, options.setlistPath, options.clientName, options.serverName) = (preset, control.setlist, name, server)
        (options.startsPrivateServer, options.sampleRate, options.period) = (startServer != nil, rate, period)
        options.serverDriver = startServer ?? .dummy
        (options.net.masterAddress, options.net.port, options.net.latencyCycles, options.net.name) = (master, netPort, netLatency, netName)
        (options.threads, options.showMinutes, options.quiet, options.makesConnections) = (threads, showMinutes, quiet, !noConnect)
        (options.recording, options.control, options.allowsBrokenSongs) = (recording.settings, control.settings, control.allowBrokenSongs)
        return options
    }

    func run() throws {
        let status: Int32
        do {
            status = try ShowRunner(options: options).run()
        } catch {
            for line in error.lines { StandardError.writeLine(line) }
            throw ExitCode(error.status)
        }
        if status != 0 { throw ExitCode(status) }
    }
}

extension PrivateServerDriver: ExpressibleByArgument {}
