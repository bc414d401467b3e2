// Writes a running ring-out's notches into a preset being saved, as the feedback unit's fixed bands. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackPresets
public import FoldbackEngine
import FoldbackDSP
import FoldbackFeedback

/// Captures what a ring-out found: each `feedback` unit in `ringout` mode now (built so, or switched to it live
/// over OSC, MIDI or the web), on a strip or a bus, keeps its
/// notches as `[[strip.unit.band]]` / `[[bus.unit.band]]` peaks (frequency, cut, Q), which the unit loads as
/// fixed notches next time.
public enum FeedbackNotchCapture {
    /// Sets the bands of every ring-out `feedback` unit in `preset` to the notches its running unit in
    /// `graph` holds (units matched by strip or bus name and unit id); returns how many notches were saved.
    @discardableResult
    public static func saveNotches(of graph: EngineGraph, into preset: inout Preset) -> Int {
        var saved = 0
        for strip in graph.description.strips {
            guard let index = preset.strips.firstIndex(where: { $0.name == strip.name }) else { continue }
            saved += save(strip.units, ids: strip.unitIDs, into: &preset.strips[index].units)
        }
        for bus in graph.description.buses {
            guard let index = preset.buses.firstIndex(where: { $0.name == bus.name }) else { continue }
            saved += save(bus.units, ids: bus.unitIDs, into: &preset.buses[index].units)
        }
        return saved
    }

    /// Writes the notches of the ring-out feedback units among `units` (running, with their `ids`) into the
    /// matching specs of `specs`; returns how many notches were written.
    private static func save(_ units: [any EngineUnit], ids: [String], into specs: inout [UnitSpec]) -> Int {
        var saved = 0
        for (unit, id) in zip(units, ids) {
            guard let feedback = unit as? FeedbackUnit, feedback.mode == .ringOut,
                  let index = specs.firstIndex(where: { $0.id == id && $0.type == UnitSchema.feedback.type })
            else { continue }
            let location = specs[index].location
            let bands = feedback.notchBands
            specs[index].bands = bands.map { EQBandSpec(band: $0, origin: .added, location: location) }
            saved += bands.count
        }
        return saved
    }

    /// Why ``clearNotch(_:unit:owner:isBus:in:)`` cleared nothing.
    public enum ClearRefusal: Error, Sendable, Equatable {
        /// No strip (or bus) of that name runs.
        case noOwner
        /// It has no unit of that id.
        case noUnit
        /// That unit is not a `feedback` unit.
        case notFeedback
        /// That notch is not in place.
        case noNotch
    }

    /// Clears notch `number` (1 … 16) of the `feedback` unit `id` on strip (or bus, `isBus`) `owner` in the
    /// running `graph` (one by one, as a ring-out is trimmed: the next save leaves it out).
    public static func clearNotch(_ number: Int, unit id: String, owner: String, isBus: Bool, in graph: EngineGraph) throws(ClearRefusal) {
        let owners = isBus ? graph.description.buses.map { ($0.name, $0.units, $0.unitIDs) }
            : graph.description.strips.map { ($0.name, $0.units, $0.unitIDs) }
        guard let (_, units, ids) = owners.first(where: { $0.0 == owner }) else { throw .noOwner }
        guard let index = ids.firstIndex(of: id) else { throw .noUnit }
        guard let feedback = units[index] as? FeedbackUnit else { throw .notFeedback }
        guard feedback.clearNotch(number) else { throw .noNotch }
    }
}
