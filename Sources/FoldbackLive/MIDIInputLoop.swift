// The control thread that drains the MIDI ring the audio thread fills and hands messages to a MIDIController. Non-realtime.
package import FoldbackEngine
package import FoldbackPresets

/// Polls a message source every millisecond on its own thread and passes each message to the controller.
/// The audio thread only copies bytes into a ring; decoding and ``Engine/set(_:to:)`` happen here, since the
/// engine's parameter ring has a single producer and the audio thread must not be it.
package final class MIDIInputLoop: @unchecked Sendable {
    /// The controller messages go to.
    package let controller: MIDIController
    private let worker: PeriodicWorker

    /// Starts the thread. `source` returns the next message or nil (``FoldbackJACK/JACKHost/nextMIDIMessage()``).
    package init(controller: MIDIController, source: @escaping @Sendable () -> MIDIMessage?) {
        self.controller = controller
        // The audio thread fills the ring and cannot wake anyone: drained every millisecond.
        worker = PeriodicWorker(name: "fb-midi", period: .milliseconds(1)) {
            while let message = source() { controller.handle(message) }
        }
        worker.start()
    }

    /// Stops the thread and waits for it to finish. Safe to call twice.
    package func stop() { worker.stop() }
}
