// The live-control side of `foldback run`: OSC server, meter feed, setlist, SIGHUP and --watch reloads, meter view. Non-realtime.
import CFoldback
import FoldbackEngine
package import FoldbackControl
package import FoldbackPresets
import FoldbackWeb
import Foundation
import Synchronization

/// Everything that changes a running session from outside, on threads of its own (never the audio thread).
package final class LiveControl: @unchecked Sendable {
    private let session: LiveSession
    package let setlist: SetlistController?
    private let osc: OSCServer?
    private let feed: MeterFeed?
    private let web: WebServer?
    private let watch: Bool
    private let view: MeterView?
    /// The meter view's keys (cue selection), while it shows on a terminal.
    private let keys: MeterViewKeys?
    private let isStopping = Atomic<Bool>(false)
    private var worker: PeriodicWorker?
    /// SIGHUP arrivals, as the control thread last saw them.
    private var hangup: SignalCounter
    /// The current preset file's modification time, as last seen by `--watch`.
    private var watchedStamp: (path: String, time: timespec?)

    /// Starts OSC (if a port was given), the reload poller and the meter view for `session`.
    /// With `midi`, program changes select setlist entries and OSC can arm MIDI learn.
    package init(session: LiveSession, options: LiveControlSettings, setlist: Setlist?, midi: MIDIController? = nil) throws {
        self.session = session
        let setlistController = setlist.map { SetlistController(setlist: $0, target: session) }
        self.setlist = setlistController
        if let setlistController, let midi {
            midi.onProgramChange = { program in
                do {
                    StandardError.writeLine("foldback: MIDI program \(program): \(try setlistController.select(index: program)) (\(setlistController.positionText))")
                } catch {
                    StandardError.writeLine("foldback: MIDI program \(program) refused: \(error)")
                }
            }
        }
        watch = options.watch
        watchedStamp = (session.preset.path, Self.modificationTime(session.preset.path))
        if let port = options.oscPort {
            let files = try options.filePolicy()
            let box = RouterBox()
            let server = try OSCServer(host: options.oscBind, port: port) { message, sender in box.router?.handle(message, from: sender) ?? [] }
            let loudness = session.loudness
            let feed = MeterFeed(engine: session.engine, loudness: { loudness.snapshot() }) { message, peer in server.send(message, to: peer) }
            box.router = ControlRouter(target: session, setlist: self.setlist, meters: feed, midi: midi, files: files) { StandardError.writeLine("foldback: OSC \($0)") }
            osc = server
            self.feed = feed
            server.start()
            StandardError.writeLine("foldback: OSC on \(server.local) (see docs/osc.md)")
        } else {
            osc = nil
            feed = nil
        }
        web = try Self.startWeb(session: session, options: options, setlist: setlistController, midi: midi)
        view = options.meters ? MeterView(isTerminal: isatty(STDOUT_FILENO) != 0) : nil
        keys = options.meters ? MeterViewKeys(session: session) : nil
        hangup = SignalCounter(SIGHUP)   // installed before the thread starts: SIGHUP never kills foldback
        let worker = PeriodicWorker(name: "fb-control", period: .milliseconds(50)) { [self] in poll() }
        self.worker = worker
        worker.start()
    }

    /// Stops every control thread and restores the terminal.
    package func stop() {
        guard !isStopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        worker?.stop()
        osc?.stop()
        feed?.stop()
        web?.stop()
        keys?.stop()
        view?.finish()
    }

    /// 20 Hz: SIGHUP and `--watch` reloads, the meter view.
    private func poll() {
        if hangup.hasArrived() {
            reload(because: "SIGHUP")
        } else if watch, hasPresetFileChanged() {
            reload(because: "the file changed")
        }
        view?.draw(session: session, position: setlist?.positionText)
    }

    /// The web surface (with `--web-port`): its own router on the same session, tokens for the engineer and each bus.
    private static func startWeb(
        session: LiveSession, options: LiveControlSettings, setlist: SetlistController?, midi: MIDIController?
    ) throws -> WebServer? {
        guard let port = options.webPort else { return nil }
        let log: @Sendable (String) -> Void = { StandardError.writeLine("foldback: web \($0)") }
        let router = ControlRouter(target: session, setlist: setlist, midi: midi, files: try options.filePolicy(), log: log)
        let access = WebAccess.generated(buses: webBuses(session.preset, setlist: setlist), fixed: session.preset.web)
        let host = session.host
        let server = try WebServer(
            target: session, router: router, setlist: setlist, access: access, host: options.webBind, port: port,
            status: { (host.cpuLoad, host.xrunCount) }, log: log)
        try server.start()
        StandardError.writeLine("foldback: web on \(options.webBind):\(server.port) (see docs/web.md); access links:")
        let hosts = options.webBind == "0.0.0.0" ? NetworkAddresses.local() : [options.webBind]
        for line in server.accessLines(host: hosts.first) { StandardError.writeLine("  " + line) }
        if hosts.count > 1 { StandardError.writeLine("  (also reachable at \(hosts.dropFirst().joined(separator: ", ")))") }
        if isatty(STDERR_FILENO) != 0 {   // one scan joins: each musician's link as a QR code (the engineer's page shows them too)
            for (bus, token) in access.busTokens {
                guard let code = QRCode(server.link(token: token, host: hosts.first)) else { continue }
                StandardError.writeLine("  bus '\(bus)':")
                for line in code.terminalLines() { StandardError.writeLine("  " + line) }
            }
        }
        return server
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
        watchedStamp = (path, Self.modificationTime(path))
    }

    /// Whether the playing preset's file has a new modification time (a new path counts as seen).
    private func hasPresetFileChanged() -> Bool {
        let path = session.preset.path
        let time = Self.modificationTime(path)
        defer { watchedStamp = (path, time) }
        guard watchedStamp.path == path, let time else { return false }
        guard let seen = watchedStamp.time else { return true }
        return seen.tv_sec != time.tv_sec || seen.tv_nsec != time.tv_nsec
    }

    private static func modificationTime(_ path: String) -> timespec? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mtim
    }
}

/// Lets the OSC handler reach the router built after the server (the router needs the server's meter feed).
private final class RouterBox: @unchecked Sendable {
    package var router: ControlRouter?
}
