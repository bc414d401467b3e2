// A strip's file source (`source = { file = …, loop = …, gain_db = …, tempo = …, pitch_semitones = … }`). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// An audio file a strip plays instead of taking JACK input.
public struct FileSourceSpec: Sendable {
    /// The file as written in the preset.
    public var file: String
    /// The absolute path: `file` resolved against the preset's directory.
    public var path: String
    /// Whether the file starts over at its end.
    public var loops: Bool
    /// Gain applied to the file, dB (−144…+24).
    public var gainDB: Float
    /// Speed, 1 as recorded (0.5…2).
    public var tempo: Float = 1
    /// Key shift, semitones (−12…+12), plus `cents` (−100…+100).
    public var pitchSemitones: Float = 0
    public var cents: Float = 0
    /// Whether a shift keeps the formants.
    public var preservesFormant = false
    /// Rubber Band's engine: `finer` (R3) or `faster` (R2).
    public var engine = "finer"
    /// When the file starts playing (`autostart`): at start (`true`, the default), only when asked (`false`), or
    /// from the top each time a song whose preset has it is selected (`"song"`).
    public var autostart = FileSourceAutostart.atStart
    /// Where the `file` value is written, for errors about the file itself.
    public var location: SourceLocation

    /// A file source; `path` is `file` resolved against `presetPath`'s directory.
    public init(file: String, presetPath: String, loops: Bool = false, gainDB: Float = 0, location: SourceLocation) {
        self.file = file
        let base = URL(fileURLWithPath: presetPath).deletingLastPathComponent()
        path = file.hasPrefix("/") ? file : base.appendingPathComponent(file).standardizedFileURL.path
        self.loops = loops
        self.gainDB = gainDB
        self.location = location
    }
}

extension FileSourceSpec {
    /// How `foldback check` shows the source: `backing.wav (looped, -6 dB)`.
    static func reportLine(_ source: FileSourceSpec) -> String {
        var notes = [source.loops ? "looped" : "once", NumberFormatting.decibels(source.gainDB)]
        if source.tempo != 1 { notes.append("tempo \(source.tempo)") }
        if source.pitchSemitones != 0 || source.cents != 0 { notes.append("pitch \(source.pitchSemitones) st \(source.cents) ct") }
        return "file \(source.file)  (\(notes.joined(separator: ", ")))  \(source.path)"
    }

    /// The source as a preset writes it: `{ file = "backing.wav", loop = true, gain_db = -6, tempo = 0.85, … }`
    /// (keys at their defaults left out).
    static func inlineTable(_ source: FileSourceSpec) -> String {
        var parts = ["file = " + TOMLText.quoted(source.file)]
        if source.loops { parts.append("loop = true") }
        if source.gainDB != 0 { parts.append("gain_db = " + NumberFormatting.plain(source.gainDB)) }
        for (parameter, value) in zip(SourceParameters.all, [source.tempo, source.pitchSemitones, source.cents]) where value != parameter.defaultValue {
            parts.append(parameter.key + " = " + NumberFormatting.plain(value))
        }
        if source.preservesFormant { parts.append("formant = true") }
        if source.engine != "finer" { parts.append("engine = " + TOMLText.quoted(source.engine)) }
        switch source.autostart {
        case .atStart: break
        case .off: parts.append("autostart = false")
        case .withSong: parts.append("autostart = \"song\"")
        }
        return "{ " + parts.joined(separator: ", ") + " }"
    }
}

/// When a file source starts playing.
public enum FileSourceAutostart: Sendable, Hashable {
    /// As soon as Foldback starts (`autostart = true`, the default).
    case atStart
    /// Only when asked (OSC `…/source/play`, SIGUSR2, `/foldback/player/start`): `autostart = false`.
    case off
    /// From the top each time a song whose preset gives it `autostart = "song"` is selected.
    case withSong
}
