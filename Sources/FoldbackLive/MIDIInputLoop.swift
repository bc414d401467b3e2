// The control thread that drains the MIDI ring the audio thread fills and hands messages to a MIDIController. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackEngine
package import FoldbackPresets
import Synchronization

/// Polls a message source on its own thread and passes each message to the controller: every millisecond
/// while MIDI is moving (for ``busyDuration`` after the last message), every ``idlePeriod`` when nothing has
/// arrived for longer (a tenth of the wake-ups of an idle show; only the first message after a pause waits
/// up to that long). While nothing is connected to the MIDI input (``updateConnection(_:)``, on every connection change
/// the JACK host reports) no message can arrive: the thread drains what is left and sleeps until woken by a
/// connection. The audio thread only copies bytes into a ring; decoding and ``Engine/set(_:to:)``
/// happen here, since the engine's parameter ring has a single producer and the audio thread must not be it.
package final class MIDIInputLoop: @unchecked Sendable {
    /// The poll period while MIDI is moving.
    package static let busyPeriod = Duration.milliseconds(1)
    /// The poll period after ``busyDuration`` without a message.
    package static let idlePeriod = Duration.milliseconds(10)
    /// How long after a message the loop keeps polling every ``busyPeriod``.
    package static let busyDuration = Duration.seconds(2)
    /// The controller messages go to.
    package let controller: MIDIController
    private let worker: PeriodicWorker
    private let state: LoopState
    private let connectionLock = Mutex(())

    /// What the thread and the callers share.
    private final class LoopState: Sendable {
        /// Whether the MIDI input has a connection (until told otherwise: yes, so the loop polls).
        let isConnected = Atomic(true)
        /// Times the loop ran (drained the ring), for tests of its sleep.
        let runs = Atomic(0)
    }

    /// Starts the thread. `source` returns the next message or nil (``FoldbackJACK/JACKHost/nextMIDIMessage()``).
    package init(controller: MIDIController, source: @escaping @Sendable () -> MIDIMessage?) {
        self.controller = controller
        // The audio thread fills the ring and cannot wake anyone: drained on a period. Only this thread
        // touches `lastMessage`.
        let clock = ContinuousClock()
        nonisolated(unsafe) var lastMessage = clock.now - Self.busyDuration
        let state = LoopState()
        self.state = state
        worker = PeriodicWorker(name: "fb-midi") {
            state.runs.add(1, ordering: .relaxed)
            while let message = source() {
                controller.handle(message)
                lastMessage = clock.now
            }
            if clock.now - lastMessage < Self.busyDuration { return .after(Self.busyPeriod) }
            return state.isConnected.load(ordering: .acquiring) ? .after(Self.idlePeriod) : .whenWoken
        }
        worker.start()
    }

    /// Tells the loop whether anything is connected to the MIDI input, as `read` says now (from any thread but the
    /// audio thread): it wakes to drain what arrived, and sleeps after that until the next call while nothing is
    /// connected. Calls from two threads are taken one at a time, so the last one's reading stands.
    package func updateConnection(_ read: () -> Bool) {
        connectionLock.withLock { _ in state.isConnected.store(read(), ordering: .releasing) }
        worker.wake()
    }

    /// How many times the thread has run so far.
    package var runCount: Int { state.runs.load(ordering: .relaxed) }

    /// Stops the thread and waits for it to finish. Safe to call twice.
    package func stop() { worker.stop() }
}
