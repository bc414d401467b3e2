// One show playing on JACK: a live session with its recorder, file players, MIDI and control surfaces; start, main loop, close. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackGraph
import FoldbackJACK
package import FoldbackPresets
package import FoldbackRender

/// A preset playing live with every surface the options ask for. ``ShowRunner`` starts one for a plain run,
/// and one per session a session manager opens: the same show either way.
package final class LiveShow {
    /// The live session (engine, JACK host, preset switching).
    package let session: LiveSession
    /// OSC, web, the reload poller and the meter view.
    package let control: LiveControl
    private let midi: MIDIInputLoop?
    private let recorder: Recorder?
    private let players: FilePlayers
    private let soundcheck: Soundcheck
    private let showsStatus: Bool

    /// What a preset needs before its session starts: the recorder and the file players, checked against it.
    package struct Parts: Sendable {
        package let recorder: Recorder?
        package let players: FilePlayers
        package let soundcheck: Soundcheck

        /// Closes what was opened (for parts of a show that will not start).
        package func close() {
            recorder?.close()
            players.close()
            soundcheck.close()
        }
    }

    /// Checks that `preset` builds and opens its recorder and file players.
    /// - Throws: ``ShowError`` (status 2) for a preset that does not build, recording options it cannot
    ///   take (a bus it lacks…) or a source file that cannot be read (reported as it is found).
    package static func parts(for preset: Preset, options: ShowOptions) throws(ShowError) -> Parts {
        let prototype: EngineGraph
        do {
            // Only looked at: the show's graph is built again once JACK's rate and period are known, so no sandbox starts here.
            prototype = try PresetGraphBuilder.graph(
                for: preset, sampleRate: Double(options.sampleRate), maxFrames: options.period, hosting: .layoutOnly)
        } catch {
            throw .preset(error, path: preset.path)
        }
        let recorder = try options.recording.makeRecorder(preset: preset, graph: prototype)
        let soundcheck: Soundcheck
        do throws(ShowError) {
            soundcheck = try Soundcheck(settings: options.recording, graph: prototype)
        } catch {
            recorder?.close()
            throw error
        }
        do {
            return Parts(recorder: recorder, players: try FilePlayers(preset: preset), soundcheck: soundcheck)
        } catch {
            recorder?.close()
            soundcheck.close()
            throw .reported(status: (error as? LiveStartFailure)?.status ?? 2)
        }
    }

    /// Joins JACK as `clientName` on `serverName` with `preset` and `parts`, connects, and starts MIDI,
    /// control, recording and the file players as `options` say; prints the summary and latency report.
    /// `setlist` (if any) is the show's setlist, standing at `preset`. On a throw, `parts` are closed.
    package init(
        preset: Preset, parts: Parts, clientName: String, serverName: String?, options: ShowOptions, setlist: Setlist?
    ) throws(ShowError) {
        let (recorder, players, soundcheck) = (parts.recorder, parts.players, parts.soundcheck)
        do {
            session = try LiveSession(
                preset: preset, clientName: clientName, serverName: serverName,
                prepare: { graph in
                    try recorder?.attach(to: graph)
                    try players.attach(to: graph)
                    try soundcheck.attach(to: graph)
                }, showSeconds: options.showMinutes * 60, renderThreads: options.threads,
                alsoFitting: setlist?.entries.compactMap { try? PresetLoader.load(path: $0.presetPath) } ?? [])
        } catch {
            parts.close()
            // No JACK server but PipeWire running for the user: say so, with the command that works.
            let hint = PipeWirePresence.hint(after: error).map { "\nfoldback: \($0)" } ?? ""
            throw .failed("\(error)\(hint)")
        }
        let threads = options.threads
        if threads > 1 {
            let scheduling = session.host.renderWorkersAreRealtime ? "realtime" : "not realtime: the server runs without realtime scheduling"
            StandardError.writeLine("foldback: rendering on \(threads) threads: the JACK process thread and \(threads - 1) worker\(threads == 2 ? "" : "s") (\(scheduling))")
        }
        if session.host.actualName != clientName {
            StandardError.writeLine("foldback: the client name '\(clientName)' is taken; JACK named this client '\(session.host.actualName)'")
        }
        if options.makesConnections {
            for warning in session.connect() { StandardError.writeLine("foldback: warning: \(warning)") }
        }
        session.state.makesConnections = options.makesConnections
        midi = session.startMIDIOrWarn()
        if let controller = midi?.controller { session.onPresetSwitched.append { controller.adopt($0) } }
        do {
            control = try LiveControl(session: session, options: options.control, setlist: setlist, midi: midi?.controller)
        } catch {
            midi?.stop()
            session.close()
            parts.close()
            throw .failed("\(error)")
        }
        (self.recorder, self.players, self.soundcheck) = (recorder, players, soundcheck)
        if let setlist = control.setlist { session.songText = { setlist.positionText } }
        session.statusParts.append { [tempo = session.showTempo] in tempo.statusText }   // "♩ 120.0 BPM (setlist)" once a tempo is set
        if let bpm = control.setlist?.current.bpm { _ = session.showTempo.offer(Double(bpm), from: .setlist) }   // the first song's, set at start
        session.followTempoClocks()
        showsStatus = !options.quiet && !options.control.meters
        if let recorder { session.record(with: recorder, paused: options.recording.paused) }
        session.play(with: players)
        session.soundcheck(with: soundcheck, paused: options.recording.paused)
        // Ports, latency, then the surfaces' links, in one write: whoever sees "running" sees the links too.
        StandardError.writeLine(([session.summary] + session.netLatencyReport() + session.latencyReport() + control.announcement).joined(separator: "\n"))
    }

    /// Mixes until a stop signal or ``LiveSession/requestStop()``, riding out JACK server restarts; returns 0.
    package func run() -> Int32 {
        session.runUntilStopped(showStatus: showsStatus)
    }

    /// The preset a session save writes over: the playing one, with any MIDI-learned mappings.
    package var presetToSave: Preset { midi?.controller.preset ?? session.preset }

    /// Writes the running chain (levels, parameters and connections set live from any surface) over
    /// `path`, without `--watch` taking the write for an edit.
    package func save(to path: String) throws(PresetError) -> LiveSession.ChainOmissions {
        var outcome: Result<LiveSession.ChainOmissions, PresetError> = .success(LiveSession.ChainOmissions(skipped: [], pluginWarnings: []))
        control.writingPresetFile {
            outcome = Result { () throws(PresetError) in try session.writeChain(to: path, base: presetToSave) }
        }
        return try outcome.get()
    }

    /// Stops every surface, finishes the takes (while JACK still runs the show), and leaves JACK.
    package func close() {
        control.stop()
        midi?.stop()
        if let recorder {
            LiveSession.finishTake(recorder)
            recorder.close()
        }
        soundcheck.finishInputTake()
        session.close()
        players.close()
        soundcheck.close()
    }
}
