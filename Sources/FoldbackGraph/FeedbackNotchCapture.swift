// Writes a running ring-out's notches into a preset being saved, as the feedback unit's fixed bands. Non-realtime.
public import FoldbackPresets
public import FoldbackEngine
import FoldbackDSP
import FoldbackFeedback

/// Captures what a ring-out found: each `feedback` unit in `ringout` mode, on a strip or a bus, keeps its
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
            guard let feedback = unit as? FeedbackUnit, feedback.settings.mode == .ringOut,
                  let index = specs.firstIndex(where: { $0.id == id && $0.type == UnitSchema.feedback.type })
            else { continue }
            let location = specs[index].location
            let bands = feedback.notchBands
            specs[index].bands = bands.map { EQBandSpec(band: $0, origin: .added, location: location) }
            saved += bands.count
        }
        return saved
    }
}
