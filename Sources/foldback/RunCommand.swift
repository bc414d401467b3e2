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
            Loads the preset (see 'foldback check'), opens a JACK client, registers one input port per \
            strip channel (<strip>_in, or <strip>_in_L/_R) and one output port per bus channel (<bus>, \
            or <bus>_L/_R), connects the ports the preset lists, and mixes until Ctrl-C (SIGINT) or \
            SIGTERM, which deactivate and close the client and exit 0.

            If the JACK server goes away, Foldback says so, shows "waiting for JACK" and tries again every \
            250 ms; when a server of the same name is back it rejoins with the same client name and ports \
            and restores every connection its ports had, including ones made in a patchbay after start \
            (a connection whose other port is not back yet is made as soon as that port appears). Period \
            changes ('jack_bufsize') need no rebuild; a new sample rate re-prepares the units. Each output \
            port reports its own latency to JACK (strip units plus bus limiter lookahead; see 'jack_lsp -l').

            While running, a one-line status shows DSP load, xruns and the peak level of each bus; \
            '--meters' shows a full meter view instead.

            Live control: '--osc-port N' takes OSC commands on 127.0.0.1:N (docs/osc.md): faders, pans, \
            mutes, sends, unit parameters, preset loads, setlist moves, meter subscriptions. '--setlist FILE' \
            runs a show's presets in order (docs/setlists.md). SIGHUP reloads the current preset file; \
            '--watch' reloads it whenever it is saved. Every switch crossfades (equal power, 30 ms); LV2 \
            plugins the new preset keeps in place with the same setup keep running (tails carry on); ports \
            that persist keep their connections; a broken preset is reported and the old one keeps playing.

            Files over OSC: preset loads and saves and MIDI saves may only use .toml files directly in the \
            running preset's folder, the setlist's folder, or a folder given with '--allow-dir DIR' \
            (repeatable). A relative path is taken from the preset's folder. Any other path (another folder, \
            '..' or a symlink leading out, another file type) gets an error reply, is logged, and nothing \
            is read or written.

            Web control: '--web-port N' serves a page per bus for the musicians' phones (their own sends, \
            level and mute, live meters) and one for the engineer (everything), on 127.0.0.1:N unless \
            '--web-bind ADDR' says otherwise. Foldback prints a link with a fresh token for each at start; \
            a request without a valid token changes nothing (docs/web.md).

            X32 apps: '--x32-port 10023' answers Behringer X32 remotes (Mixing Station, X32-Mix) and \
            '--xair-port 10024' X-Air ones, on 127.0.0.1 unless '--x32-bind ADDR'. The protocol has no \
            authentication: whoever reaches the port can mix; '[x32] buses' limits them (docs/x32.md).

            A JACK MIDI input port, midi_in, takes a controller: the preset's [midi] section maps its \
            controllers to faders, sends, unit parameters, mutes and bypasses (see docs/presets.md).

            Started by a session manager (NSM_URL set: nsmd, RaySession, Carla…), Foldback speaks the NSM \
            protocol and runs the same show: the session keeps its own copy of the preset (<session path>.toml, \
            first copied from the preset given here), which is the preset that plays (SIGHUP and --watch reload \
            it), and the JACK client takes the session's client id as its name. Every other option works as \
            without a session manager: recording and SIGUSR1, file players and SIGUSR2, OSC, the web surface, \
            MIDI, --meters, --threads, --start-server. A session save writes the current levels, parameters and \
            connections into the session's copy, whichever surface (web, OSC, MIDI) made them. '--name' and \
            '--setlist' are refused there (exit 2): the session names the client, and keeps one preset.

            Threads: '--threads N' renders each cycle on N threads: the JACK process thread and N − 1 \
            workers created through JACK's thread API at the client's realtime priority. Strips run in \
            parallel, then each bus adds its strips' sends in the preset's order, then the buses run in \
            parallel, so the output is bit-identical to '--threads 1' (the default). Worth it when one core \
            cannot carry the show ('foldback bench --live --threads 2' measures the gain); N may not exceed \
            the machine's CPUs. Idle workers sleep; the process thread wakes them once per cycle.

            With no JACK server running, start one (for example 'jackd -d alsa') or let Foldback \
            start a private one with the dummy driver: '--start-server dummy' (no sound card needed; \
            it is stopped on exit). Foldback does not restart that private server if it dies: it waits, \
            like for any other server.

            SERVERS: Foldback runs on jackd 1.9 (JACK2; tested in every 'make test' on a dummy jackd) and on \
            PipeWire's JACK ('pw-jack foldback run …'; tested by 'make pipewire-tests' on PipeWire 0.3.65, \
            headless with its dummy driver: levels, --threads 2, pretty names and latency, MIDI, SIGINT/SIGTERM \
            takes, daemon restarts). With no JACK server but PipeWire running, it prints the pw-jack command.

            PAST ONE MACHINE (docs/network.md): with the inputs on a stage box running JACK's netjack2 \
            master ('jack_load netmanager'), '--start-server net --master ADDR' starts a private \
            'jackd -d net' slave (one channel each way per strip input and bus output; '--net-latency', \
            '--net-name', '--net-port') and stops it on exit; it is started again if it exits. Without \
            --start-server, Foldback joins a slave you run like any server. The master owns the clock: \
            --rate and --period do not apply. At start Foldback prints what the network adds to each \
            bus's round trip ((latency + 1) periods), counted in the in-ear warning. While the master is \
            away (no cycles for a second) Foldback shows "waiting for JACK" and, when it is back, \
            restores its connections to the slave's system ports.

            RECORDING: --record DIR writes one file per recorded bus (and per --record-strips strip, \
            post-fader) per take; 'kill -USR1 <pid>' stops the take, the next SIGUSR1 starts a new one. \
            WAV and W64 files stay readable even if Foldback is killed (docs/recording.md).

            FILE SOURCES: a strip with 'source = { file = "backing.wav", loop = true }' plays the file \
            (no input port); 'kill -USR2 <pid>' stops the file players, the next SIGUSR2 restarts them \
            from the top (docs/presets.md).

            EXAMPLES
              foldback run presets/vocal-monitor.toml
              foldback run show.toml --record ~/gigs/2026-11-22 --record-strips vox
              foldback run show.toml --record takes --record-buses main --record-format flac --record-paused
              foldback run show.toml --name monitors --no-connect
              foldback run presets/vocal-monitor.toml --start-server dummy --server rehearsal
              foldback run iem.toml --start-server net --master 192.168.1.20 --net-name iem
              JACK_DEFAULT_SERVER=stage foldback run show.toml --quiet
              foldback run show.toml --osc-port 9000 --watch
              foldback run --setlist friday.toml --osc-port 9000 --meters
              foldback run show.toml --osc-port 9000 --osc-bind 0.0.0.0 --allow-dir ~/saves
              oscsend localhost 9000 /foldback/preset/save s ~/saves/soundcheck.toml
              oscsend localhost 9000 /foldback/strip/vox/gain_db f -3.5
              foldback run show.toml --x32-port 10023 --x32-bind 0.0.0.0   (Mixing Station: console X32)
              NSM_URL=osc.udp://localhost:12345/ foldback run show.toml   (as a session manager starts it)
              foldback run show.toml --web-port 9100 --osc-port 9000 --record takes   (as a session's command line)
            """
    )

    @Argument(help: "The preset file (TOML) or a shipped preset's name (vocal-monitor); omit it with --setlist.")
    var preset: String?

    @Option(name: .long, help: "JACK client name (default: foldback); if taken, JACK picks a unique one and Foldback says which. Not under a session manager, which names the client.")
    var name: String?

    @Option(name: .long, help: "JACK server name (default: $JACK_DEFAULT_SERVER, else the default server).")
    var server: String?

    @Flag(name: .long, help: "Do not make the connections the preset lists.")
    var noConnect = false

    @Option(name: .long, help: ArgumentHelp(
        "Start a private JACK server first, stopped on exit: 'dummy' (no sound card) or 'net' (a netjack2 slave of --master; docs/network.md).",
        valueName: "dummy|net"))
    var startServer: PrivateServerDriver?

    @Option(name: .long, help: ArgumentHelp(
        "With --start-server net: the netjack2 master's address, or its multicast group (225.3.19.154 is netjack2's).",
        valueName: "ADDR"))
    var master: String?

    @Option(name: .customLong("net-port"), help: "With --start-server net: the master's UDP port.")
    var netPort = 19000

    @Option(name: .customLong("net-latency"), help: ArgumentHelp(
        "With --start-server net: network latency in periods (1…30); the round trip through the network is (CYCLES + 1) periods.",
        valueName: "CYCLES"))
    var netLatency = 2

    @Option(name: .customLong("net-name"), help: ArgumentHelp(
        "With --start-server net: the slave's client name on the master (default: the JACK client name).", valueName: "NAME"))
    var netName: String?

    @Option(name: .long, help: "Sample rate of a server started with --start-server, Hz.")
    var rate = 48000

    @Option(name: .long, help: "Period (frames per cycle) of a server started with --start-server.")
    var period = 256

    @Option(name: .customLong("show-minutes"), help: ArgumentHelp(
        "Length of the show, minutes: in-ear buses warn when their ear dose, projected to the end, passes 100 %.",
        valueName: "minutes"))
    var showMinutes: Double = 120

    @Flag(name: .long, help: "No live status line.")
    var quiet = false

    @Option(name: .long, help: ArgumentHelp(
        "Render each cycle on N realtime threads (1…CPUs): strips and buses in parallel, output bit-identical to one thread.",
        valueName: "N"))
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
