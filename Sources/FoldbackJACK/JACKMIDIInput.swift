// The MIDI input the process callback copies into a ring, and the host API that registers and drains it. Realtime: capture(frames:); the rest is non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
import CFoldback
import CJack
public import FoldbackEngine

/// What the process callback needs to read the MIDI input port: one atomic port slot, the ring it
/// copies the cycle's messages into, and a count of messages the full ring dropped. Allocated once
/// with the host; the port stays empty (and capture does nothing) until ``JACKHost/registerMIDIInput(named:)``.
struct JACKMIDICapture {
    /// Messages the ring holds; a controller sweep sends a few hundred per second, so this is seconds' worth.
    static let ringCapacity = 4_096

    var port: PortSlotTable
    var ring: MIDIEventRing
    var dropped: UnsafeAtomic<Int>
    /// MIDI clock on the port (ticks, start, stop), followed in fixed-size state.
    var clock: MIDIClockTracker

    init() {
        port = PortSlotTable(count: 1)
        ring = MIDIEventRing(capacity: Self.ringCapacity)
        dropped = .create(0)
        clock = MIDIClockTracker()
    }

    func deallocate() {
        port.deallocate()
        ring.destroy()
        dropped.destroy()
        clock.destroy()
    }

    /// Copies this cycle's channel messages (note, CC, program change…; not SysEx) into the ring, and hands
    /// clock, start, continue and stop bytes to ``clock``. Realtime: no allocation, no locks, no system calls.
    @inline(__always)
    func capture(frames: UInt32) {
        defer { clock.advance(frames: Int(frames)) }
        guard let handle = port.load(0), let buffer = jack_port_get_buffer(handle, frames) else { return }
        let count = jack_midi_get_event_count(buffer)
        var event = jack_midi_event_t()
        var index: UInt32 = 0
        while index < count {
            defer { index += 1 }
            guard jack_midi_event_get(&event, buffer, index) == 0, let bytes = event.buffer,
                  event.size >= 1, event.size <= 3 else { continue }
            let status = bytes[0]
            if status >= 0xF8 {
                clock.receive(status, offset: Int(event.time))
                continue
            }
            guard status >= 0x80, status < 0xF0 else { continue }
            let message = MIDIMessage(
                status: status, data1: event.size > 1 ? bytes[1] : 0, data2: event.size > 2 ? bytes[2] : 0)
            if !ring.push(message) { dropped.wrappingIncrement(ordering: .relaxed) }
        }
    }
}

extension JACKHost {
    /// The default name of the MIDI input port.
    public static let midiInputPortName = "midi_in"

    /// Registers the JACK MIDI input port (once; later calls return the same port). From then on every
    /// process cycle copies the port's channel messages into a ring that ``nextMIDIMessage()`` drains.
    /// - Throws: ``JACKError/portRegistrationFailed(port:)`` (for example when an audio port has that name).
    @discardableResult
    public func registerMIDIInput(named shortName: String = JACKHost.midiInputPortName) throws(JACKError) -> JACKPort {
        if let existing = midiInputPort { return existing }
        let port = try client.registerMIDIPort(shortName, direction: .input)
        process.pointee.midi.port.store(port.handle, at: 0)
        midiInputPort = port
        return port
    }

    /// Whether anything is connected to the MIDI input port (false before ``registerMIDIInput(named:)``). Call it off
    /// the audio thread while the client is open, e.g. from ``observeMIDIInputConnections(_:)``'s handler.
    public var isMIDIInputConnected: Bool { midiInputPort.map { jack_port_connected($0.handle) > 0 } ?? false }

    /// Calls `changed` on JACK's notification thread after every connection made or broken in the server's graph
    /// (also those ``reopen()`` restores); nil stops. What drains the MIDI ring can read ``isMIDIInputConnected``
    /// there and sleep while nothing is connected: no message can arrive then.
    public func observeConnections(_ changed: (@Sendable () -> Void)?) { notifications.observeConnections(changed) }

    /// The oldest MIDI message received and not yet taken, or nil. Call from one non-realtime thread.
    public func nextMIDIMessage() -> MIDIMessage? { process.pointee.midi.ring.pop() }

    /// The tempo of the MIDI clock on the MIDI input in BPM (averaged over up to a quarter note), and its tick
    /// count (it moves while the clock runs); nil tempo before two ticks.
    public var midiClock: (bpm: Double?, ticks: Int) {
        let clock = process.pointee.midi.clock
        return (clock.tempo(sampleRate: sampleRate), clock.tickCount)
    }

    /// The tempo in BPM of JACK transport's timebase master (``JACKClient/transportTempo``).
    public var transportTempo: Double? { client.transportTempo }

    /// Messages lost because nobody drained the ring fast enough.
    public var droppedMIDIMessageCount: Int { process.pointee.midi.dropped.load(ordering: .relaxed) }
}

extension JACKClient {
    /// Registers a MIDI port (`JACK_DEFAULT_MIDI_TYPE`).
    public func registerMIDIPort(_ shortName: String, direction: JACKPortDirection) throws(JACKError) -> JACKPort {
        guard !isClosed else { throw .clientClosed(clientName: actualName) }
        let flags = direction == .input ? JackPortIsInput : JackPortIsOutput
        guard let port = jack_port_register(handle, shortName, JACK_DEFAULT_MIDI_TYPE, UInt(flags.rawValue), 0) else {
            throw .portRegistrationFailed(port: "\(actualName):\(shortName)")
        }
        return JACKPort(handle: port, name: String(cString: jack_port_name(port)), shortName: shortName, direction: direction)
    }
}
