// Recall-safe buses: a musician's running mix (sends into the bus, its level and mute) carried across preset switches. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
public import FoldbackPresets

/// Carries each recall-safe bus's running mix into the next preset, so a song change never resets what a
/// musician set on their own bus (from a phone, OSC or MIDI): ``RecallScope`` in ``RecallMode/full``, whose
/// safes include every `recall_safe` bus.
public enum RecallSafeMixes {
    /// `next` with, for every bus it marks `recall_safe` that the running preset also has: the bus's level
    /// and mute, and each send into it from a strip the running preset also sends from, as `target` plays
    /// them now (and every other safe of `next`). Everything else is `next`'s own.
    public static func carry(into next: Preset, from target: any LiveControlTarget) -> Preset {
        RecallScope(loaded: target.currentPreset, mode: .full).carry(into: next, from: target).preset
    }
}
