// Run-time start/stop of a live session's record tap and file players, shared by signals and OSC. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
package import FoldbackControl
package import FoldbackEngine

/// What can be started and stopped while a session plays. Signals (on the main loop) and OSC (on its
/// thread) both go through here, one request at a time.
package final class LiveTransport: @unchecked Sendable {
    /// Sets the recorder (`true`) or file players (`false`) running or not, `nil` toggles; returns a report.
    package typealias Switch = (_ on: Bool?) -> String

    private let lock = NSLock()
    private var recorder: Switch?
    private var players: Switch?
    private var sources: FilePlayers?
    private var soundcheckStatus: (@Sendable () -> SoundcheckStatus?)?
    private var soundcheck: (@Sendable (SoundcheckCommand) throws(ControlError) -> String)?
    private var take: TakeSource?

    /// Installs the record tap's switch (`--record`).
    package func setRecorder(_ recorder: @escaping Switch) { lock.withLock { self.recorder = recorder } }

    /// Installs the file players' switch (strips with a `source`).
    package func setPlayers(_ players: @escaping Switch) { lock.withLock { self.players = players } }

    /// Installs the file players whose tempo and key can change (strips with a `source`).
    package func setSources(_ sources: FilePlayers) { lock.withLock { self.sources = sources } }

    /// The file players, or nil before they start.
    package var fileSources: FilePlayers? { lock.withLock { sources } }

    /// Installs the sound-check take's commands (`--soundcheck TAKE`).
    package func setSoundcheck(_ handler: @escaping @Sendable (SoundcheckCommand) throws(ControlError) -> String) {
        lock.withLock { soundcheck = handler }
    }

    /// Installs the take's source, whose per-strip switches the parameter tree's input nodes read.
    package func setTake(_ source: TakeSource) { lock.withLock { take = source } }

    /// The take feeding the strips, or nil without `--soundcheck`.
    package var takeSource: TakeSource? { lock.withLock { take } }

    /// Installs where the take's status is read.
    package func setSoundcheckStatus(_ read: @escaping @Sendable () -> SoundcheckStatus?) { lock.withLock { soundcheckStatus = read } }

    /// The take's status; nil when no take plays.
    package var soundcheckState: SoundcheckStatus? { lock.withLock { soundcheckStatus }?() }

    /// Carries out a sound-check command; nil when no take plays.
    package func soundcheck(_ command: SoundcheckCommand) throws(ControlError) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return try soundcheck?(command)
    }

    /// Starts, stops (or with nil toggles) recording; nil when there is no recorder.
    package func record(_ on: Bool?) -> String? { lock.withLock { recorder?(on) } }

    /// Starts (from the top), stops (or with nil toggles) the song's file players; nil when it has none.
    package func play(_ on: Bool?) -> String? { lock.withLock { sources?.players.isEmpty == false ? players?(on) : nil } }
}
