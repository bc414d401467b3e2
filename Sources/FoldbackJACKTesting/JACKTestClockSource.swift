// JACK test clients that keep a tempo: a MIDI clock sender (start, then 24 ticks per quarter at exact frames) and a JACK transport timebase master. Realtime: their callbacks; setup is non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CJack
public import FoldbackJACK

/// A drum machine stand-in: sends MIDI start, then clock ticks at `bpm` on `midi_out`, each at its exact frame
/// (the tick interval 60 · rate / (24 · bpm) frames, fractional, carried from cycle to cycle).
public final class JACKTestMIDIClock: @unchecked Sendable {
    private struct Context {
        var port: OpaquePointer
        var interval: Double
        var nextTick = 0.0
        var cycleStart = 0.0
        var started = false
    }

    /// The client.
    public let client: JACKClient
    /// The MIDI output port.
    public let port: JACKPort
    private let context: UnsafeMutablePointer<Context>
    private let events = JACKClientEvents()

    /// Opens the client, registers `midi_out` and starts the clock at `bpm`.
    public init(name: String, serverName: String?, bpm: Double) throws(JACKError) {
        client = try JACKClient(name: name, serverName: serverName)
        port = try client.registerMIDIPort("midi_out", direction: .output)
        context = .allocate(capacity: 1)
        context.initialize(to: Context(port: port.handle, interval: 60 * client.sampleRate / (24 * bpm)))
        try client.startProcessing(Self.process, context: context, events: events)
    }

    deinit {
        close()
        context.deinitialize(count: 1).deallocate()
    }

    /// Connects `midi_out` to the MIDI input port named `destination`.
    public func connect(to destination: String) -> JACKConnectionWarning? {
        client.connect(from: port.name, to: destination)
    }

    /// Closes the client. Safe to call twice.
    public func close() { client.close() }

    private static let process: @convention(c) (jack_nframes_t, UnsafeMutableRawPointer?) -> Int32 = { frames, arg in
        guard let context = arg?.assumingMemoryBound(to: Context.self),
              let buffer = jack_port_get_buffer(context.pointee.port, frames) else { return 0 }
        jack_midi_clear_buffer(buffer)
        var byte: jack_midi_data_t = 0xFA
        if !context.pointee.started {
            jack_midi_event_write(buffer, 0, &byte, 1)
            context.pointee.started = true
        }
        let end = context.pointee.cycleStart + Double(frames)
        byte = 0xF8
        while context.pointee.nextTick < end {
            let offset = max(0, Int(context.pointee.nextTick.rounded(.down) - context.pointee.cycleStart))
            jack_midi_event_write(buffer, jack_nframes_t(offset), &byte, 1)
            context.pointee.nextTick += context.pointee.interval
        }
        context.pointee.cycleStart = end
        return 0
    }
}

/// A click-track player stand-in: the JACK transport timebase master at `bpm` (4/4), transport rolling.
public final class JACKTestTimebaseMaster: @unchecked Sendable {
    /// The client.
    public let client: JACKClient
    private let tempo: UnsafeMutablePointer<Double>
    private let events = JACKClientEvents()

    /// Opens the client, becomes timebase master at `bpm` and starts the transport.
    public init(name: String, serverName: String?, bpm: Double) throws(JACKError) {
        client = try JACKClient(name: name, serverName: serverName)
        tempo = .allocate(capacity: 1)
        tempo.initialize(to: bpm)
        try client.startProcessing(Self.process, context: tempo, events: events)
        guard jack_set_timebase_callback(client.handle, 0, Self.timebase, tempo) == 0 else {
            throw .clientClosed(clientName: "\(client.actualName) (could not become timebase master)")
        }
        jack_transport_start(client.handle)
    }

    deinit {
        close()
        tempo.deallocate()
    }

    /// Stops the transport, gives up timebase mastership and closes the client. Safe to call twice.
    public func close() {
        if !client.isClosed {
            jack_transport_stop(client.handle)
            _ = jack_release_timebase(client.handle)
        }
        client.close()
    }

    private static let process: @convention(c) (jack_nframes_t, UnsafeMutableRawPointer?) -> Int32 = { _, _ in 0 }

    private static let timebase: @convention(c) (jack_transport_state_t, jack_nframes_t, UnsafeMutablePointer<jack_position_t>?, Int32, UnsafeMutableRawPointer?) -> Void = {
        _, _, position, _, arg in
        guard let position, let bpm = arg?.assumingMemoryBound(to: Double.self).pointee else { return }
        let beats = Double(position.pointee.frame) / Double(position.pointee.frame_rate) * bpm / 60
        position.pointee.valid = JackPositionBBT
        position.pointee.beats_per_bar = 4
        position.pointee.beat_type = 4
        position.pointee.ticks_per_beat = 1920
        position.pointee.beats_per_minute = bpm
        position.pointee.bar = Int32(beats / 4) + 1
        position.pointee.beat = Int32(beats.truncatingRemainder(dividingBy: 4)) + 1
        position.pointee.tick = Int32((beats - beats.rounded(.down)) * 1920)
        position.pointee.bar_start_tick = 0
    }
}
