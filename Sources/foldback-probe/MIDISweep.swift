// Sends a steady stream of MIDI (a CC sweep and program changes) into a port while the probe plays. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackJACK
import FoldbackJACKTesting
import Foundation

/// A `JACKTestMIDISender` fed from its own thread: every 10 ms controllers 1–8 on channel 1 step through
/// 0…127, and every 100th step a program change goes out, so the receiver's MIDI path runs all the time.
final class MIDISweep: @unchecked Sendable {
    private let sender: JACKTestMIDISender
    private let condition = NSCondition()
    private var isStopping = false
    private var isFinished = false

    /// Opens `<name>-midi`, connects it to `port` and starts sending.
    init(name: String, serverName: String?, port: String) throws(JACKError) {
        sender = try JACKTestMIDISender(name: "\(name)-midi", serverName: serverName)
        if let warning = sender.connect(to: port) { throw .invalidArgument("\(warning)") }
        Thread.detachNewThread { [self] in run() }
    }

    private func run() {
        var step = 0
        while !condition.withLock({ isStopping }) {
            for controller in 1...8 {
                sender.send(.controlChange(channel: 1, controller: controller, value: (step + controller * 16) % 128))
            }
            if step % 100 == 99 { sender.send(.programChange(channel: 1, program: step / 100 % 128)) }
            step += 1
            usleep(10_000)
        }
        condition.withLock {
            isFinished = true
            condition.broadcast()
        }
    }

    /// Stops sending and closes the client.
    func stop() {
        condition.withLock {
            isStopping = true
            while !isFinished { condition.wait() }
        }
        sender.close()
    }
}
