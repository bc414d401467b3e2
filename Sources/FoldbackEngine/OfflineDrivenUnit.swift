// The hook by which an offline render drives a unit's off-audio-thread work in step with the audio. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A unit with work of its own off the audio thread (the feedback unit's analysis) that an offline render
/// runs itself, after every cycle, instead of leaving it to a background thread: the result then depends on
/// the audio alone, not on how fast the render runs against that thread.
public protocol OfflineDrivenUnit: AnyObject {
    /// Called once, after ``EngineUnit/prepare(channels:sampleRate:maxFrames:)`` and before the first cycle:
    /// stop any background thread; ``offlineStep()`` takes its place.
    func beginOfflineRendering()
    /// Called on the rendering thread after each cycle (never inside the cycle).
    func offlineStep()
}

extension EngineGraph {
    /// The units of this graph (on strips and on buses) an offline render must drive itself (see ``OfflineDrivenUnit``).
    public var offlineDrivenUnits: [any OfflineDrivenUnit] {
        (description.strips.flatMap(\.units) + description.buses.flatMap(\.units)).compactMap { $0 as? any OfflineDrivenUnit }
    }
}
