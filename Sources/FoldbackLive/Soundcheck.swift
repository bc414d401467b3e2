// A show's virtual sound check: the raw-input take (`--record-inputs DIR`) and the take played through the strips (`--soundcheck TAKE`). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
package import FoldbackControl
package import FoldbackEngine
package import FoldbackRender
import Foundation

/// The input recorder and take player of one show, either or both absent.
package struct Soundcheck: Sendable {
    /// Records every port-fed strip's raw input, one file per strip, all started on one frame.
    package let inputRecorder: Recorder?
    /// Plays a take into the strips recorded on it.
    package let player: TakePlayer?

    /// Opens what `settings` ask for against `graph` (the preset's first graph).
    /// - Throws: ``ShowError/usage(_:)`` for a directory that cannot be written or a take that cannot be played.
    package init(settings: RecordingSettings, graph: EngineGraph) throws(ShowError) {
        let strips = graph.description.strips
        if let directory = settings.inputsDirectory {
            let url = try RecordingSettings.writableDirectory(directory)
            let points = strips.filter(\.hasInputPorts).map { (TapPoint.stripInput($0.name), $0.channels) }
            inputRecorder = Recorder(directory: url, points: points, format: settings.format, onMessage: { StandardError.writeLine("foldback: \($0)") })
        } else {
            inputRecorder = nil
        }
        guard let path = settings.soundcheckTake else { player = nil; return }
        do {
            player = try TakePlayer(
                take: try SoundcheckTake(at: URL(fileURLWithPath: path)), strips: strips.map { ($0.name, $0.channels) },
                outputRate: Int(graph.sampleRate))
        } catch {
            inputRecorder?.close()
            throw .usage("--soundcheck \(path): \(error)")
        }
    }

    /// Makes `graph` record and play as this sound check does.
    package func attach(to graph: EngineGraph) throws {
        try inputRecorder?.attach(to: graph)
        guard let player else { return }
        try player.setOutputRate(Int(graph.sampleRate))   // a take of another rate is resampled to JACK's
        try graph.attachTake(player.source)
    }

    /// The take's position and loop and the strips on it (the web page's fields).
    package var state: SoundcheckStatus? {
        guard let player else { return nil }
        let rate = Double(player.sampleRate)
        let names = player.strips.map(\.name)
        return SoundcheckStatus(
            stripsOnTake: names, stripsPlayingTake: names.filter { player.source.isOnTake(strip: $0) },
            positionSeconds: player.position.map { Double($0) / rate }, lengthSeconds: Double(player.frameCount) / rate,
            loopSeconds: player.loop.map { Double($0.lowerBound) / rate...Double($0.upperBound) / rate })
    }

    /// What the status line and OSC `get` show: the take's position and loop, strips playing it.
    package var status: String? {
        guard let state else { return nil }
        let where_ = state.positionSeconds.map { String(format: "%.3f s", $0) } ?? "stopped"
        let loop = state.loopSeconds.map { String(format: " loop %.3f–%.3f s", $0.lowerBound, $0.upperBound) } ?? ""
        return "take \(where_) of \(String(format: "%.3f s", state.lengthSeconds))\(loop); on take: "
            + (state.stripsPlayingTake.isEmpty ? "none" : state.stripsPlayingTake.joined(separator: ", "))
    }

    /// Carries out an OSC command on the take.
    package func run(_ command: SoundcheckCommand) throws(ControlError) -> String {
        guard let player else { throw .failed(HostParameter.noTakeMessage) }
        let rate = Double(player.sampleRate)
        switch command {
        case .play: player.play()
        case .stop: player.stop()
        case .status: break
        case .locate(let seconds): player.locate(Int(seconds * rate))
        case .loop(let region): player.setLoop(region.map { Int($0.lowerBound * rate)..<Int($0.upperBound * rate) })
        case .source(let strip, let onTake):
            let names = strip.map { [$0] } ?? player.strips.map(\.name)
            for name in names where !player.source.setOnTake(onTake, strip: name) {
                throw .failed("strip '\(name)' is not on the take (on it: \(player.strips.map(\.name).joined(separator: ", ")))")
            }
        }
        return status ?? ""
    }

    /// Finishes the input take while JACK still runs the show: a take stopped during the client's deactivation
    /// could end on a cycle JACK had already begun to take apart (ports leaving the graph one by one).
    package func finishInputTake() {
        if let inputRecorder { LiveSession.finishTake(inputRecorder) }
    }

    /// Finishes the input take (if ``finishInputTake()`` has not) and ends the disk threads.
    package func close() {
        finishInputTake()
        inputRecorder?.close()
        player?.close()
    }
}

extension LiveSession {
    /// Starts the input take (unless `paused`; SIGUSR1 toggles it), shows the take's state and answers OSC.
    package func soundcheck(with soundcheck: Soundcheck, paused: Bool) {
        if let recorder = soundcheck.inputRecorder {
            var usr1 = SignalCounter(SIGUSR1)
            if !paused { Self.startTake(recorder, sampleRate: Int(host.sampleRate)) }
            statusParts.append { recorder.isRecording ? "INPUTS REC" : "inputs off" }
            tickHandlers.append { [host] in
                guard usr1.hasArrived() else { return }
                if recorder.isRecording { Self.finishTake(recorder) } else { Self.startTake(recorder, sampleRate: Int(host.sampleRate)) }
            }
        }
        guard let player = soundcheck.player else { return }
        statusParts.append { soundcheck.status }
        transport.setTake(player.source)
        transport.setSoundcheck { command throws(ControlError) in try soundcheck.run(command) }
        transport.setSoundcheckStatus { soundcheck.state }
    }
}
