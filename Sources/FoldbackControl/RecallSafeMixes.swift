// Recall-safe buses: a musician's running mix (sends into the bus, its level and mute) carried across preset switches. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
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
        let tree = ParameterPath.tree(graph: graph, preset: running)
        func live(_ path: String) -> Float? {
            tree.node(at: path).map { target.engine.value(at: $0.address) ?? $0.presetValue }
        }
        var carried = next
        for busIndex in carried.buses.indices where carried.buses[busIndex].isRecallSafe {
            let bus = carried.buses[busIndex].name
            guard running.bus(named: bus) != nil else { continue }
            if let gain = live(ParameterTree.Path.bus(bus, ParameterTree.Key.gain)) { carried.buses[busIndex].gainDB = max(gain, presetFloorDB) }
            if let mute = live(ParameterTree.Path.bus(bus, ParameterTree.Key.mute)) { carried.buses[busIndex].isMuted = mute == 1 }
            for stripIndex in carried.strips.indices {
                let strip = carried.strips[stripIndex].name
                for sendIndex in carried.strips[stripIndex].sends.indices where carried.strips[stripIndex].sends[sendIndex].busName == bus {
                    if let gain = live(ParameterTree.Path.send(strip, bus)) {
                        carried.strips[stripIndex].sends[sendIndex].gainDB = max(gain, presetFloorDB)
                    }
                    // A pan is carried once the send has its own (moved live, or given in the running preset);
                    // a send still following its strip's pan follows the next preset's strip.
                    let ownPan = running.strip(named: strip)?.sends.first { $0.busName == bus }?.pan
                    if let node = tree.node(at: ParameterTree.Path.send(strip, bus, ParameterTree.Key.pan)),
                       let pan = target.engine.value(at: node.address) ?? ownPan {
                        carried.strips[stripIndex].sends[sendIndex].pan = pan
                    }
                    // A width is carried when it is not the default (so a carried send at 1 is written as before).
                    if let width = live(ParameterTree.Path.send(strip, bus, ParameterTree.Key.width)),
                       width != 1 || carried.strips[stripIndex].sends[sendIndex].width != nil {
                        carried.strips[stripIndex].sends[sendIndex].width = width
                    }
                }
            }
        }
        return carried
    }
}
