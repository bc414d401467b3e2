// Everything `foldback run` takes, as one value a show starts from (the CLI fills it from the command line). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// How to run a show: what plays, on which JACK server and client, and every live surface around it.
/// ``ShowRunner`` runs it, started by hand or by a session manager (NSM).
package struct ShowOptions: Sendable {
    /// The JACK client name without ``clientName``.
    package static let defaultClientName = "foldback"

    /// The preset file (nil with a setlist).
    package var presetPath: String?
    /// The setlist file (nil for one preset); the show starts at its first song.
    package var setlistPath: String?
    /// With a setlist: start even if some songs' presets have errors, skipping those songs (`--allow-broken-songs`).
    package var allowsBrokenSongs = false
    /// The JACK client name asked for (nil: ``defaultClientName``; under NSM the session's client id).
    package var clientName: String?
    /// The JACK server (nil: `$JACK_DEFAULT_SERVER`, else the default server).
    package var serverName: String?
    /// Start a private JACK server (``serverDriver``) first, stopped on exit.
    package var startsPrivateServer = false
    /// The private server's driver (`--start-server dummy|net`).
    package var serverDriver = PrivateServerDriver.dummy
    /// A private netjack2 slave's master, port, latency and name.
    package var net = NetSlaveSettings()
    /// The private server's sample rate, Hz (also the rate the preset is first checked at).
    package var sampleRate = 48000
    /// The private server's period, frames.
    package var period = 256
    /// Threads rendering each cycle (1…CPUs).
    package var threads = 1
    /// The show's length, minutes, for the in-ear dose projection (1…1440).
    package var showMinutes: Double = 120
    /// No live status line.
    package var quiet = false
    /// Make the connections the preset lists (false with `--no-connect`).
    package var makesConnections = true
    /// What to record.
    package var recording = RecordingSettings()
    /// OSC, the web surface, allowed folders, `--watch`, the meter view.
    package var control = LiveControlSettings()
    /// The session manager's URL (`NSM_URL`), or nil when started by hand.
    package var sessionManagerURL: String? = ShowOptions.environmentSessionManagerURL

    /// Nothing chosen yet: give a preset or a setlist.
    package init() {}

    /// `NSM_URL` from the environment, when a session manager started this process.
    package static var environmentSessionManagerURL: String? {
        ProcessInfo.processInfo.environment["NSM_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The server to join: the one asked for, else `$JACK_DEFAULT_SERVER`, else nil (the default).
    package var effectiveServerName: String? {
        serverName ?? ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"]
    }

    /// Why these options cannot run (a value out of range, or an option a session manager decides), or nil.
    package func problem() -> ShowError? {
        guard showMinutes.isFinite, (1...1440).contains(showMinutes) else {
            return .usage("--show-minutes must be between 1 and 1440 (got \(showMinutes))")
        }
        if let problem = RenderThreads.problem(with: threads) { return .usage(problem) }
        if let problem = net.problem(driver: startsPrivateServer ? serverDriver : nil) { return problem }
        guard sessionManagerURL != nil else { return nil }
        if clientName != nil {
            return .usage("--name cannot be used under a session manager (NSM_URL is set): the session names the JACK client after its client id")
        }
        if setlistPath != nil {
            return .usage(
                "--setlist cannot be used under a session manager (NSM_URL is set): the session keeps one preset, its own copy, "
                    + "and saves into it; start foldback with the song's preset, or run the setlist outside the session")
        }
        return nil
    }

    /// Why the show has nothing to play, or nil: it needs a preset file or a setlist, not both.
    package var sourceProblem: String? {
        switch (presetPath, setlistPath) {
        case (nil, nil): return "give a preset file, or --setlist FILE"
        case (_?, _?): return "give either a preset file or --setlist, not both"
        default: return nil
        }
    }
}
