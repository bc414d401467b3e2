// A live session's file sources as surfaces see them: tempo and key set while playing, the song position read. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackControl
package import FoldbackPresets
import FoldbackRender

extension LiveSession {
    /// Sets strip `strip`'s source tempo, semitones or cents (the others kept); heard within 100 ms.
    package func setSourceParameter(strip: String, _ parameter: SourceParameter, to value: Float) throws(ControlError) {
        guard let players = transport.fileSources, let stream = players.players.first(where: { $0.strip == strip })?.stream else {
            throw .failed("strip '\(strip)' plays no file")
        }
        var setting = stream.timePitch
        let clamped = Double(parameter.clamped(value))
        switch parameter.key {
        case SourceParameters.tempo.key: setting.tempo = clamped
        case SourceParameters.pitchSemitones.key: setting.semitones = clamped
        default: setting.cents = clamped
        }
        stream.setTimePitch(setting)
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
