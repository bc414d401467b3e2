// `foldback run`: hosts a preset as a live JACK client until SIGINT/SIGTERM or server shutdown. Non-realtime.
import ArgumentParser
import CFoldback
import Foundation
import FoldbackJACK
import FoldbackPresets

/// Loads a preset, joins JACK as one client and mixes live.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a preset as a live JACK client.",
        discussion: """
            Loads the preset (see 'foldback check'), opens a JACK client, registers one input port per \
            strip channel (<strip>_in, or <strip>_in_L/_R) and one output port per bus channel (<bus>, \
            or <bus>_L/_R), connects the ports the preset lists, and mixes until Ctrl-C (SIGINT) or \
            SIGTERM, which deactivate and close the client and exit 0. If the JACK server goes away, \
            Foldback says so and exits 1.

            While running, a one-line status shows DSP load, xruns and the peak level of each bus.

            A JACK MIDI input port, midi_in, takes a controller: the preset's [midi] section maps its \
            controllers to faders, sends, unit parameters, mutes and bypasses (see docs/presets.md).

            Started by a session manager (NSM_URL set: nsmd, RaySession, Carla…), Foldback speaks the NSM \
            protocol: the session keeps its own copy of the preset (<session path>.toml, first copied from \
            the preset given here), the JACK client takes the session's client id as its name, and a session \
            save writes the current levels, parameters and connections into that copy.

            With no JACK server running, start one (for example 'jackd -d alsa') or let Foldback \
            start a private one with the dummy driver: '--start-server dummy' (no sound card needed; \
            it is stopped on exit).

            EXAMPLES
              foldback run presets/vocal-monitor.toml
              foldback run show.toml --name monitors --no-connect
              foldback run presets/vocal-monitor.toml --start-server dummy --server rehearsal
              JACK_DEFAULT_SERVER=stage foldback run show.toml --quiet
              NSM_URL=osc.udp://localhost:12345/ foldback run show.toml   (as a session manager starts it)
            """
    )

    @Argument(help: "The preset file (TOML).")
    var preset: String

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

    @Flag(name: .long, help: "No live status line.")
    var quiet = false

    /// Drivers `--start-server` can use.
    enum ServerDriver: String, ExpressibleByArgument, CaseIterable {
        case dummy
    }

    func run() throws {
        let loaded = try PresetLoading.load(preset)
        do {
            _ = try PresetGraphBuilder.graph(for: loaded, sampleRate: Double(rate), maxFrames: period)
        } catch {
            PresetLoading.report(error, path: preset)
            throw ExitCode(2)
        }
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
                managerURL: managerURL, templatePath: preset, serverName: launcher?.serverName ?? serverName, makesConnections: !noConnect
            ).run()
            if status != 0 { throw ExitCode(status) }
            return
        }
        let session: LiveSession
        do {
            session = try LiveSession(preset: loaded, clientName: name, serverName: launcher?.serverName ?? serverName)
        } catch {
            StandardError.writeLine("foldback: \(error)")
            throw ExitCode(1)
        }
        if session.host.actualName != name {
            StandardError.writeLine("foldback: the client name '\(name)' is taken; JACK named this client '\(session.host.actualName)'")
        }
        if !noConnect {
            for warning in session.connect() { StandardError.writeLine("foldback: warning: \(warning)") }
        }
        let midi = session.startMIDIOrWarn()
        StandardError.writeLine(session.summary)
        let exitStatus = session.runUntilStopped(showStatus: !quiet)
        midi?.stop()
        session.close()
        if exitStatus != 0 { throw ExitCode(exitStatus) }
    }
}
