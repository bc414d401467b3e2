// The preset a live session plays now, shared by preset switching and format-change rebuilds. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackControl
package import FoldbackPresets
package import Foundation
import Synchronization

/// The running preset (replaced by preset switches) and the lock that serialises switches.
package final class LivePresetState: Sendable {
    private let current: Mutex<Preset>
    /// Held for a whole switch, so two switches never interleave their installs and port updates.
    package let switching = NSLock()
    private let connects = Mutex(true)
    private let builtPeriod = Mutex(0)

    /// What song changes recall and keep (its last loaded preset is the file's, before carried values).
    package let recall: RecallScope
    /// The song files switches have read (each read once until it changes).
    package let files = PresetFileCache()

    package init(_ preset: Preset) {
        current = Mutex(preset)
        recall = RecallScope(loaded: preset)
    }

    /// Whether switches connect new ports as their preset lists (false with `--no-connect`).
    package var makesConnections: Bool {
        get { connects.withLock { $0 } }
        set { connects.withLock { $0 = newValue } }
    }

    /// The JACK period the running graph's plugins were told (`bufsz:nominalBlockLength`).
    package var period: Int {
        get { builtPeriod.withLock { $0 } }
        set { builtPeriod.withLock { $0 = newValue } }
    }

    /// Whether the running preset hosts LV2 plugins, which are told the period and so are re-prepared
    /// when it changes (built-in units need no rebuild for a new period).
    package var dependsOnPeriod: Bool {
        preset.strips.contains { strip in strip.units.contains { $0.lv2 != nil } } || preset.buses.contains { bus in bus.units.contains { $0.lv2 != nil } }
    }

    /// The preset playing now.
    package var preset: Preset {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}
