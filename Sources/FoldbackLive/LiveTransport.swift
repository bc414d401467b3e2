// Run-time start/stop of a live session's record tap and file players, shared by signals and OSC. Non-realtime.
import Foundation

/// What can be started and stopped while a session plays. Signals (on the main loop) and OSC (on its
/// thread) both go through here, one request at a time.
package final class LiveTransport: @unchecked Sendable {
    /// Sets the recorder (`true`) or file players (`false`) running or not, `nil` toggles; returns a report.
    package typealias Switch = (_ on: Bool?) -> String

    private let lock = NSLock()
    private var recorder: Switch?
    private var players: Switch?
    private var sources: FilePlayers?

    /// Installs the record tap's switch (`--record`).
    package func setRecorder(_ recorder: @escaping Switch) { lock.withLock { self.recorder = recorder } }

    /// Installs the file players' switch (strips with a `source`).
    package func setPlayers(_ players: @escaping Switch) { lock.withLock { self.players = players } }

    /// Installs the file players whose tempo and key can change (strips with a `source`).
    package func setSources(_ sources: FilePlayers) { lock.withLock { self.sources = sources } }

    /// The file players, or nil before they start.
    package var fileSources: FilePlayers? { lock.withLock { sources } }

    /// Starts, stops (or with nil toggles) recording; nil when there is no recorder.
    package func record(_ on: Bool?) -> String? { lock.withLock { recorder?(on) } }

    /// Starts (from the top), stops (or with nil toggles) the file players; nil when there are none.
    package func play(_ on: Bool?) -> String? { lock.withLock { players?(on) } }
}
