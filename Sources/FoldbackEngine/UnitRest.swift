// A unit's silence-gating entry point: whether running it on exact zeros would change nothing. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Whether a unit is at rest, the check that lets the engine skip it on digital silence (silence gating).
///
/// The contract, which gating's bit identity rests on: `check` returns true only when processing `frames`
/// frames of exact zeros (+0.0) from the unit's present state would write exact +0.0 to every output and leave
/// every part of its state that can ever reach its output unchanged, except for what `advance` does. With
/// `advance` true it is called only after every unit of the chain answered true, and then must move the
/// unit's clocks (phases, counters) by `frames` frames as processing would. It reads its state only: no
/// allocation, lock or system call. A unit that can make sound from silence (a generator, a synth, any
/// plugin) has no rest check and is never gated.
public struct UnitRest: Sendable {
    /// True when the unit is at rest for `frames` frames of zeros; with `advance`, moves its clocks by them.
    public var check: @convention(c) (_ state: UnsafeMutableRawPointer, _ frames: Int32, _ advance: Bool) -> Bool

    /// A rest check.
    public init(_ check: @escaping @convention(c) (UnsafeMutableRawPointer, Int32, Bool) -> Bool) {
        self.check = check
    }
}
