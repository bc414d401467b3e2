// A show under the Non Session Manager: announce, open (the same show on the session's copy), save, dirty/clean, switch. Non-realtime (the main thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import FoldbackControl
import Foundation
import FoldbackPresets

/// Runs a show as a session manager's client (nsmd, Non, Ardour, Carla, RaySession…) when `NSM_URL` is set.
///
/// Announces with `:switch:dirty:`, then waits for `/nsm/client/open`: the session's copy of the preset is
/// `<path>.toml` (the template preset is copied there the first time) and the JACK client is named after the
/// client id. The show is the same ``LiveShow`` a plain run starts, with every option (recording, file players,
/// OSC, web, MIDI, meters, `--watch`); signals do what they do without a session manager.
/// `/nsm/client/save` writes that copy with the current values (set from any surface) and connections.
/// Parameter changes send `/nsm/client/is_dirty`, a save `/nsm/client/is_clean`. A second open switches:
/// the running show closes and the new one starts. Messages are read on the main loop's tick.
package final class NSMSession {
    private let client: NSMClient
    private let templatePath: String
    private let serverName: String?
    private let options: ShowOptions
    private var show: LiveShow?
    private var sessionFile: String?
    private var savedChangeCount = 0
    private var isDirty = false
    /// An open checked and ready to start once the running show has stopped.
    private var pendingOpen: (preset: Preset, parts: LiveShow.Parts, clientID: String, file: String)?
    private var exitStatus: Int32?

    /// A client of the manager `client` speaks to; `templatePath` is the preset a new session starts from.
    package init(client: NSMClient, templatePath: String, serverName: String?, options: ShowOptions) {
        self.client = client
        self.templatePath = templatePath
        self.serverName = serverName
        self.options = options
    }

    /// Announces, then serves the manager until a stop signal (0) or a refused announce (1).
    package func run() -> Int32 {
        client.announce()
        StandardError.writeLine("foldback: NSM: announced to \(client.manager.url); waiting for the session manager to open a session")
        defer {
            show?.close()
            pendingOpen?.parts.close()
        }
        while fb_stop_signal() == 0, exitStatus == nil {
            if let open = pendingOpen {
                pendingOpen = nil
                start(open)
            }
            if let show {
                _ = show.run()   // until a stop signal, another open or a refused announce
            } else {
                poll(timeout: 0.1)
            }
        }
        return exitStatus ?? 0
    }

    /// Handles the messages that arrived (within `timeout` seconds) and tells the manager about changes.
    private func poll(timeout: Double) {
        for message in client.receive(timeout: timeout) { handle(message) }
        updateDirtyState()
    }

    private func handle(_ message: OSCMessage) {
        let arguments = message.arguments
        switch message.path {
        case "/reply" where arguments.first?.text == "/nsm/server/announce":
            let text = arguments.dropFirst().compactMap(\.text)
            StandardError.writeLine("foldback: NSM: \(text.dropFirst().first ?? "the session manager") accepted: \(text.first ?? "")")
        case "/error" where arguments.first?.text == "/nsm/server/announce":
            StandardError.writeLine("foldback: NSM: the session manager refused the announce: \(arguments.last?.text ?? "")")
            exitStatus = 1
            show?.session.requestStop()
        case "/nsm/client/open":
            guard arguments.count >= 3, let path = arguments[0].text, let clientID = arguments[2].text else {
                return client.refuse(message.path, .general, "expected path, display name and client id")
            }
            prepareOpen(path: path, clientID: clientID)
        case "/nsm/client/save":
            save()
        default:
            break   // session_is_loaded, show/hide GUI and future messages need nothing from us
        }
    }

    /// Copies the template to the session's file if absent, loads it and readies its recorder and players;
    /// the running show (if any) stops so the main loop starts the new one. A refusal leaves it playing.
    private func prepareOpen(path: String, clientID: String) {
        let file = path + ".toml", request = "/nsm/client/open"
        do {
            try copyTemplateIfAbsent(to: file)
        } catch {
            return client.refuse(request, .createFailed, "cannot create \(file): \(error.localizedDescription)")
        }
        let preset: Preset
        let parts: LiveShow.Parts
        do {
            preset = try PresetLoader.load(path: file)
        } catch {
            PresetProblems.report(error, path: file)
            return client.refuse(request, .badProject, error.description)
        }
        do {
            parts = try LiveShow.parts(for: preset, options: options)
        } catch {
            for line in error.lines { StandardError.writeLine(line) }
            let reason: String
            if case let .preset(problem, _) = error { reason = problem.description } else { reason = error.lines.first ?? "see foldback's messages" }
            return client.refuse(request, .badProject, reason)
        }
        pendingOpen?.parts.close()
        pendingOpen = (preset, parts, clientID, file)
        show?.session.requestStop()
    }

    /// Closes the running show and starts `open`'s; replies to the open either way.
    private func start(_ open: (preset: Preset, parts: LiveShow.Parts, clientID: String, file: String)) {
        show?.close()
        show = nil
        sessionFile = nil
        let started: LiveShow
        do {
            started = try LiveShow(preset: open.preset, parts: open.parts, clientName: open.clientID, serverName: serverName, options: options, setlist: nil)
        } catch {
            for line in error.lines { StandardError.writeLine(line) }
            return client.refuse("/nsm/client/open", .general, error.lines.first ?? "\(error)")
        }
        started.session.tickHandlers.append { [unowned self] in poll(timeout: 0) }
        show = started
        sessionFile = open.file
        savedChangeCount = started.session.engine.parameterChangeCount
        isDirty = false
        client.reply(to: "/nsm/client/open", "opened \(open.file)")
    }

    private func save() {
        let request = "/nsm/client/save"
        guard let show, let file = sessionFile else { return client.refuse(request, .noSessionOpen, "no session is open") }
        let changeCount = show.session.engine.parameterChangeCount
        let omissions: LiveSession.ChainOmissions
        do {
            omissions = try show.save(to: file)
        } catch {
            return client.refuse(request, .general, error.description)
        }
        for warning in omissions.pluginWarnings {
            StandardError.writeLine("foldback: warning: plugin state not saved: \(warning)")
        }
        if !omissions.skipped.isEmpty {
            StandardError.writeLine("foldback: warning: \(omissions.skipped.count) changed value(s) have no preset key and were not saved: \(omissions.skipped)")
        }
        savedChangeCount = changeCount
        client.reply(to: request, "saved \(file)")
        if isDirty {
            isDirty = false
            client.send("/nsm/client/is_clean")
        }
    }

    /// Sends `is_dirty` once parameters have changed since the open or the last save.
    private func updateDirtyState() {
        guard let show, !isDirty, show.session.engine.parameterChangeCount != savedChangeCount else { return }
        isDirty = true
        client.send("/nsm/client/is_dirty")
    }

    private func copyTemplateIfAbsent(to file: String) throws {
        guard !FileManager.default.fileExists(atPath: file) else { return }
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: templatePath, toPath: file)
    }
}
