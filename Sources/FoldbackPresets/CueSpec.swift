// The preset's cue output (`[cue]`): the engineer's stereo pair, its level, limiter and connections. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine

/// The cue output a preset declares (`[cue]`): ports `cue_L` and `cue_R`.
public struct CueSpec: Sendable, Equatable {
    /// The cue level, dB (−144…+24).
    public var gainDB: Float
    /// Its safety limiter (zero-latency unless `limiter_mode` says otherwise, so a cued bus stays aligned).
    public var limiter: LimiterSettings
    /// The JACK ports to connect `cue_L` and `cue_R` to (two entries, possibly empty).
    public var connections: [[String]]
    /// Where the `[cue]` table starts.
    public var location: SourceLocation

    /// A cue output.
    public init(gainDB: Float = 0, limiter: LimiterSettings = CueDescription().limiter, connections: [[String]] = [[], []], location: SourceLocation) {
        self.gainDB = gainDB
        self.limiter = limiter
        self.connections = connections
        self.location = location
    }
}
