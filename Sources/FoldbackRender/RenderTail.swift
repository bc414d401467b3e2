// How long a render runs after its inputs end. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// What happens after the last input frame.
public enum RenderTail: Sendable, Equatable {
    /// Keep rendering until every bus has stayed below ``RenderTail/silenceDBFS`` for
    /// ``RenderTail/silenceWindowSeconds``, at most `capSeconds` (reverb tails are not cut).
    case auto(capSeconds: Double)
    /// Exactly this many seconds (0: the output is as long as the longest input).
    case seconds(Double)

    /// The level below which a bus counts as silent, dBFS.
    public static let silenceDBFS: Float = -90
    /// How long every bus must stay below ``silenceDBFS`` for the tail to end, seconds.
    public static let silenceWindowSeconds = 0.1
    /// The default cap of an automatic tail, seconds.
    public static let defaultCapSeconds = 30.0

    /// Frames a fixed tail adds at `sampleRate` (0 for an automatic one, whose length is not known ahead).
    func fixedFrames(sampleRate: Double) -> Int {
        guard case .seconds(let seconds) = self, seconds.isFinite, seconds > 0 else { return 0 }
        return Int((seconds * sampleRate).rounded())
    }

    /// Parses `auto` or a number of seconds (0…3600); nil if neither.
    public init?(argument: String) {
        if argument == "auto" {
            self = .auto(capSeconds: Self.defaultCapSeconds)
        } else if let seconds = Double(argument), seconds.isFinite, (0...3600).contains(seconds) {
            self = .seconds(seconds)
        } else {
            return nil
        }
    }
}
