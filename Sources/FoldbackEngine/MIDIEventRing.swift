// Short MIDI messages and the fixed-size ring that carries them off the audio thread. Realtime-safe push/pop.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A channel message of up to three bytes (note, CC, program change…), as read from a MIDI port.
public struct MIDIMessage: Sendable, Hashable, BitwiseCopyable {
    /// The status byte (`0xB0` | channel for a control change).
    public var status: UInt8
    /// The first data byte (controller or program number), 0 if the message has none.
    public var data1: UInt8
    /// The second data byte (controller value), 0 if the message has none.
    public var data2: UInt8

    /// A message from its bytes.
    public init(status: UInt8, data1: UInt8 = 0, data2: UInt8 = 0) {
        self.status = status
        self.data1 = data1
        self.data2 = data2
    }

    /// A control change; `channel` is 1…16 as controllers show it.
    public static func controlChange(channel: Int, controller: Int, value: Int) -> MIDIMessage {
        MIDIMessage(status: 0xB0 | UInt8((channel - 1) & 0x0F), data1: UInt8(controller & 0x7F), data2: UInt8(value & 0x7F))
    }

    /// A program change; `channel` is 1…16, `program` 0…127 (controllers often show it as 1…128).
    public static func programChange(channel: Int, program: Int) -> MIDIMessage {
        MIDIMessage(status: 0xC0 | UInt8((channel - 1) & 0x0F), data1: UInt8(program & 0x7F))
    }

    /// A note-on; `channel` is 1…16, `note` and `velocity` 0…127 (velocity 0 is a note-off by the MIDI standard).
    public static func noteOn(channel: Int, note: Int, velocity: Int) -> MIDIMessage {
        MIDIMessage(status: 0x90 | UInt8((channel - 1) & 0x0F), data1: UInt8(note & 0x7F), data2: UInt8(velocity & 0x7F))
    }

    /// A note-off; `channel` is 1…16, `note` 0…127.
    public static func noteOff(channel: Int, note: Int, velocity: Int = 0) -> MIDIMessage {
        MIDIMessage(status: 0x80 | UInt8((channel - 1) & 0x0F), data1: UInt8(note & 0x7F), data2: UInt8(velocity & 0x7F))
    }

    /// The channel, 1…16.
    public var channel: Int { Int(status & 0x0F) + 1 }
    /// Whether this is a note-on or a note-off (a note-on of velocity 0 included).
    public var isNote: Bool { status & 0xF0 == 0x90 || status & 0xF0 == 0x80 }
    /// Whether this is a note-on with a velocity above 0 (a key or pad pressed).
    public var isNotePressed: Bool { status & 0xF0 == 0x90 && data2 > 0 }
    /// Whether this is a control change.
    public var isControlChange: Bool { status & 0xF0 == 0xB0 }
    /// Whether this is a program change.
    public var isProgramChange: Bool { status & 0xF0 == 0xC0 }
    /// How many bytes the message has on the wire (1 to 3).
    public var length: Int {
        switch status & 0xF0 {
        case 0xC0, 0xD0: return 2
        case 0xF0: return 1
        default: return 3
        }
    }
}

/// A lock-free ring of ``MIDIMessage``s from exactly one producer (the audio thread) to one consumer.
///
/// Storage is allocated by ``init(capacity:)`` and freed by ``destroy()``; push and pop never allocate,
/// lock or make system calls, so the producer may be a realtime thread.
public struct MIDIEventRing: @unchecked Sendable {
    private let ring: SPSCRing<MIDIMessage>

    /// A ring holding at least `capacity` messages.
    public init(capacity: Int) {
        ring = SPSCRing(capacity: capacity)
    }

    /// Frees the storage; no thread may use the ring afterwards.
    public func destroy() { ring.destroy() }

    /// Producer: appends `message`; false (message dropped) when full. Realtime-safe.
    public func push(_ message: MIDIMessage) -> Bool { ring.push(message) }

    /// Consumer: the oldest message, or nil when empty.
    public func pop() -> MIDIMessage? { ring.pop() }
}
