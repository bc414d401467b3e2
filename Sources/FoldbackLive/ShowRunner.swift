// Runs a show from its options: checks them, starts a private server if asked, then plays by hand or under a session manager. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
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

    /// glibc malloc arenas a show uses: the main thread's and one its workers share (they allocate off the
    /// audio thread only, a few thousand small blocks a second, so they hardly contend).
    static let mallocArenas: Int32 = 2

    package init(options: ShowOptions) {
        self.options = options
    }

    /// Runs the show to its end; returns the exit status (0 after a stop signal).
    /// - Throws: ``ShowError`` when it cannot start: bad input (status 2) or a failure such as no JACK server (1).
    package func run() throws(ShowError) -> Int32 {
        // Before any thread starts: glibc would otherwise give threads up to 8 arenas per core, and a show's
        // workers then keep each arena's free pages (RSS steps of about 0.5 MiB in a soak, with a flat heap).
        _ = fb_malloc_limit_arenas(Self.mallocArenas)
        if let problem = options.problem() { throw problem }
        if let problem = options.control.portProblem { throw .usage(problem) }
        let setlist = try options.setlistPath.map { path throws(ShowError) in try checked(try Self.load(setlist: path)) }
        guard let given = options.presetPath ?? setlist.flatMap({ list in list.firstPlayable.map { list.entries[$0].presetPath } }) else {
            throw .usage("give a preset file, or --setlist FILE")
        }
        guard let presetPath = SharedData.presetPath(named: given) else {
            let shipped = SharedData.presetNames()
            throw .usage("no preset file '\(given)' here, nor a shipped preset of that name"
                + (shipped.isEmpty ? "" : " (shipped: \(shipped.joined(separator: ", ")))"))
        }
        let client = try options.sessionManagerURL.map { url throws(ShowError) in try NSMClient(managerURL: url) }
        let preset: Preset
        do {
            preset = try Self.load(preset: presetPath).settingTempo(options.presetPath == nil ? setlist.flatMap { list in list.firstPlayable.flatMap { list.entries[$0].bpm } } : nil)
        } catch {
            guard let client else { throw error }
            // Under NSM the preset given only seeds new sessions: one that has its own copy still opens.
            for line in error.lines { StandardError.writeLine(line) }
            StandardError.writeLine("foldback: warning: NSM: new sessions cannot start from \(presetPath); sessions with their own copy still open")
            return try run(client: client, templatePath: presetPath)
        }
        let parts = try LiveShow.parts(for: preset, options: options)   // checked even under NSM: bad options exit 2 at start
        if let client {
            parts.close()   // each session opened gets its own, from its copy of the preset
            return try run(client: client, templatePath: presetPath)
        }
        Self.installSignals()
        let launcher: PrivateServer?
        do {
            launcher = try startPrivateServer(for: preset)
        } catch {
            parts.close()
            throw error
        }
        defer { launcher?.stop() }
        let show = try LiveShow(
            preset: preset, parts: parts, clientName: options.clientName ?? ShowOptions.defaultClientName,
            serverName: launcher?.serverName ?? options.effectiveServerName, options: options, setlist: setlist)
        let notifier = ServiceNotifier()   // systemd's Type=notify: ready now the client is active and connected
        let host = show.session.host
        notifier.ready(status: "playing \(preset.name ?? presetPath) as JACK client '\(host.actualName)'")
        notifier.startWatchdog { host.cycleCount }
        let status = show.run()
        notifier.stopping()
        StandardError.writeLine("foldback: \(show.session.host.xrunCount) xrun(s) while running")
        show.close()
        if let report = AudioAllocationReport.line { StandardError.writeLine(report) }
        return status
    }

    /// The show under the session manager `client` speaks to, for each session it opens.
    private func run(client: NSMClient, templatePath: String) throws(ShowError) -> Int32 {
        Self.installSignals()
        let launcher = try startPrivateServer(for: try? Self.load(preset: templatePath))
        defer { launcher?.stop() }
        let serverName = launcher?.serverName ?? options.effectiveServerName
        let status = NSMSession(client: client, templatePath: templatePath, serverName: serverName, options: options).run()
        if let report = AudioAllocationReport.line { StandardError.writeLine(report) }
        return status
    }

    /// SIGINT and SIGTERM stop the show; SIGHUP, SIGUSR1 and SIGUSR2 are counted, never fatal (even before a
    /// session opens, or without a recorder or file players to toggle).
    private static func installSignals() {
        fb_install_stop_signals()
        for signal in [SIGHUP, SIGUSR1, SIGUSR2] { fb_count_signal(signal) }
    }

    /// The private server `--start-server` asks for (a dummy server, or a netjack2 slave with channels for
    /// `preset`), or nil.
    private func startPrivateServer(for preset: Preset?) throws(ShowError) -> PrivateServer? {
        guard options.startsPrivateServer else { return nil }
        let name = options.effectiveServerName ?? "foldback-\(getpid())"
        switch options.serverDriver {
        case .dummy:
            return try PrivateServer(dummyNamed: name, options: options)
        case .net:
            let slave = options.net.slave(for: preset, clientName: options.clientName ?? ShowOptions.defaultClientName)
            return try PrivateServer(slave: slave, serverName: name)
        }
    }

    private static func load(preset path: String) throws(ShowError) -> Preset {
        do {
            return try PresetLoader.load(path: path)
        } catch {
            throw .preset(error, path: path)
        }
    }

    /// `setlist` with every song checked: any error refuses the show (exit 2) unless `--allow-broken-songs`, which
    /// marks the broken songs skipped, each with a log line.
    private func checked(_ setlist: Setlist) throws(ShowError) -> Setlist {
        let check = SetlistCheck(setlist, isThorough: false)
        guard check.hasErrors else { return setlist }
        for line in check.lines where line.contains(": error: ") { StandardError.writeLine(line) }
        let broken = check.brokenSongs
        guard options.allowsBrokenSongs, check.setlistErrors.isEmpty, broken.count < setlist.entries.count else {
            for song in broken { StandardError.writeLine("foldback: \(check.summary(song))") }
            let hint = check.setlistErrors.isEmpty && broken.count < setlist.entries.count ? "; fix them, or start with --allow-broken-songs to skip them" : ""
            throw .usage("not starting: \(setlist.path) has songs or settings with errors\(hint)")
        }
        var playable = setlist
        for song in broken {
            playable.entries[song.index].isSkipped = true
            StandardError.writeLine("foldback: warning: \(check.summary(song)); it will be skipped")
        }
        return playable
    }

    private static func load(setlist path: String) throws(ShowError) -> Setlist {
        do {
            return try SetlistLoader.load(path: path)
        } catch {
            throw .preset(error, path: path)
        }
    }
}
