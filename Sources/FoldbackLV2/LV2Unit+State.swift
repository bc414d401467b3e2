// Saving an LV2 unit's plugin state, both instances of a dual-mono pair, as lilv state bundles. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Where ``LV2Unit/saveState(to:)`` saved a unit's state.
public struct LV2SavedState: Sendable, Equatable {
    /// The `.ttl` of the (first, or only) instance's state, which a preset's `state = "…"` restores.
    public var path: String
    /// For a dual-mono pair, the `.ttl` of the right instance's state (`state_right = "…"`); nil otherwise.
    public var rightPath: String?

    /// Where a state was saved (a sandbox reports it in its answer).
    public init(path: String, rightPath: String? = nil) {
        self.path = path
        self.rightPath = rightPath
    }
}

extension LV2Unit {
    /// Saves the plugin's current state (control inputs and its own state) as a lilv state bundle in
    /// `directory` (created if needed). For a dual-mono pair the left instance is saved there and the right
    /// one in a bundle of its own, `directory` + `-right`, so both restore as they were. Off the audio
    /// thread; the unit must be prepared.
    public func saveState(to directory: String) throws(LV2Error) -> LV2SavedState {
        guard let first = instances.first else {
            throw .stateFailed(plugin: typeName, path: directory, reason: "the plugin is not instantiated yet")
        }
        let trimmed = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return LV2SavedState(path: try first.save(to: directory), rightPath: try instances.dropFirst().first?.save(to: trimmed + "-right"))
    }
}
