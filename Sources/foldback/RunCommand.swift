// `foldback run`: hosts a preset as a live JACK client until SIGINT/SIGTERM or server shutdown. Non-realtime.
import ArgumentParser
import CFoldback
import FoldbackLive
import Foundation
import FoldbackEngine
import FoldbackJACK
import FoldbackPresets
import FoldbackGraph

/// Loads a preset, joins JACK as one client and mixes live.
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

            A JACK MIDI input port, midi_in, takes a controller: the preset's [midi] section maps its \
            controllers to faders, sends, unit parameters, mutes and bypasses (see docs/presets.md).

            Started by a session manager (NSM_URL set: nsmd, RaySession, Carla…), Foldback speaks the NSM \
            protocol: the session keeps its own copy of the preset (<session path>.toml, first copied from \
            the preset given here), the JACK client takes the session's client id as its name, and a session \
            save writes the current levels, parameters and connections into that copy.

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
              JACK_DEFAULT_SERVER=stage foldback run show.toml --quiet
              foldback run show.toml --osc-port 9000 --watch
              foldback run --setlist friday.toml --osc-port 9000 --meters
              foldback run show.toml --osc-port 9000 --osc-bind 0.0.0.0 --allow-dir ~/saves
              oscsend localhost 9000 /foldback/preset/save s ~/saves/soundcheck.toml
              oscsend localhost 9000 /foldback/strip/vox/gain_db f -3.5
              NSM_URL=osc.udp://localhost:12345/ foldback run show.toml   (as a session manager starts it)
            """
    )

    @Argument(help: "The preset file (TOML); omit it with --setlist.")
    var preset: String?

    @Option(name: .long, help: "JACK client name; if taken, JACK picks a unique one and Foldback says which.")
    var name = "foldback"

    @Option(name: .long, help: "JACK server name (default: $JACK_DEFAULT_SERVER, else the default server).")
    var server: String?

    @Flag(name: .long, help: "Do not make the connections the preset lists.")
    var noConnect = false

    @Option(name: .long, help: ArgumentHelp("Start a private JACK server with this driver first, stopped on exit.", valueName: "dummy"))
    var startServer: ServerDriver?

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

    /// Drivers `--start-server` can use.
    enum ServerDriver: String, ExpressibleByArgument, CaseIterable {
        case dummy
    }

    func run() throws {
        guard showMinutes.isFinite, (1...1440).contains(showMinutes) else {
            StandardError.writeLine("foldback: --show-minutes must be between 1 and 1440 (got \(showMinutes))")
            throw ExitCode(2)
        }
        if let problem = RenderThreads.problem(with: threads) {
            StandardError.writeLine("foldback: \(problem)")
            throw ExitCode(2)
        }
        let setlist = try control.loadSetlist()
        let preset = try ControlOptions.startingPreset(argument: preset, setlist: setlist)
        let loaded = try PresetLoading.load(preset)
        let prototype: EngineGraph
        do {
            prototype = try PresetGraphBuilder.graph(for: loaded, sampleRate: Double(rate), maxFrames: period)
        } catch {
            PresetLoading.report(error, path: preset)
            throw ExitCode(2)
        }
        let recorder = try recording.makeRecorder(preset: loaded, graph: prototype)
        let players: FilePlayers
        do {
            players = try FilePlayers(preset: loaded)
        } catch let failure as LiveStartFailure {
            throw ExitCode(failure.status)
        }
        defer { players.close() }
        fb_install_stop_signals()
        var launcher: JACKServerLauncher?
        let serverName = server ?? ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"]
        if startServer != nil {
            let privateName = serverName ?? "foldback-\(getpid())"
            do {
                launcher = try JACKServerLauncher(serverName: privateName, sampleRate: rate, period: period)
            } catch {
                StandardError.writeLine("foldback: \(error)")
                throw ExitCode(1)
            }
            StandardError.writeLine("foldback: started a private JACK server '\(privateName)' (dummy driver, \(rate) Hz, \(period) frames)")
        }
        defer { launcher?.stop() }
        if let managerURL = NSMSession.sessionManagerURL {
            let status = try NSMSession(
                managerURL: managerURL, templatePath: preset, serverName: launcher?.serverName ?? serverName, makesConnections: !noConnect,
                renderThreads: threads
            ).run()
            if status != 0 { throw ExitCode(status) }
            return
        }
        let session: LiveSession
        do {
            session = try LiveSession(
                preset: loaded, clientName: name, serverName: launcher?.serverName ?? serverName,
                prepare: { graph in
                    try recorder?.attach(to: graph)
                    try players.attach(to: graph)
                }, showSeconds: showMinutes * 60, renderThreads: threads,
                alsoFitting: setlist?.entries.compactMap { try? PresetLoading.load($0.presetPath) } ?? [])
        } catch {
            StandardError.writeLine("foldback: \(error)")
            throw ExitCode(1)
        }
        if threads > 1 {
            let scheduling = session.host.renderWorkersAreRealtime ? "realtime" : "not realtime: the server runs without realtime scheduling"
            StandardError.writeLine("foldback: rendering on \(threads) threads: the JACK process thread and \(threads - 1) worker\(threads == 2 ? "" : "s") (\(scheduling))")
        }
        if session.host.actualName != name {
            StandardError.writeLine("foldback: the client name '\(name)' is taken; JACK named this client '\(session.host.actualName)'")
        }
        if !noConnect {
            for warning in session.connect() { StandardError.writeLine("foldback: warning: \(warning)") }
        }
        session.state.makesConnections = !noConnect
        let midi = session.startMIDIOrWarn()
        if let controller = midi?.controller { session.onPresetSwitched.append { controller.adopt($0) } }
        let liveControl: LiveControl
        do {
            liveControl = try LiveControl(session: session, options: control.settings, setlist: setlist, midi: midi?.controller)
        } catch {
            session.close()
            StandardError.writeLine("foldback: \(error)")
            throw ExitCode(1)
        }
        if let recorder { session.record(with: recorder, paused: recording.paused) }
        session.play(with: players)
        StandardError.writeLine(session.summary)
        for line in session.latencyReport() { StandardError.writeLine(line) }
        let exitStatus = session.runUntilStopped(showStatus: !quiet && !control.meters)
        liveControl.stop()
        midi?.stop()
        if let recorder {
            LiveSession.finishTake(recorder)
            recorder.close()
        }
        session.close()
        if let report = AudioAllocationReport.line { StandardError.writeLine(report) }
        if exitStatus != 0 { throw ExitCode(exitStatus) }
    }
}
