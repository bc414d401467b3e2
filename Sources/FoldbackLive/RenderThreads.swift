// The `--threads N` count of `foldback run` and `foldback bench --live`: its limits and its refusal. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// How many threads may render a live cycle.
package enum RenderThreads {
    /// The CPUs this process may run on: the most render threads that make sense.
    package static var available: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Why `count` render threads cannot be used (below 1, or more than the CPUs), or nil when they can.
    package static func problem(with count: Int) -> String? {
        if count < 1 { return "--threads must be at least 1 (got \(count))" }
        if count > available {
            return "--threads \(count) is more than the \(available) CPU\(available == 1 ? "" : "s") this machine has; use 1…\(available)"
        }
        return nil
    }
}
