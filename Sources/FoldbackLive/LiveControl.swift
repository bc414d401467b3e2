// The live-control side of a show: one router for OSC, web, MIDI program changes and the meter view's keys, meter feed, setlist, SIGHUP and --watch reloads, meter view. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import FoldbackEngine
package import FoldbackControl
package import FoldbackPresets
import FoldbackWeb
import FoldbackX32
import Foundation
import Synchronization

/// Everything that changes a running session from outside, on threads of its own (never the audio thread).
package final class LiveControl: @unchecked Sendable {
    private let session: LiveSession
    package let setlist: SetlistController?
    /// The session's one router: OSC, web, MIDI program changes and the meter view's keys all drive it.
    private let router: ControlRouter
    private let osc: OSCServer?
    private let feed: MeterFeed?
    private let web: WebServer?
    /// The X32 and X-Air ports (`--x32-port`, `--xair-port`).
    private let consoles: [X32Server]
    /// The DNS-SD advertisement of the web page and OSC port (when they listen beyond loopback and Avahi runs).
    private let advertiser: ServiceAdvertiser?
    private let watch: Bool
    private let view: MeterView?
    /// The meter view's keys (cue selection), while it shows on a terminal.
    private let keys: MeterViewKeys?
    private let isStopping = Atomic<Bool>(false)
    private var worker: PeriodicWorker?
    /// Polls since the start (fb-control's thread only).
    private var polls = 0
    /// Polls between two malloc trims: 30 s (set from the poll period at start).
    private var trimPolls = 600
    /// SIGHUP arrivals, as the control thread last saw them.
    private var hangup: SignalCounter
    /// What the surfaces have to say at start (OSC's port, the web links, QR codes with `--qr`): printed after the
    /// ports and latency (``LiveShow``), so those come first.
    package private(set) var announcement: [String] = []
    /// The current preset file's modification time, as last seen by `--watch` (or written by a session save).
    private let watchedStamp: Mutex<(path: String, stamp: FileStamp?)>

    /// Starts OSC (if a port was given), the web surface (if a port was given), the reload poller and the
    /// meter view for `session`, all driving one ``ControlRouter`` whose log lines name the surface.
    /// With `midi`, program changes select setlist entries and OSC can arm MIDI learn.
    package init(session: LiveSession, options: LiveControlSettings, setlist: Setlist?, midi: MIDIController? = nil) throws {
        self.session = session
        let setlistController = setlist.map { SetlistController(setlist: $0, target: session) }
        if let setlist {   // the setlist's recall scope and safes hold for every song change of the show
            session.state.recall.mode = setlist.recall
            session.state.recall.safes = setlist.recallSafe
        }
        self.setlist = setlistController
        watch = options.watch
        watchedStamp = Mutex((session.preset.path, FileStamp(path: session.preset.path)))
        let box = RouterBox()
        if let port = options.oscPort {
            let server = try OSCServer(host: options.oscBind, port: port) { message, sender in box.router?.handle(message, from: sender, surface: .osc) ?? [] }
            let loudness = session.loudness
            feed = MeterFeed(engine: session.engine, loudness: { loudness.snapshot() }, analyser: session.analyser) { [weak server] message, peer in _ = server?.send(message, to: peer) }
            osc = server
        } else {
            osc = nil
            feed = nil
        }
        let router = ControlRouter(
            target: session, setlist: setlistController, meters: feed, midi: midi, files: try options.filePolicy()
        ) { StandardError.writeLine("foldback: \($0)") }
        box.router = router
        self.router = router
        if setlistController != nil, let midi {   // a program change selects a song (program 0 is the first), through the router
            midi.onProgramChange = { [weak router] program in
                _ = router?.handle(OSCMessage(ControlRouter.root + "/setlist/select", [.int(Int32(program) + 1)]), from: Self.midiPeer, surface: .midi)
            }
        }
        var announcement: [String] = []
        if let osc {
            osc.start()
            announcement.append("foldback: OSC on \(osc.local) (see docs/osc.md)")
        }
        var consoles: [X32Server] = []
        do {
            consoles = try Self.startConsoles(session: session, router: router, options: options, announcement: &announcement)
            web = try Self.startWeb(session: session, router: router, options: options, setlist: setlistController, announcement: &announcement)
        } catch {
            osc?.stop()   // nothing keeps listening for a show that does not start
            feed?.stop()
            consoles.forEach { $0.stop() }
            throw error
        }
        self.consoles = consoles
        advertiser = Self.advertise(preset: session.preset, options: options, web: web, osc: osc, announcement: &announcement)
        self.announcement = announcement
        view = options.meters ? MeterView(isTerminal: isatty(STDOUT_FILENO) != 0) : nil
        keys = options.meters ? MeterViewKeys(session: session, router: router) : nil
        hangup = SignalCounter(SIGHUP)   // installed before the thread starts: SIGHUP never kills foldback
        // 20 Hz while the meter view draws or --watch looks at the file; else 4 Hz (SIGHUP and the heap trim only):
        // each wake costs a show at rest tens of microseconds on a virtual machine.
        let period = view != nil || watch ? 50 : 250
        trimPolls = 30_000 / period
        let worker = PeriodicWorker(name: "fb-control", period: .milliseconds(period)) { [self] in poll() }
        self.worker = worker
        worker.start()
    }

    /// Runs `write`, which writes the playing preset's own file (a session save), so that `--watch` does
    /// not take the write for an edit and reload it.
    package func writingPresetFile(_ write: () -> Void) {
        let path = session.preset.path
        watchedStamp.withLock { stamp in
            write()
            stamp = (path, FileStamp(path: path))
        }
    }

    /// Stops every control thread and restores the terminal.
    package func stop() {
        guard !isStopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        worker?.stop()
        advertiser?.close()   // withdrawn before the surfaces stop answering
        osc?.stop()
        feed?.stop()
        web?.stop()
        consoles.forEach { $0.stop() }
        keys?.stop()
        view?.finish()
    }

    /// 20 Hz (4 Hz without the meter view and `--watch`): SIGHUP and `--watch` reloads, the meter view; every ``trimPolls`` polls, free heap pages go back
    /// to the system (a show's workers allocate and free thousands of small blocks a second, and glibc keeps the
    /// pages a burst leaves free, so RSS would creep up while the heap stays flat).
    private func poll() {
        polls &+= 1
        if polls % trimPolls == 0 { _ = fb_malloc_trim() }
        if hangup.hasArrived() {
            reload(because: "SIGHUP")
        } else if watch, hasPresetFileChanged() {
            reload(because: "the file changed")
        }
        view?.draw(session: session, position: setlist?.positionText)
    }

    /// The web surface (with `--web-port`) on the session's router, with tokens for the engineer and each bus:
    /// the preset's fixed ones, else those the show's ``WebTokenStore`` kept from its last run (unless
    /// `--fresh-tokens`), else fresh ones, stored for the next run. Its links (and QR codes with `--qr`) go to `announcement`.
    private static func startWeb(
        session: LiveSession, router: ControlRouter, options: LiveControlSettings, setlist: SetlistController?, announcement: inout [String]
    ) throws -> WebServer? {
        guard let port = options.webPort else { return nil }
        let log: @Sendable (String) -> Void = { StandardError.writeLine("foldback: web \($0)") }
        let buses = webBuses(session.preset, setlist: setlist)
        let store = WebTokenStore(showPath: setlist?.setlist.path ?? session.preset.path)
        let stored: (engineer: String?, buses: [String: String]) = store?.load() ?? (nil, [:])
        let access = WebAccess.remembered(buses: buses, fixed: session.preset.web, stored: stored, fresh: options.freshTokens)
        var kept = "new tokens for this run only (no state folder: set XDG_STATE_HOME or HOME)"
        if let store {
            do {
                try store.save(access, keeping: options.freshTokens ? [:] : stored.buses)
                kept = options.freshTokens ? "new tokens, kept in \(store.file)" : "tokens kept in \(store.file); --fresh-tokens makes new ones"
            } catch {
                kept = "new tokens for this run only (\(error))"
            }
        }
        let host = session.host
        let server = try WebServer(
            target: session, router: router, setlist: setlist, access: access, host: options.webBind, port: port,
            status: { (host.cpuLoad, host.xrunCount) }, log: log)
        try server.start()
        announcement.append("foldback: web on \(options.webBind):\(server.port) (see docs/web.md); access links (\(kept)):")
        let hosts = options.webBind == "0.0.0.0" ? NetworkAddresses.local() : [options.webBind]
        announcement += server.accessLines(host: hosts.first).map { "  " + $0 }
        if hosts.count > 1 { announcement.append("  (also reachable at \(hosts.dropFirst().joined(separator: ", ")))") }
        if options.showsQR {   // one scan joins: each musician's link as a QR code (the engineer's page shows them on demand)
            for (bus, token) in access.busTokens {
                guard let code = QRCode(server.link(token: token, host: hosts.first)) else { continue }
                announcement.append("  bus '\(bus)':")
                announcement += code.terminalLines().map { "  " + $0 }
            }
        } else if !access.busTokens.isEmpty {
            announcement.append("  (--qr prints each musician's link as a QR code; the engineer's page shows them too)")
        }
        return server
    }

    /// The X32 and X-Air ports asked for, started, each announced with the protocol's lack of authentication.
    private static func startConsoles(
        session: LiveSession, router: ControlRouter, options: LiveControlSettings, announcement: inout [String]
    ) throws -> [X32Server] {
        var servers: [X32Server] = []
        for (dialect, port) in [(X32Dialect.x32, options.x32Port), (.xair, options.xairPort)] {
            guard let port else { continue }
            do {
                let server = try X32Server(
                    dialect: dialect, host: options.x32Bind, port: port, target: session, router: router,
                    log: { StandardError.writeLine("foldback: \(dialect.protocolName) \($0)") })
                server.start()
                servers.append(server)
                announcement.append(
                    "foldback: \(dialect.protocolName) protocol on \(server.local) (no authentication: anyone who reaches this port can mix; see docs/x32.md)")
            } catch {
                servers.forEach { $0.stop() }
                throw error
            }
        }
        return servers
    }

    /// Every bus a musician may need a link for: the running preset's, then those only later setlist songs
    /// have (so a bus that first appears in song 5 has its link from the start). Songs that do not load now
    /// add nothing; switching to them reports their errors as usual.
    private static func webBuses(_ preset: Preset, setlist: SetlistController?) -> [String] {
        var names = preset.buses.map(\.name)
        for entry in setlist?.setlist.entries ?? [] where entry.presetPath != preset.path {
            guard let song = try? PresetLoader.load(path: entry.presetPath) else { continue }
            for bus in song.buses where !names.contains(bus.name) { names.append(bus.name) }
        }
        return names
    }

    private func reload(because reason: String) {
        let path = session.preset.path
        do {
            let report = try session.switchPreset(toPath: path)
            StandardError.writeLine("foldback: reloaded \(path) (\(reason)): \(report)")
        } catch {
            StandardError.writeLine("foldback: not reloading \(path) (\(reason)):\n\(error)")
        }
        watchedStamp.withLock { $0 = (path, FileStamp(path: path)) }
    }

    /// Whether the playing preset's file has a new ``FileStamp`` (time, size or inode; a new path counts as seen).
    private func hasPresetFileChanged() -> Bool {
        let path = session.preset.path
        return watchedStamp.withLock { watched in
            let now = FileStamp(path: path)
            defer { watched = (path, now) }
            guard watched.path == path, let now else { return false }
            return watched.stamp != now
        }
    }
}

extension LiveControl {
    /// Where the router thinks MIDI requests come from (replies to it are dropped).
    fileprivate static let midiPeer = OSCPeer(host: "127.0.0.1", port: 9)!
}

/// Lets the OSC handler reach the router built after the server (the router needs the server's meter feed).
private final class RouterBox: @unchecked Sendable {
    var router: ControlRouter?
}
