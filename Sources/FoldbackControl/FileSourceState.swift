// What surfaces see of a playing file source: tempo, key, song position (set through the tree's host-side nodes). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackPresets

/// A file source as it plays now.
public struct FileSourceState: Sendable, Equatable {
    /// The strip that plays it.
    public var strip: String
    /// Speed, 1 as recorded.
    public var tempo: Float
    /// Key shift, semitones, and fine shift, cents.
    public var pitchSemitones: Float
    public var cents: Float
    /// Where the song is, seconds into the file, as heard now.
    public var position: Double
    /// The file's length, seconds.
    public var duration: Double
    /// Whether it is playing (false when stopped, or played to its end without a loop).
    public var isPlaying = true

    /// A state.
    public init(strip: String, tempo: Float, pitchSemitones: Float, cents: Float, position: Double, duration: Double, isPlaying: Bool = true) {
        self.isPlaying = isPlaying
        self.strip = strip
        self.tempo = tempo
        self.pitchSemitones = pitchSemitones
        self.cents = cents
        self.position = position
        self.duration = duration
    }

    /// The value of `parameter`.
    public func value(of parameter: SourceParameter) -> Float {
        switch parameter.key {
        case SourceParameters.tempo.key: tempo
        case SourceParameters.pitchSemitones.key: pitchSemitones
        default: cents
        }
    }
}

extension LiveControlTarget {
    /// Targets without file players have none.
    public func fileSources() -> [FileSourceState] { [] }

    /// Targets without file players refuse.
    public func sourceTransport(_ command: SourceTransportCommand, strip: String) throws(ControlError) -> FileSourceState {
        throw .failed("strip '\(strip)' plays no file")
    }
}
