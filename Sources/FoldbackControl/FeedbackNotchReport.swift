// Turns feedback units' notch meter readings into OSC change messages for subscribers. Non-realtime (the meter thread).
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine

/// Remembers the notches last reported and, given a new meter snapshot, returns
/// `/foldback/strip/<strip>/feedback f freq_hz f depth_db` (a strip's unit) or
/// `/foldback/bus/<bus>/feedback f freq_hz f depth_db` (a bus's unit) for each notch placed, moved, deepened or
/// released (a released notch is reported once with its last frequency and a depth of 0).
///
/// It reads the readings a `feedback` unit publishes (`notch<n>_freq_hz`, `notch<n>_depth_db`), so it needs no
/// knowledge of the unit itself.
public struct FeedbackNotchReport: Sendable {
    private struct Key: Hashable {
        var strip: String
        var unit: String
        var slot: Int
    }

    private var last: [Key: (frequency: Float, depth: Float)] = [:]

    /// A report that has sent nothing yet.
    public init() {}

    /// The messages for what changed since the previous snapshot.
    public mutating func changes(in snapshot: MeterSnapshot) -> [OSCMessage] {
        var now: [Key: (frequency: Float, depth: Float)] = [:]
        for unit in snapshot.units {
            for notch in Self.notches(in: unit.readings) {
                now[Key(strip: unit.strip, unit: unit.unit, slot: notch.slot)] = (notch.frequency, notch.depth)
            }
        }
        var messages: [OSCMessage] = []
        for (key, notch) in now.sorted(by: { ($0.key.strip, $0.key.slot) < ($1.key.strip, $1.key.slot) })
        where last[key].map({ $0.frequency != notch.frequency || $0.depth != notch.depth }) ?? true {
            messages.append(Self.message(key.strip, notch.frequency, notch.depth))
        }
        for (key, notch) in last.sorted(by: { ($0.key.strip, $0.key.slot) < ($1.key.strip, $1.key.slot) }) where now[key] == nil {
            messages.append(Self.message(key.strip, notch.frequency, 0))
        }
        last = now
        return messages
    }

    /// `owner` is a meter snapshot's unit owner: a strip's name, or `bus/<name>` for a bus's unit.
    private static func message(_ owner: String, _ frequency: Float, _ depth: Float) -> OSCMessage {
        let path = owner.hasPrefix("bus/") ? "/foldback/\(owner)/feedback" : "/foldback/strip/\(owner)/feedback"
        return OSCMessage(path, [.float(frequency), .float(depth)])
    }

    /// The notches in one unit's readings, in slot order (slot n of `notch<n>_freq_hz` / `notch<n>_depth_db`).
    public static func notches(in readings: [UnitMeterReading]) -> [(slot: Int, frequency: Float, depth: Float)] {
        var bySlot: [Int: (frequency: Float, depth: Float)] = [:]
        for reading in readings {
            guard let (slot, isFrequency) = notchKey(reading.key) else { continue }
            var entry = bySlot[slot] ?? (0, 0)
            if isFrequency { entry.frequency = reading.value } else { entry.depth = reading.value }
            bySlot[slot] = entry
        }
        return bySlot.keys.sorted().map { (slot: $0, frequency: bySlot[$0]!.frequency, depth: bySlot[$0]!.depth) }
    }

    /// Whether `key` is a feedback unit's reading (`notches_active`, `notch<n>_freq_hz`, `notch<n>_depth_db`).
    public static func isNotchKey(_ key: String) -> Bool { key == "notches_active" || notchKey(key) != nil }

    /// `notch<n>_freq_hz` → (n, true), `notch<n>_depth_db` → (n, false), anything else nil.
    private static func notchKey(_ key: String) -> (Int, Bool)? {
        guard key.hasPrefix("notch") else { return nil }
        let rest = key.dropFirst(5)
        let isFrequency = rest.hasSuffix("_freq_hz")
        guard isFrequency || rest.hasSuffix("_depth_db") else { return nil }
        return Int(rest.prefix { $0.isNumber }).map { ($0, isFrequency) }
    }
}
