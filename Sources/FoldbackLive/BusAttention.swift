// Which buses need the engineer's eye now (muted, limiting, clipping), for the status line. Non-realtime (the main loop).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
package import FoldbackEngine
package import FoldbackPresets

/// What is wrong with a bus right now; the status line shows such buses first, with the word.
package struct BusAttention: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// The bus's mute is on (it plays nothing).
    package static let muted = BusAttention(rawValue: 1)
    /// Its output peaks within ``limitingMarginDB`` of its limiter's ceiling: the limiter is holding it down.
    package static let limiting = BusAttention(rawValue: 2)
    /// Its output peaks at full scale (≥ ``clipDBFS``): a bus without a limiter, or one whose ceiling is 0 dBFS.
    package static let clipping = BusAttention(rawValue: 4)

    /// A peak this close to the limiter's ceiling (dB) counts as limiting.
    package static let limitingMarginDB: Float = 0.5
    /// A peak at or above this (dBFS) counts as clipping.
    package static let clipDBFS: Float = -0.1

    /// The word the status line shows: the worst of them.
    package var word: String {
        if contains(.clipping) { return "CLIP" }
        if contains(.limiting) { return "LIMIT" }
        return contains(.muted) ? "MUTED" : ""
    }

    /// Each bus of `meters` that needs attention under `preset` (live mutes and ceilings as `live` reads them, e.g.
    /// the engine's ``Engine/value(at:)``, else the preset's), by name. The peak is the meter's held peak, so a clip
    /// stays visible for a moment.
    package static func of(_ meters: MeterSnapshot, preset: Preset, live: (ParameterAddress) -> Float?) -> [String: BusAttention] {
        var found: [String: BusAttention] = [:]
        for (name, reading) in meters.buses {
            guard let index = preset.buses.firstIndex(where: { $0.name == name }) else { continue }
            let bus = preset.buses[index]
            var attention: BusAttention = []
            if (live(.busMute(bus: index)) ?? (bus.isMuted ? 1 : 0)) >= 0.5 { attention.insert(.muted) }
            let peak = Decibels.decibels(fromLinearGain: reading.peak)
            if peak >= clipDBFS { attention.insert(.clipping) }
            if let limiter = bus.limiter {
                let ceiling = live(.busLimiterCeiling(bus: index)) ?? limiter.ceilingDB
                if peak >= ceiling - limitingMarginDB { attention.insert(.limiting) }
            }
            if !attention.isEmpty { found[name] = attention }
        }
        return found
    }
}
