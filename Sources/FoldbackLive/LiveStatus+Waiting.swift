// The live status line while the JACK server is away. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

extension LiveStatus {
    /// Shows "waiting for JACK" in place of the meters.
    package func showWaiting(server: String) {
        draw("waiting for JACK server '\(server)'…")
    }
}
