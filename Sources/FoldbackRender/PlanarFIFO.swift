// A first-in first-out store of planar audio for offline render inputs: filled a piece at a time, drained a block at a time. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// One buffer per channel, with the unread frames kept between `head` and `head + count`. Appending moves
/// the unread frames to the front only when the room behind them runs out, and grows the buffers only when a
/// piece is larger than any before: draining blocks never copies or allocates beyond the block itself.
final class PlanarFIFO {
    let channels: Int
    private var buffers: [UnsafeMutablePointer<Float>]
    private var capacity: Int
    private var head = 0
    /// Unread frames.
    private(set) var count = 0

    init(channels: Int, capacity: Int) {
        self.channels = max(1, channels)
        self.capacity = max(1, capacity)
        buffers = (0..<self.channels).map { _ in .allocate(capacity: max(1, capacity)) }
    }

    deinit { buffers.forEach { $0.deallocate() } }

    /// Makes room for `frames` more frames and lets `write` fill them: it gets one pointer per channel to
    /// where they go (`channels` of them) and returns how many it wrote.
    func append(upTo frames: Int, _ write: (UnsafePointer<UnsafeMutablePointer<Float>>) -> Int) {
        if head + count + frames > capacity {
            if count + frames > capacity { grow(to: max(count + frames, capacity * 2)) }
            for buffer in buffers where count > 0 { buffer.update(from: buffer + head, count: count) }
            head = 0
        }
        let tails = buffers.map { $0 + head + count }
        let written = tails.withUnsafeBufferPointer { write($0.baseAddress!) }
        count += min(max(written, 0), frames)
    }

    /// Copies the next `frames` frames (at most `count`) into `destinations` and drops them; returns how many.
    func take(_ frames: Int, into destinations: [UnsafeMutablePointer<Float>]) -> Int {
        let taken = min(frames, count)
        for channel in 0..<channels { destinations[channel].update(from: buffers[channel] + head, count: taken) }
        head += taken
        count -= taken
        if count == 0 { head = 0 }
        return taken
    }

    private func grow(to newCapacity: Int) {
        buffers = buffers.map { old in
            let new = UnsafeMutablePointer<Float>.allocate(capacity: newCapacity)
            new.update(from: old + head, count: count)
            old.deallocate()
            return new
        }
        head = 0
        capacity = newCapacity
    }
}
