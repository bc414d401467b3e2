// The JACK process and thread-init callbacks that run the engine, and the state they read. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
import CFoldback
import CJack
import FoldbackEngine

/// Everything the process callback touches, allocated once by ``JACKHost``: no Swift objects,
/// no reference counting, only raw pointers into memory the host and engine keep alive.
struct JACKHostProcess {
    var inputs: PortSlotTable
    var outputs: PortSlotTable
    var io: UnsafeMutablePointer<RealtimeIO>
    var cycleContext: UnsafeMutableRawPointer
    var cycleFunction: @convention(c) (UnsafeMutableRawPointer?, UInt32) -> Void
    /// Completed cycles; the owner waits for it to advance before unregistering a port.
    var cycles: UnsafeAtomic<Int>
    /// The number of the cycle under way (``cycles`` + 1 from its start), and its length in frames: with
    /// ``cycles``, how the process watchdog tells a cycle that does not end (`JACKProcessWatchdog.swift`).
    var started: UnsafeAtomic<Int>
    var frames: UnsafeAtomic<Int>
    /// The MIDI input port and the ring its messages go to.
    var midi: JACKMIDICapture
    /// Whether an input port without connections is handed to the engine as absent (nil: it reads its own
    /// zeros, exactly what JACK would give) instead of asking JACK for its buffer, which JACK zeroes each
    /// cycle: see ``asksConnections``.
    var skipsUnconnectedInputs = false

    /// Whether this process's libjack answers `jack_port_connected` on the process thread without a lock or a
    /// wait: jackd2's (1.9.x; it reads the graph state of the running cycle, as `jack_port_get_buffer` does).
    /// Not PipeWire's libjack (it takes a mutex and walks a list) nor another implementation.
    static var asksConnections: Bool {
        guard !PipeWirePresence.isLibjackPipeWires, let version = jack_get_version_string() else { return false }
        return String(cString: version).hasPrefix("1.9.")
    }

    /// The JACK process callback: the whole cycle runs inside fb_realtime_cycle, so RealtimeSanitizer
    /// and the allocation counter see the port lookups as well as the engine. When callback timing is
    /// on (`foldback bench --live`), the cycle is timed with the monotonic clock into a static histogram.
    static let process: @convention(c) (jack_nframes_t, UnsafeMutableRawPointer?) -> Int32 = { frames, arg in
        let start = fb_callback_timing_start()
        fb_realtime_cycle(cycle, arg, frames)
        fb_callback_timing_stop(start)
        return 0
    }

    /// Points the engine's IO tables at this cycle's port buffers, runs the engine, counts the cycle.
    static let cycle: @convention(c) (UnsafeMutableRawPointer?, UInt32) -> Void = { arg, frames in
        guard let state = arg?.assumingMemoryBound(to: JACKHostProcess.self) else { return }
        state.pointee.started.store(state.pointee.cycles.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        state.pointee.frames.store(Int(frames), ordering: .relaxed)
        let io = state.pointee.io
        var used = 0
        let skipsUnconnected = state.pointee.skipsUnconnectedInputs
        for channel in 0..<state.pointee.inputs.count {
            if let port = state.pointee.inputs.load(channel), !(skipsUnconnected && jack_port_connected(port) == 0),
               let buffer = jack_port_get_buffer(port, frames) {
                io.pointee.inputs[channel] = UnsafePointer(buffer.assumingMemoryBound(to: Float.self))
                used = channel + 1
            } else {
                io.pointee.inputs[channel] = nil
            }
        }
        io.pointee.inputCount = used
        used = 0
        for channel in 0..<state.pointee.outputs.count {
            if let port = state.pointee.outputs.load(channel), let buffer = jack_port_get_buffer(port, frames) {
                io.pointee.outputs[channel] = buffer.assumingMemoryBound(to: Float.self)
                used = channel + 1
            } else {
                io.pointee.outputs[channel] = nil
            }
        }
        io.pointee.outputCount = used
        state.pointee.midi.capture(frames: frames)
        state.pointee.cycleFunction(state.pointee.cycleContext, frames)
        state.pointee.cycles.wrappingIncrement(ordering: .releasing)
    }

    /// Runs once on each thread JACK creates for the client, before its first cycle.
    static let threadInit: @convention(c) (UnsafeMutableRawPointer?) -> Void = { _ in
        fb_realtime_enable_ftz_daz()
    }
}
