// Meter levels as compact binary WebSocket frames: a page's meters by index, only those that changed since its last frame. Non-realtime (the push thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackDSP
import FoldbackEngine
import Foundation

/// Every strip's and bus's `[peak, rms]` of one meter tick in tenths of a dB (as the JSON meters round them,
/// floored at ``MeterFeed/floorDB``), quantised once for every page.
struct WebLevels: Equatable {
    /// `strip/<name>` for each strip, then `bus/<name>` for each bus, in the engine's order (app.js's meter keys).
    var keys: [String]
    /// Peak then RMS of each key, tenths of a dB.
    var tenths: [Int16]

    init(_ snapshot: MeterSnapshot) {
        keys = snapshot.strips.map { "strip/" + $0.name } + snapshot.buses.map { "bus/" + $0.name }
        tenths = []
        tenths.reserveCapacity(keys.count * 2)
        for reading in snapshot.strips.map(\.reading) + snapshot.buses.map(\.reading) {
            tenths.append(Self.tenths(reading.peak))
            tenths.append(Self.tenths(reading.rms))
        }
    }

    private static func tenths(_ linear: Float) -> Int16 {
        let decibels = Decibels.decibels(fromLinearGain: linear)
        guard decibels.isFinite else { return Int16(MeterFeed.floorDB * 10) }
        return Int16((min(max(decibels, MeterFeed.floorDB), 3000) * 10).rounded())
    }

    /// The positions in ``keys`` of the meters `role` sees of state `seen` (a musician: the strips feeding their bus,
    /// then the bus; the engineer: all), and their keys.
    func layout(for role: WebRole, seen: WebState) -> (indices: [Int], keys: [String]) {
        guard case .musician = role else { return (Array(keys.indices), keys) }
        let shown = Set(seen.strips.map { "strip/" + $0.name } + seen.buses.map { "bus/" + $0.name })
        let indices = keys.indices.filter { shown.contains(keys[$0]) }
        return (indices, indices.map { keys[$0] })
    }
}

/// One binary frame of levels, little-endian: a kind byte (1), a reserved byte, the 16-bit layout id the page
/// learnt from its last `meterkeys` message, then per meter that changed 6 bytes: its 16-bit position in that
/// layout, its peak and its RMS as signed 16-bit tenths of a dB. docs/web.md describes it for other clients.
enum WebMeterFrame {
    /// The first byte of a levels frame.
    static let kind: UInt8 = 1
    /// Bytes before the first entry, and per entry.
    static let headerBytes = 4, entryBytes = 6

    /// The frame of `levels` at `indices` for a page last sent `sent` (peak, RMS per position; empty: nothing yet,
    /// so every meter goes), or nil when nothing changed; `sent` becomes what the page now shows.
    static func encode(layout: Int, indices: [Int], levels: WebLevels, sent: inout [Int16]) -> Data? {
        if sent.count != indices.count * 2 { sent = [] }
        var bytes: [UInt8] = [kind, 0]
        append(UInt16(truncatingIfNeeded: layout), to: &bytes)
        for (position, index) in indices.enumerated() where index * 2 + 1 < levels.tenths.count {
            let peak = levels.tenths[index * 2], rms = levels.tenths[index * 2 + 1]
            if !sent.isEmpty, sent[position * 2] == peak, sent[position * 2 + 1] == rms { continue }
            append(UInt16(truncatingIfNeeded: position), to: &bytes)
            append(UInt16(bitPattern: peak), to: &bytes)
            append(UInt16(bitPattern: rms), to: &bytes)
        }
        let changed = bytes.count > headerBytes
        sent = indices.flatMap { index in index * 2 + 1 < levels.tenths.count ? [levels.tenths[index * 2], levels.tenths[index * 2 + 1]] : [0, 0] }
        return changed ? Data(bytes) : nil
    }

    /// The levels a frame carries, by position: what a page does with one (tests; app.js decodes the same).
    static func decode(_ data: Data) -> (layout: Int, levels: [Int: (peak: Float, rms: Float)])? {
        let bytes = [UInt8](data)
        guard bytes.count >= headerBytes, bytes[0] == kind, (bytes.count - headerBytes) % entryBytes == 0 else { return nil }
        func word(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        var levels: [Int: (peak: Float, rms: Float)] = [:]
        for start in stride(from: headerBytes, to: bytes.count, by: entryBytes) {
            levels[Int(word(start))] = (Float(Int16(bitPattern: word(start + 2))) / 10, Float(Int16(bitPattern: word(start + 4))) / 10)
        }
        return (Int(word(2)), levels)
    }

    private static func append(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes.append(UInt8(value & 0xFF))
        bytes.append(UInt8(value >> 8))
    }
}

/// `{"type": "meterkeys", "id": N, "keys": ["strip/vox", …, "bus/iem_vox"]}`: what the positions of the binary
/// level frames stamped `id` name, sent before the first frame and whenever the page's meters change.
struct WebMeterKeys: Encodable {
    var type = "meterkeys"
    var id: Int
    var keys: [String]
}
