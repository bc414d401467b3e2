// `foldback run` under the Non Session Manager: announce, open, save, dirty/clean, switch. Non-realtime (the main thread).
import CFoldback
import Foundation
import FoldbackJACK
import FoldbackPresets

/// Speaks the NSM protocol (as nsmd, Non, Ardour, Carla, RaySession do) when `NSM_URL` is set.
///
/// Announces with `:switch:dirty:`, then waits for `/nsm/client/open`: the session's copy of the preset is
/// `<path>.toml` (the command-line preset is copied there the first time) and the JACK client is named
/// after the client id. `/nsm/client/save` writes that copy with the current parameter values and
/// connections. Parameter changes send `/nsm/client/is_dirty`, a save `/nsm/client/is_clean`. A second open
/// switches: the running session closes and the new one starts.
package final class NSMSession {
    /// The protocol version spoken (NSM API 1.2).
    package static let apiVersion: (major: Int32, minor: Int32) = (1, 2)
    /// What this client can do beyond the basics.
    package static let capabilities = ":switch:dirty:"

    /// NSM error codes used in `/error` replies.
    package enum ErrorCode: Int32 {
        case general = -1
        case noSessionOpen = -6
        case badProject = -9
        case createFailed = -10
    }

    /// The session manager's URL, when foldback was started by one.
    package static var sessionManagerURL: String? {
        ProcessInfo.processInfo.environment["NSM_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    private let managerURL: String
    private let templatePath: String
    private let serverName: String?
    private let makesConnections: Bool
    private let renderThreads: Int
    private let transport: NSMTransport
    private var session: LiveSession?
    private var midi: MIDIInputLoop?
    private var sessionFile: String?
    private var savedChangeCount = 0
    private var isDirty = false

    /// Prepares to speak to the manager at `managerURL`; `templatePath` is the preset a new session starts from.
    package init(managerURL: String, templatePath: String, serverName: String?, makesConnections: Bool, renderThreads: Int = 1) throws(NSMError) {
        self.renderThreads = renderThreads
        self.managerURL = managerURL
        self.templatePath = templatePath
        self.serverName = serverName
        self.makesConnections = makesConnections
        transport = try NSMTransport()
    }

    /// Announces, then serves the manager until a stop signal (0), a refused announce or a JACK shutdown (1).
    package func run() -> Int32 {
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "foldback").lastPathComponent
        transport.send(to: managerURL, "/nsm/server/announce", [
            .string("Foldback"), .string(Self.capabilities), .string(executable),
            .int(Self.apiVersion.major), .int(Self.apiVersion.minor), .int(getpid()),
        ])
        StandardError.writeLine("foldback: NSM: announced to \(managerURL); waiting for the session manager to open a session")
        defer { closeSession() }
        while fb_stop_signal() == 0 {
            for message in transport.receive(timeout: 0.1) {
                if let status = handle(message) { return status }
            }
            if let shutdown = session?.host.shutdown {
                StandardError.writeLine("foldback: \(shutdown)")
                return 1
            }
            session?.engine.collectGarbage()
            updateDirtyState()
        }
        return 0
    }

    /// Handles one message; returns an exit status when foldback must stop.
    private func handle(_ message: NSMMessage) -> Int32? {
        let arguments = message.arguments
        switch message.path {
        case "/reply" where arguments.first?.string == "/nsm/server/announce":
            let text = arguments.dropFirst().compactMap(\.string)
            StandardError.writeLine("foldback: NSM: \(text.dropFirst().first ?? "the session manager") accepted: \(text.first ?? "")")
        case "/error" where arguments.first?.string == "/nsm/server/announce":
            StandardError.writeLine("foldback: NSM: the session manager refused the announce: \(arguments.last?.string ?? "")")
            return 1
        case "/nsm/client/open":
            guard arguments.count >= 3, let path = arguments[0].string, let clientID = arguments[2].string else {
                reply(error: .general, to: message.path, "expected path, display name and client id")
                return nil
            }
            open(path: path, clientID: clientID)
        case "/nsm/client/save":
            save()
        default:
            break   // session_is_loaded, show/hide GUI and future messages need nothing from us
        }
        return nil
    }

    private func open(path: String, clientID: String) {
        let file = path + ".toml"
        do {
            try copyTemplateIfAbsent(to: file)
        } catch {
            return reply(error: .createFailed, to: "/nsm/client/open", "cannot create \(file): \(error.localizedDescription)")
        }
        let preset: Preset
        do {
            preset = try PresetLoader.load(path: file)
        } catch {
            PresetProblems.report(error, path: file)
            return reply(error: .badProject, to: "/nsm/client/open", error.description)
        }
        closeSession()
        do {
            let session = try LiveSession(preset: preset, clientName: clientID, serverName: serverName, renderThreads: renderThreads)
            if makesConnections {
                for warning in session.connect() { StandardError.writeLine("foldback: warning: \(warning)") }
            }
            midi = session.startMIDIOrWarn()
            self.session = session
            StandardError.writeLine(session.summary)
        } catch {
            StandardError.writeLine("foldback: \(error)")
            return reply(error: .general, to: "/nsm/client/open", "\(error)")
        }
        sessionFile = file
        savedChangeCount = session?.engine.parameterChangeCount ?? 0
        isDirty = false
        transport.send(to: managerURL, "/reply", [.string("/nsm/client/open"), .string("opened \(file)")])
    }

    private func save() {
        guard let session, let file = sessionFile else {
            return reply(error: .noSessionOpen, to: "/nsm/client/save", "no session is open")
        }
        let changeCount = session.engine.parameterChangeCount
        let omissions: LiveSession.ChainOmissions
        do {
            omissions = try session.writeChain(to: file, base: midi?.controller.preset ?? session.preset)
        } catch {
            return reply(error: .general, to: "/nsm/client/save", error.description)
        }
        for warning in omissions.pluginWarnings {
            StandardError.writeLine("foldback: warning: plugin state not saved: \(warning)")
        }
        if !omissions.skipped.isEmpty {
            StandardError.writeLine("foldback: warning: \(omissions.skipped.count) changed value(s) have no preset key and were not saved: \(omissions.skipped)")
        }
        savedChangeCount = changeCount
        transport.send(to: managerURL, "/reply", [.string("/nsm/client/save"), .string("saved \(file)")])
        if isDirty {
            isDirty = false
            transport.send(to: managerURL, "/nsm/client/is_clean")
        }
    }

    /// Sends `is_dirty` once parameters have changed since the open or the last save.
    private func updateDirtyState() {
        guard let session, !isDirty, session.engine.parameterChangeCount != savedChangeCount else { return }
        isDirty = true
        transport.send(to: managerURL, "/nsm/client/is_dirty")
    }

    private func copyTemplateIfAbsent(to file: String) throws {
        guard !FileManager.default.fileExists(atPath: file) else { return }
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: templatePath, toPath: file)
    }

    private func reply(error code: ErrorCode, to path: String, _ message: String) {
        StandardError.writeLine("foldback: NSM: \(path) failed: \(message)")
        transport.send(to: managerURL, "/error", [.string(path), .int(code.rawValue), .string(message)])
    }

    private func closeSession() {
        midi?.stop()
        midi = nil
        session?.close()
        session = nil
    }
}
