// Waiting on a condition in tests, with a deadline, instead of fixed sleeps. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Polls `condition` every 5 ms until it holds, or throws `TimedOut` after `timeout` seconds.
public func waitFor(_ what: String, timeout: Double = 10, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while try !condition() {
        guard Date() < deadline else { throw TimedOut(what: what, seconds: timeout) }
        usleep(5_000)
    }
}

/// A condition that did not come true in time.
public struct TimedOut: Error, CustomStringConvertible {
    /// What was awaited.
    public let what: String
    /// How long, in seconds.
    public let seconds: Double
    public var description: String { "timed out after \(seconds) s waiting for \(what)" }
}
