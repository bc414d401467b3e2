// Starts and stops a set of taps together at one chunk boundary. Realtime on the audio side (sample()).
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics

/// The switch's realtime memory.
struct TapSwitchState {
    /// Bumped by the control thread on every start and stop: odd = recording.
    let requested: UnsafeAtomic<Int>
    /// The last request the audio thread has acted on.
    let acknowledged: UnsafeAtomic<Int>
    /// Whether taps write this chunk (audio thread only).
    var isActive: Bool

    /// Audio thread, once per chunk before any tap writes: takes the latest request.
    @inline(__always)
    mutating func sample() {
        let request = requested.load(ordering: .acquiring)
        isActive = request & 1 == 1
        if acknowledged.load(ordering: .relaxed) != request { acknowledged.store(request, ordering: .releasing) }
    }
}

/// Arms and disarms every tap of a recording at once: the audio thread samples the switch once per
/// chunk, so all taps of a take start and stop on the same frame.
public final class TapSwitch: @unchecked Sendable {
    let state: UnsafeMutablePointer<TapSwitchState>

    /// A switch that starts off.
    public init() {
        state = .allocate(capacity: 1)
        state.initialize(to: TapSwitchState(requested: .create(0), acknowledged: .create(0), isActive: false))
    }

    deinit {
        state.pointee.requested.destroy()
        state.pointee.acknowledged.destroy()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Whether taps were last asked to write.
    public var isOn: Bool { state.pointee.requested.load(ordering: .relaxed) & 1 == 1 }

    /// Asks the audio thread to start (or stop) writing at its next chunk; returns at once.
    public func request(on: Bool) {
        let current = state.pointee.requested.load(ordering: .relaxed)
        if (current & 1 == 1) != on { state.pointee.requested.store(current + 1, ordering: .releasing) }
    }

    /// Whether the audio thread has acted on the latest request (after it, no tap writes under the old state).
    public var isSettled: Bool {
        state.pointee.acknowledged.load(ordering: .acquiring) == state.pointee.requested.load(ordering: .relaxed)
    }
}
