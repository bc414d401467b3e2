// A live session as the engine's host-side applier: file sources' tempo and key on their disk threads, strips' live ↔ take switches, plugins' fault states. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackControl
package import FoldbackEngine
package import FoldbackPresets
import FoldbackGraph
import FoldbackRender

extension LiveSession: HostParameterApplier {
    /// Sets a file source's tempo, semitones or cents (the others kept; heard within 100 ms), or moves a strip
    /// (or every strip on the take) between its ports and the take (20 ms crossfade).
    package func apply(_ parameter: HostParameter, value: Float) throws(EngineError) {
        if case .pluginFaulted = parameter {
            guard let graph = engine.graph else { throw .hostParameterRefused("no graph is running yet") }
            return try graph.setPluginFault(parameter, value: value)
        }
        if try applyTempo(parameter, value: value) { return }
        let name = try stripName(of: parameter)
        guard let (source, _) = SourceParameters.parameter(of: parameter) else {
            let report: String?
            do {
                report = try transport.soundcheck(.source(strip: name, onTake: value >= 0.5))
            } catch {
                throw .hostParameterRefused(error.description)
            }
            if report == nil { throw .hostParameterRefused(HostParameter.noTakeMessage) }
            return
        }
        guard let stream = transport.fileSources?.players.first(where: { $0.strip == name })?.stream else {
            throw .hostParameterRefused("strip '\(name ?? "")' plays no file")
        }
        var setting = stream.timePitch
        let clamped = Double(source.clamped(value))
        switch source.key {
        case SourceParameters.tempo.key: setting.tempo = clamped
        case SourceParameters.pitchSemitones.key: setting.semitones = clamped
        default: setting.cents = clamped
        }
        stream.setTimePitch(setting)
    }

    /// The setting in force: the source's stretcher setting, whether the strip plays the take (all: every strip on it
    /// does); nil without a take or a file, or for a strip the running graph does not have.
    package func value(of parameter: HostParameter) -> Float? {
        if case .pluginFaulted = parameter { return engine.graph?.pluginFaultValue(parameter) }
        if parameter == .showTempo { return showTempo.bpm.map(Float.init) }
        if parameter == .tempoSource { return Float(showTempo.source.rawValue) }
        let name: String?
        do { name = try stripName(of: parameter) } catch { return nil }
        guard let (source, _) = SourceParameters.parameter(of: parameter) else {
            guard let take = transport.takeSource else { return nil }
            guard let name else { return take.channelOfStrip.keys.allSatisfy { take.isOnTake(strip: $0) } ? 1 : 0 }
            return take.isOnTake(strip: name) ? 1 : 0
        }
        return fileSources().first { $0.strip == name }?.value(of: source)
    }

    /// Sets the show tempo by hand (as a tap: every echo retimed) or its source; false for any other parameter.
    private func applyTempo(_ parameter: HostParameter, value: Float) throws(EngineError) -> Bool {
        switch parameter {
        case .showTempo:
            if let bpm = showTempo.offer(Double(value), from: .tap) { try ShowTempo.retimeEchoes(to: Float(bpm), in: engine) }
        case .tempoSource:
            showTempo.setSource(TempoSource(rawValue: Int(value.rounded())) ?? showTempo.source)
        default:
            return false
        }
        return true
    }

    /// The name of the strip `parameter` belongs to in the running graph; nil for all strips (``HostParameter/allInputs``).
    private func stripName(of parameter: HostParameter) throws(EngineError) -> String? {
        guard let index = parameter.strip else { return nil }
        let strips = engine.graph?.description.strips ?? []
        guard strips.indices.contains(index) else { throw .unknownParameter("\(parameter): no strip #\(index) in the running graph") }
        return strips[index].name
    }

    /// Every file source's tempo, key and song position, in preset order.
    package func fileSources() -> [FileSourceState] {
        (transport.fileSources?.players ?? []).map { strip, stream in
            let setting = stream.timePitch
            return FileSourceState(
                strip: strip, tempo: Float(setting.tempo), pitchSemitones: Float(setting.semitones), cents: Float(setting.cents),
                position: stream.songPosition, duration: stream.duration, isPlaying: stream.isPlaying)
        }
    }
}

extension LiveSession {
    /// Plays, stops, locates or cues strip `strip`'s file player (OSC `…/source/play` and the like).
    package func sourceTransport(_ command: SourceTransportCommand, strip: String) throws(ControlError) -> FileSourceState {
        guard let stream = transport.fileSources?.players.first(where: { $0.strip == strip })?.stream else {
            let playing = (transport.fileSources?.players ?? []).map(\.strip)
            throw .failed("strip '\(strip)' plays no file" + (playing.isEmpty ? "" : "; strips playing files: " + playing.joined(separator: ", ")))
        }
        switch command {
        case .play: stream.resume()
        case .stop: stream.pause()
        case .cue: stream.stop()
        case let .locate(seconds): stream.locate(seconds: seconds)
        }
        return fileSources().first { $0.strip == strip }
            ?? FileSourceState(strip: strip, tempo: 1, pitchSemitones: 0, cents: 0, position: 0, duration: stream.duration)
    }

    /// Starts from the top every file player whose strip has `autostart = "song"` in `preset` (the song just selected).
    package func startSongSources(of preset: Preset) {
        for strip in preset.strips where strip.source?.autostart == .withSong {
            guard let stream = transport.fileSources?.players.first(where: { $0.strip == strip.name })?.stream else { continue }
            stream.start()
            StandardError.writeLine("foldback: \(strip.name): file player started with the song")
        }
    }
}
