// Runs a show from its options: checks them, starts a private server if asked, then plays by hand or under a session manager. Non-realtime.
import CFoldback
import FoldbackJACK
import FoldbackPresets
import Foundation

/// The one way a show starts: `foldback run` fills ``ShowOptions`` and calls ``run()``.
///
/// Without `NSM_URL` it plays the preset (or the setlist's first song) until SIGINT/SIGTERM. With it, the same
/// show plays each session the manager opens, on the session's copy of the preset (see ``NSMSession``).
/// Options that a session manager decides (`--name`) or that conflict with its copy (`--setlist`) are refused.
package struct ShowRunner {
    package let options: ShowOptions

    package init(options: ShowOptions) {
        self.options = options
    }

    /// Runs the show to its end; returns the exit status (0 after a stop signal).
    /// - Throws: ``ShowError`` when it cannot start: bad input (status 2) or a failure such as no JACK server (1).
    package func run() throws(ShowError) -> Int32 {
        if let problem = options.problem() { throw problem }
        let setlist = try options.setlistPath.map { path throws(ShowError) in try Self.load(setlist: path) }
        guard let presetPath = options.presetPath ?? setlist?.entries.first?.presetPath else {
            throw .usage("give a preset file, or --setlist FILE")
        }
        let preset = try Self.load(preset: presetPath)
        let parts = try LiveShow.parts(for: preset, options: options)   // checked here even under NSM: bad options exit 2 at start
        var client: NSMClient?
        if let url = options.sessionManagerURL {
            parts.close()   // each session opened gets its own, from its copy of the preset
            client = try NSMClient(managerURL: url)
        }
        fb_install_stop_signals()
        for signal in [SIGHUP, SIGUSR1, SIGUSR2] { fb_count_signal(signal) }   // never fatal, even before a session opens
        let launcher: JACKServerLauncher?
        do {
            launcher = try startPrivateServer()
        } catch {
            if client == nil { parts.close() }
            throw error
        }
        defer { launcher?.stop() }
        let serverName = launcher?.serverName ?? options.effectiveServerName
        let status: Int32
        if let client {
            status = NSMSession(client: client, templatePath: presetPath, serverName: serverName, options: options).run()
        } else {
            let show = try LiveShow(
                preset: preset, parts: parts, clientName: options.clientName ?? ShowOptions.defaultClientName, serverName: serverName,
                options: options, setlist: setlist)
            status = show.run()
            show.close()
        }
        if let report = AudioAllocationReport.line { StandardError.writeLine(report) }
        return status
    }

    /// The private server `--start-server` asks for (dummy driver), or nil.
    private func startPrivateServer() throws(ShowError) -> JACKServerLauncher? {
        guard options.startsPrivateServer else { return nil }
        let name = options.effectiveServerName ?? "foldback-\(getpid())"
        let launcher: JACKServerLauncher
        do {
            launcher = try JACKServerLauncher(serverName: name, sampleRate: options.sampleRate, period: options.period)
        } catch {
            throw .failed("\(error)")
        }
        StandardError.writeLine("foldback: started a private JACK server '\(name)' (dummy driver, \(options.sampleRate) Hz, \(options.period) frames)")
        return launcher
    }

    private static func load(preset path: String) throws(ShowError) -> Preset {
        do {
            return try PresetLoader.load(path: path)
        } catch {
            throw .preset(error, path: path)
        }
    }

    private static func load(setlist path: String) throws(ShowError) -> Setlist {
        do {
            return try SetlistLoader.load(path: path)
        } catch {
            throw .preset(error, path: path)
        }
    }
}
