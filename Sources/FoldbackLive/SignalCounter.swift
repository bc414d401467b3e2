// Run-time requests by signal (SIGHUP, SIGUSR1, SIGUSR2), polled from a non-realtime loop. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import Foundation

/// Counts one signal through an async-signal-safe C handler and tells a polling loop when it arrived.
package struct SignalCounter {
    private let signal: Int32
    private var seen: Int32

    /// Installs the counting handler for `signal`; arrivals before now are not reported.
    package init(_ signal: Int32) {
        self.signal = signal
        fb_count_signal(signal)
        seen = fb_signal_count(signal)
    }

    /// Whether the signal arrived since the last call (several arrivals count as one request).
    package mutating func hasArrived() -> Bool {
        let count = fb_signal_count(signal)
        defer { seen = count }
        return count != seen
    }
}
