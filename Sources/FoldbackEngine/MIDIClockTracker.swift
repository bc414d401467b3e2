// MIDI clock (24 ticks per quarter note, start/continue/stop) turned into a tick interval in fixed-size state. Realtime: receive/advance; reading is non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics

/// Follows a MIDI clock on the audio thread without allocating: each clock byte's frame time goes into a
/// fixed ring of the last ``ticksPerQuarter`` + 1 ticks, and the average tick interval over up to one quarter
/// note is published through atomics for a control thread to turn into a tempo (``tempo(sampleRate:)``).
///
/// `0xFA` start and `0xFB` continue clear the history and mark the clock running; `0xFC` stop clears it and
/// marks it stopped; a tick more than 8 average intervals after the last one starts a new history (a clock
/// that paused). Storage is allocated by ``init()`` and freed by ``destroy()``.
public struct MIDIClockTracker: @unchecked Sendable {
    /// MIDI clock ticks per quarter note.
    public static let ticksPerQuarter = 24
    private static let slots = ticksPerQuarter + 1

    private struct History {
        var frame = 0          // frames counted since the tracker was made: the current cycle's first frame
        var count = 0          // ticks in the history (at most `slots`)
        var next = 0           // the slot the next tick goes into
        var interval = 0.0     // the average tick interval, frames
    }

    private let history: UnsafeMutablePointer<History>
    private let times: UnsafeMutablePointer<Int>
    private let published: UnsafeAtomic<UInt64>   // Double bits of the average interval, 0 while unknown
    private let ticks: UnsafeAtomic<Int>
    private let running: UnsafeAtomic<Bool>

    /// A tracker with no clock yet.
    public init() {
        history = .allocate(capacity: 1)
        history.initialize(to: History())
        times = .allocate(capacity: Self.slots)
        times.initialize(repeating: 0, count: Self.slots)
        published = .create(0)
        ticks = .create(0)
        running = .create(false)
    }

    /// Frees the storage; no thread may use the tracker afterwards.
    public func destroy() {
        history.deinitialize(count: 1).deallocate()
        times.deallocate()
        published.destroy()
        ticks.destroy()
        running.destroy()
    }

    /// Audio thread: a one-byte realtime message `status` at frame `offset` of the current cycle (clock, start,
    /// continue, stop; others are ignored).
    public func receive(_ status: UInt8, offset: Int) {
        switch status {
        case 0xF8: tick(at: history.pointee.frame + offset)
        case 0xFA, 0xFB:
            clear()
            running.store(true, ordering: .relaxed)
        case 0xFC:
            clear()
            running.store(false, ordering: .relaxed)
        default: break
        }
    }

    /// Audio thread: the cycle of `frames` frames is over (call once per cycle, after its messages).
    public func advance(frames: Int) {
        history.pointee.frame &+= frames
    }

    private func clear() {
        history.pointee.count = 0
        history.pointee.interval = 0
        published.store(0, ordering: .relaxed)
    }

    private func tick(at frame: Int) {
        let state = history
        if state.pointee.count > 0 {
            let last = times[(state.pointee.next + Self.slots - 1) % Self.slots]
            if state.pointee.interval > 0, Double(frame - last) > 8 * state.pointee.interval { state.pointee.count = 0 }
        }
        times[state.pointee.next] = frame
        state.pointee.next = (state.pointee.next + 1) % Self.slots
        state.pointee.count = min(state.pointee.count + 1, Self.slots)
        let spans = state.pointee.count - 1
        if spans >= 1 {
            let oldest = times[(state.pointee.next + Self.slots - 1 - spans) % Self.slots]
            state.pointee.interval = Double(frame - oldest) / Double(spans)
            published.store(state.pointee.interval.bitPattern, ordering: .relaxed)
        }
        ticks.wrappingIncrement(ordering: .relaxed)
    }

    /// Clock ticks received so far (a follower sees the clock is alive when this moves).
    public var tickCount: Int { ticks.load(ordering: .relaxed) }

    /// Whether the last start/continue/stop said the clock runs (a clock sending ticks without start counts too).
    public var isRunning: Bool { running.load(ordering: .relaxed) }

    /// The clock's tempo in BPM at `sampleRate`, from the average tick interval over up to one quarter note;
    /// nil before two ticks.
    public func tempo(sampleRate: Double) -> Double? {
        let interval = Double(bitPattern: published.load(ordering: .relaxed))
        guard interval > 0 else { return nil }
        return 60 * sampleRate / (interval * Double(Self.ticksPerQuarter))
    }
}
