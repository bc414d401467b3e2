// Moves through a setlist: selects entry N (OSC, MIDI program change), next, previous. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackPresets
import Synchronization

/// The running position in a ``Setlist``; each move switches the live preset through a ``LiveControlTarget``.
///
/// Thread-safe: OSC, MIDI and the main loop may call it concurrently; moves are serialised. A preset that
/// fails to load leaves both the playing preset and the position unchanged.
public final class SetlistController: @unchecked Sendable {
    /// The setlist.
    public let setlist: Setlist
    private let target: any LiveControlTarget
    private let position = Mutex<Int>(0)

    /// A controller standing at the first entry of `setlist` not skipped (the caller loads that entry's preset first).
    public init(setlist: Setlist, target: any LiveControlTarget) {
        self.setlist = setlist
        self.target = target
        position.withLock { $0 = setlist.firstPlayable ?? 0 }
    }

    /// The current entry's index (0-based).
    public var index: Int { position.withLock { $0 } }

    /// The current entry.
    public var current: Setlist.Entry { setlist.entries[index] }

    /// "song 2/5 'Ballad'", for status lines and replies.
    public var positionText: String { "song \(index + 1)/\(setlist.entries.count) '\(current.name)'" }

    /// Switches to entry `index` (0-based; a MIDI program change maps here directly), at its `bpm` when it gives one.
    /// - Returns: the switch report.
    /// - Throws: ``ControlError/setlist(_:)`` for an index outside the list, or the preset's rejection.
    @discardableResult
    public func select(index: Int) throws(ControlError) -> String {
        try position.withLock { (position: inout Int) throws(ControlError) -> String in
            guard setlist.entries.indices.contains(index) else {
                throw .setlist("the setlist has songs 1 to \(setlist.entries.count); there is no song \(index + 1)")
            }
            guard !setlist.entries[index].isSkipped else {
                throw .setlist("song \(index + 1) '\(setlist.entries[index].name)' is skipped: its preset had errors at start (see the log)")
            }
            let report = try target.switchPreset(toPath: setlist.entries[index].presetPath, tempo: setlist.entries[index].bpm)
            position = index
            return report
        }
    }

    /// Switches to the next entry not skipped (stays at the last one with an error).
    @discardableResult
    public func next() throws(ControlError) -> String {
        let now = index
        guard let next = setlist.entries.indices.first(where: { $0 > now && !setlist.entries[$0].isSkipped }) else {
            throw .setlist("already at the last song (\(setlist.entries.count))")
        }
        return skipNote(from: now, to: next) + (try select(index: next))
    }

    /// Switches to the previous entry not skipped (stays at the first one with an error).
    @discardableResult
    public func previous() throws(ControlError) -> String {
        let now = index
        guard let previous = setlist.entries.indices.last(where: { $0 < now && !setlist.entries[$0].isSkipped }) else {
            throw .setlist("already at the first song")
        }
        return skipNote(from: now, to: previous) + (try select(index: previous))
    }

    /// `skipped song 3 'Ballad' (broken); ` for each skipped song between `from` and `to`.
    private func skipNote(from: Int, to: Int) -> String {
        let passed = (min(from, to) + 1)..<max(from, to)
        return passed.map { "skipped song \($0 + 1) '\(setlist.entries[$0].name)' (its preset has errors); " }.joined()
    }
}
