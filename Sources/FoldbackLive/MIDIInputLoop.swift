// The control thread that drains the MIDI ring the audio thread fills and hands messages to a MIDIController. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackEngine
package import FoldbackPresets

/// Polls a message source on its own thread and passes each message to the controller: every millisecond
/// while MIDI is moving (for ``busyDuration`` after the last message), every ``idlePeriod`` when nothing has
/// arrived for longer (a tenth of the wake-ups of an idle show; only the first message after a pause waits
/// up to that long). The audio thread only copies bytes into a ring; decoding and ``Engine/set(_:to:)``
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

    /// Starts the thread. `source` returns the next message or nil (``FoldbackJACK/JACKHost/nextMIDIMessage()``).
    package init(controller: MIDIController, source: @escaping @Sendable () -> MIDIMessage?) {
        self.controller = controller
        // The audio thread fills the ring and cannot wake anyone: drained on a period. Only this thread
        // touches `lastMessage`.
        let clock = ContinuousClock()
        nonisolated(unsafe) var lastMessage = clock.now - Self.busyDuration
        worker = PeriodicWorker(name: "fb-midi") {
            while let message = source() {
                controller.handle(message)
                lastMessage = clock.now
            }
            return .after(clock.now - lastMessage < Self.busyDuration ? Self.busyPeriod : Self.idlePeriod)
        }
        worker.start()
    }

    /// Stops the thread and waits for it to finish. Safe to call twice.
    package func stop() { worker.stop() }
}
