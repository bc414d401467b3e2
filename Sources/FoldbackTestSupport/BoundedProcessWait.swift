// Bounded waits on child processes for tests: a process that does not end in time is killed, never waited on forever. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import Foundation

extension Process {
    /// Waits up to `seconds` for the process to end; one still running then is killed with SIGKILL (and reaped).
    /// Returns whether it ended by itself, so a test can fail on a hang instead of hanging the whole run.
    @discardableResult
    public func waitUntilExit(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var interval = 0.002
        while isRunning && Date() < deadline {
            Thread.sleep(forTimeInterval: interval)
            interval = min(interval * 2, 0.05)
        }
        guard isRunning else {
            waitUntilExit()
            return true
        }
        kill(processIdentifier, SIGKILL)
        waitUntilExit()
        return false
    }

    /// Sends `signal` (SIGINT, as Ctrl-C, unless told otherwise) if the process runs, then waits as `waitUntilExit(within:)`.
    @discardableResult
    public func stop(signal: Int32 = SIGINT, within seconds: Double = 20) -> Bool {
        if isRunning { kill(processIdentifier, signal) }
        return waitUntilExit(within: seconds)
    }
}
