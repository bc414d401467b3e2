// The control thread that drains the MIDI ring the audio thread fills and hands messages to a MIDIController. Non-realtime.
import Foundation
package import FoldbackEngine
package import FoldbackPresets

/// Polls a message source every millisecond on its own thread and passes each message to the controller.
/// The audio thread only copies bytes into a ring; decoding and ``Engine/set(_:to:)`` happen here, since the
/// engine's parameter ring has a single producer and the audio thread must not be it.
package final class MIDIInputLoop: @unchecked Sendable {
    /// The controller messages go to.
    package let controller: MIDIController
    private let source: @Sendable () -> MIDIMessage?
    private let stopped = NSCondition()
    private var isStopping = false
    private var isFinished = false

    /// Starts the thread. `source` returns the next message or nil (``FoldbackJACK/JACKHost/nextMIDIMessage()``).
    package init(controller: MIDIController, source: @escaping @Sendable () -> MIDIMessage?) {
        self.controller = controller
        self.source = source
        let thread = Thread { [self] in run() }
        thread.name = "foldback-midi"
        thread.start()
    }

    private func run() {
        while !stopped.withLock({ isStopping }) {
            while let message = source() { controller.handle(message) }
            usleep(1_000)
        }
        stopped.withLock {
            isFinished = true
            stopped.broadcast()
        }
    }

    /// Stops the thread and waits for it to finish. Safe to call twice.
    package func stop() {
        stopped.withLock {
            isStopping = true
            while !isFinished { stopped.wait() }
        }
    }
}
