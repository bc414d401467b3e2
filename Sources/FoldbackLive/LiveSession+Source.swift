// A live session as the engine's host-side applier: file sources' tempo and key on their disk threads, strips' live ↔ take switches. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackControl
package import FoldbackEngine
import FoldbackPresets
import FoldbackRender

extension LiveSession: HostParameterApplier {
    /// Sets a file source's tempo, semitones or cents (the others kept; heard within 100 ms), or moves a strip
    /// (or every strip on the take) between its ports and the take (20 ms crossfade).
    package func apply(_ parameter: HostParameter, value: Float) throws(EngineError) {
        let name = parameter.strip.flatMap { engine.graph?.description.strips[safe: $0]?.name }
        guard let (source, _) = SourceParameters.parameter(of: parameter) else {
            do {
                guard try transport.soundcheck(.source(strip: name, onTake: value >= 0.5)) != nil else {
                    throw EngineError.hostParameterRefused("no take plays: start foldback run with --soundcheck TAKE")
                }
            } catch let error as EngineError {
                throw error
            } catch {
                throw .hostParameterRefused("\(error)")
            }
            return
        }
        guard let name, let stream = transport.fileSources?.players.first(where: { $0.strip == name })?.stream else {
            throw .hostParameterRefused("strip '\(name ?? "?")' plays no file")
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

    /// The setting in force: the source's stretcher setting, whether the strip plays the take (all: every strip on it does).
    package func value(of parameter: HostParameter) -> Float? {
        let name = parameter.strip.flatMap { engine.graph?.description.strips[safe: $0]?.name }
        guard let (source, _) = SourceParameters.parameter(of: parameter) else {
            guard let take = transport.soundcheckState else { return nil }
            guard let name else { return !take.stripsOnTake.isEmpty && take.stripsPlayingTake.count == take.stripsOnTake.count ? 1 : 0 }
            return take.stripsPlayingTake.contains(name) ? 1 : 0
        }
        return fileSources().first { $0.strip == name }?.value(of: source)
    }

    /// Every file source's tempo, key and song position, in preset order.
    package func fileSources() -> [FileSourceState] {
        (transport.fileSources?.players ?? []).map { strip, stream in
            let setting = stream.timePitch
            return FileSourceState(
                strip: strip, tempo: Float(setting.tempo), pitchSemitones: Float(setting.semitones), cents: Float(setting.cents),
                position: stream.songPosition, duration: stream.duration)
        }
    }
}

extension Array {
    /// The element at `index`, or nil when out of bounds.
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
