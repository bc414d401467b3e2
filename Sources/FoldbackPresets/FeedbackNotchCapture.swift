// Writes a running ring-out's notches into a preset being saved, as the feedback unit's fixed bands. Non-realtime.
public import FoldbackEngine
import FoldbackDSP
import FoldbackFeedback

/// Captures what a ring-out found: each `feedback` unit in `ringout` mode keeps its notches as
/// `[[strip.unit.band]]` peaks (frequency, cut, Q), which the unit loads as fixed notches next time.
public enum FeedbackNotchCapture {
    /// Sets the bands of every ring-out `feedback` unit in `preset` to the notches its running unit in
    /// `graph` holds (units matched by strip name and unit id); returns how many notches were saved.
    @discardableResult
    public static func saveNotches(of graph: EngineGraph, into preset: inout Preset) -> Int {
        var saved = 0
        for strip in graph.description.strips {
            for (unit, id) in zip(strip.units, strip.unitIDs) {
                guard let feedback = unit as? FeedbackUnit, feedback.settings.mode == .ringOut,
                      let stripIndex = preset.strips.firstIndex(where: { $0.name == strip.name }),
                      let unitIndex = preset.strips[stripIndex].units.firstIndex(where: { $0.id == id && $0.type == UnitSchema.feedback.type })
                else { continue }
                let location = preset.strips[stripIndex].units[unitIndex].location
                let bands = feedback.notchBands
                preset.strips[stripIndex].units[unitIndex].bands = bands.map { EQBandSpec(band: $0, origin: .added, location: location) }
                saved += bands.count
            }
        }
        return saved
    }
}
