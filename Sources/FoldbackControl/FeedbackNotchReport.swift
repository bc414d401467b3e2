// Turns feedback units' notch meter readings into OSC change messages for subscribers. Non-realtime (the meter thread).
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine

/// Remembers the notches last reported and, given a new meter snapshot, returns
/// `/foldback/strip/<strip>/feedback f freq_hz f depth_db f age_s` (a strip's unit) or
/// `/foldback/bus/<bus>/feedback f freq_hz f depth_db f age_s` (a bus's unit) for each notch placed, moved, deepened or
/// released (a released notch is reported once with its last frequency and a depth of 0, without an age). `age_s`
/// is the seconds since the notch was placed (0 for a new one), present when the unit publishes it.
///
/// It reads the readings a `feedback` unit publishes (`notch<n>_freq_hz`, `notch<n>_depth_db`, `notch<n>_age_s`),
/// so it needs no knowledge of the unit itself.
public struct FeedbackNotchReport: Sendable {
    private struct Key: Hashable {
        var strip: String
        var unit: String
        var slot: Int
    }

    private var last: [Key: (frequency: Float, depth: Float, age: Float?)] = [:]

    /// A report that has sent nothing yet.
    public init() {}

    /// The messages for what changed since the previous snapshot.
    public mutating func changes(in snapshot: MeterSnapshot) -> [OSCMessage] {
        var now: [Key: (frequency: Float, depth: Float, age: Float?)] = [:]
        for unit in snapshot.units {
            for notch in Self.notches(in: unit.readings) {
                now[Key(strip: unit.strip, unit: unit.unit, slot: notch.slot)] = (notch.frequency, notch.depth, notch.age)
            }
        }
        var messages: [OSCMessage] = []
        for (key, notch) in now.sorted(by: { ($0.key.strip, $0.key.slot) < ($1.key.strip, $1.key.slot) })
        where last[key].map({ $0.frequency != notch.frequency || $0.depth != notch.depth }) ?? true {
            messages.append(Self.message(key.strip, notch.frequency, notch.depth, age: notch.age))
        }
        for (key, notch) in last.sorted(by: { ($0.key.strip, $0.key.slot) < ($1.key.strip, $1.key.slot) }) where now[key] == nil {
            messages.append(Self.message(key.strip, notch.frequency, 0, age: nil))
        }
        last = now
        return messages
    }

    /// `owner` is a meter snapshot's unit owner: a strip's name, or `bus/<name>` for a bus's unit.
    private static func message(_ owner: String, _ frequency: Float, _ depth: Float, age: Float?) -> OSCMessage {
        let path = owner.hasPrefix("bus/") ? "/foldback/\(owner)/feedback" : "/foldback/strip/\(owner)/feedback"
        return OSCMessage(path, [.float(frequency), .float(depth)] + (age.map { [.float(($0 * 10).rounded() / 10)] } ?? []))
    }

    /// The notches in one unit's readings, in slot order (slot n of `notch<n>_freq_hz` / `notch<n>_depth_db`), with
    /// their age and seconds since they last changed (`notch<n>_age_s`, `notch<n>_changed_s`) when published.
    public static func notches(in readings: [UnitMeterReading]) -> [(slot: Int, frequency: Float, depth: Float, age: Float?, sinceChange: Float?)] {
        var bySlot: [Int: (frequency: Float, depth: Float, age: Float?, sinceChange: Float?)] = [:]
        for reading in readings {
            guard let (slot, field) = notchKey(reading.key) else { continue }
            var entry = bySlot[slot] ?? (0, 0, nil, nil)
            switch field {
            case .frequency: entry.frequency = reading.value
            case .depth: entry.depth = reading.value
            case .age: entry.age = reading.value
            case .sinceChange: entry.sinceChange = reading.value
            }
            bySlot[slot] = entry
        }
        return bySlot.keys.sorted().map { slot in
            let entry = bySlot[slot]!
            return (slot: slot, frequency: entry.frequency, depth: entry.depth, age: entry.age, sinceChange: entry.sinceChange)
        }
    }

    /// Whether `key` is a feedback unit's reading (`notches_active`, `notch<n>_freq_hz`, `_depth_db`, `_age_s`, `_changed_s`).
    public static func isNotchKey(_ key: String) -> Bool { key == "notches_active" || notchKey(key) != nil }

    private enum Field: String, CaseIterable {
        case frequency = "_freq_hz", depth = "_depth_db", age = "_age_s", sinceChange = "_changed_s"
    }

    /// `notch<n>_freq_hz` → (n, .frequency), `notch<n>_depth_db` → (n, .depth), … anything else nil.
    private static func notchKey(_ key: String) -> (Int, Field)? {
        guard key.hasPrefix("notch") else { return nil }
        let rest = key.dropFirst(5)
        guard let field = Field.allCases.first(where: { rest.hasSuffix($0.rawValue) }) else { return nil }
        return Int(rest.prefix { $0.isNumber }).map { ($0, field) }
    }
}
