// A unit's silence-gating entry point: whether running it on exact zeros would change nothing. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Whether a unit is at rest, the check that lets the engine skip it on digital silence (silence gating).
///
/// The contract, which gating's bit identity rests on: `check` returns true only when processing `frames`
/// frames of exact zeros (+0.0) from the unit's present state would write exact +0.0 to every output and leave
/// every part of its state that can ever reach its output unchanged but its clocks; when it returns true it has
/// moved those clocks (phases, counters) by `frames` frames as processing would, so the engine skips the unit
/// with one call. No allocation, lock or system call. A unit that can make sound from silence (a generator, a synth, any
/// plugin) has no rest check and is never gated.
///
/// A unit found at rest stays at rest until it processes or a parameter or reset reaches it (the check reads no
/// clock), so when the unit gives `advance`, the engine asks `check` once and then only calls `advance` each
/// chunk until then: it touches the clocks and nothing else of an idle unit's state.
///
/// A unit whose rest has a side effect each chunk that cannot wait (zeros for an analysis thread that counts time
/// by them) sets ``advancesEachChunk``: `advance` is then called every chunk instead of being owed the frames.
public struct UnitRest: Sendable {
    /// True when the unit is at rest for `frames` frames of zeros, having moved its clocks by them.
    public var check: @convention(c) (_ state: UnsafeMutableRawPointer, _ frames: Int32) -> Bool
    /// Moves the clocks of a unit already found at rest by `frames` frames of zeros (nil: `check` every chunk).
    public var advance: (@convention(c) (_ state: UnsafeMutableRawPointer, _ frames: Int32) -> Void)?
    /// Whether `advance` runs every chunk the unit rests (true) or is paid the frames it is owed when something
    /// reaches the unit (false).
    public var advancesEachChunk: Bool

    /// A rest check, and the clock advance of a unit known to be at rest (each chunk, when `advancesEachChunk`).
    public init(
        _ check: @escaping @convention(c) (UnsafeMutableRawPointer, Int32) -> Bool,
        advance: (@convention(c) (UnsafeMutableRawPointer, Int32) -> Void)? = nil,
        advancesEachChunk: Bool = false
    ) {
        self.check = check
        self.advance = advance
        self.advancesEachChunk = advancesEachChunk
    }
}
