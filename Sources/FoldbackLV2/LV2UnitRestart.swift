// Clearing an LV2 unit's plugins after a NaN-guard trip: asked for on the audio thread, done by the worker thread, faded back in. Request, silence and fade realtime; the restart non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics

/// How an LV2 unit's plugins are reset when the engine's NaN/Inf guard trips on their strip.
///
/// A plugin's internal state (delay lines, feedback paths, filter memories) can only be cleared by
/// `deactivate` + `activate`, which LV2 does not allow on the audio thread. So, live:
/// 1. The guard calls the unit's `reset` on the audio thread: it stores ``RestartState/requested`` in an
///    atomic (no lock, no syscall, no allocation). From then on the audio thread does not run the plugins,
///    and the unit writes silence.
/// 2. The LV2 worker thread (which already polls every millisecond) sees the request and deactivates and
///    activates every instance of the unit: nothing else calls into them meanwhile (the audio thread no longer
///    runs them, and plugin work runs on that same thread). Control values live in the host's port memory, so
///    they survive. It then arms a fade-in and stores ``RestartState/running`` with release ordering.
/// 3. The audio thread, reading that with acquire ordering, runs the fresh plugins again and fades their
///    output in linearly over ``fadeTime`` (as a unit bypass does), so the return is click-free.
/// The unit is thus silent from the trip for about 1 ms plus the restart itself. Offline (render), the reset
/// restarts the plugins at once on the rendering thread, which has no deadline, and fades them in alike.
extension LV2UnitRender {
    /// The values of ``restartState``.
    enum RestartState: Int {
        /// The plugins run.
        case running = 0
        /// The audio thread asked for a restart; the plugins do not run until the worker thread has done it.
        case requested = 1
    }

    /// How long the plugins' output fades in after a restart, in seconds.
    static let fadeTime = 0.005

    /// Audio thread: whether the plugins are waiting for a restart (and must not run).
    @inline(__always)
    var isRestartPending: Bool { restartState.load(ordering: .acquiring) != RestartState.running.rawValue }

    /// Audio thread (the engine's `reset`): asks for the plugins to be restarted. Offline, restarts them now.
    mutating func requestRestart() {
        if isSynchronous {
            restartInstances()
        } else {
            restartState.store(RestartState.requested.rawValue, ordering: .releasing)
        }
    }

    /// Worker thread: performs a requested restart; returns whether there was one.
    static func performRequestedRestart(_ unit: UnsafeMutablePointer<LV2UnitRender>) -> Bool {
        guard unit.pointee.restartState.load(ordering: .acquiring) == RestartState.requested.rawValue else { return false }
        unit.pointee.restartInstances()
        unit.pointee.restartState.store(RestartState.running.rawValue, ordering: .releasing)
        return true
    }

    /// Deactivates and activates every instance and arms the fade-in. Never while the plugins can run.
    private mutating func restartInstances() {
        for index in 0..<instanceCount { instances[index].restart() }
        fadePosition = 0
    }

    /// Audio thread: zeros the unit's outputs.
    @inline(__always)
    func writeSilence(to outputs: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int) {
        for channel in 0..<outputChannelCount {
            for frame in 0..<frames { outputs[channel][frame] = 0 }
        }
    }

    /// Audio thread: scales the outputs by the fade-in ramp, (position + 1) / ``fadeFrames``, and advances it.
    @inline(__always)
    mutating func fadeIn(_ outputs: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int) {
        let start = fadePosition
        let length = min(frames, fadeFrames - start)
        let step = 1 / Float(fadeFrames)
        for channel in 0..<outputChannelCount {
            for frame in 0..<length { outputs[channel][frame] *= Float(start + frame + 1) * step }
        }
        fadePosition = start + length
    }
}

/// The restart request of one set of plugin instances, shared by every unit that runs them: a unit that
/// continues another's instances across a preset switch (``LV2Unit/prepare(continuing:channels:sampleRate:maxFrames:)``)
/// shares its flag, so a request from either stops both from running the instances until the worker thread
/// has restarted them. The atomic lives as long as the last unit holding the flag.
final class LV2RestartFlag: Sendable {
    let state = UnsafeAtomic<Int>.create(LV2UnitRender.RestartState.running.rawValue)

    deinit { state.destroy() }
}
