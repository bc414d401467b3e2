// A strip's file source (`source = { file = …, loop = …, gain_db = … }`). Non-realtime.
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
        "file \(source.file)  (\(source.loops ? "looped" : "once"), \(NumberFormatting.decibels(source.gainDB)))  \(source.path)"
    }
}
