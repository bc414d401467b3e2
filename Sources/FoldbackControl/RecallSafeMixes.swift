// Recall-safe buses: a musician's running mix (sends into the bus, its level and mute) carried across preset switches. Non-realtime.
public import FoldbackPresets

/// Carries each recall-safe bus's running mix into the next preset, so a song change never resets what a
/// musician set on their own bus (from a phone, OSC or MIDI).
public enum RecallSafeMixes {
    /// Gains carried into a preset are kept within what a preset file may say, dB (−inf becomes −144).
    static let presetFloorDB: Float = -144

    /// `next` with, for every bus it marks `recall_safe` that the running preset also has: the bus's level
    /// and mute, and each send into it from a strip the running preset also sends from, as `target` plays
    /// them now. Everything else is `next`'s own.
    public static func carry(into next: Preset, from target: any LiveControlTarget) -> Preset {
        let running = target.currentPreset
        guard next.buses.contains(where: \.isRecallSafe), let graph = target.engine.graph else { return next }
        func live(_ parts: String...) -> Float? {
            guard let parameter = try? ParameterPath.resolve(parts.map { Substring($0) }, graph: graph, preset: running) else { return nil }
            return target.engine.value(at: parameter.address) ?? parameter.presetValue
        }
        var carried = next
        for busIndex in carried.buses.indices where carried.buses[busIndex].isRecallSafe {
            let bus = carried.buses[busIndex].name
            guard running.bus(named: bus) != nil else { continue }
            if let gain = live("bus", bus, "gain_db") { carried.buses[busIndex].gainDB = max(gain, presetFloorDB) }
            if let mute = live("bus", bus, "mute") { carried.buses[busIndex].isMuted = mute == 1 }
            for stripIndex in carried.strips.indices {
                let strip = carried.strips[stripIndex].name
                for sendIndex in carried.strips[stripIndex].sends.indices where carried.strips[stripIndex].sends[sendIndex].busName == bus {
                    if let gain = live("strip", strip, "send", bus, "gain_db") {
                        carried.strips[stripIndex].sends[sendIndex].gainDB = max(gain, presetFloorDB)
                    }
                }
            }
        }
        return carried
    }
}
