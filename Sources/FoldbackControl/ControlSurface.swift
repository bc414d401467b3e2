// Which control surface sent a request to the shared router (OSC, web, MIDI, the meter view's keys), for its log lines. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Where a ``ControlRouter`` request came from. A session has one router; every surface hands it its
/// requests with its own name, so each log line says who made the change.
public enum ControlSurface: String, Sendable, CaseIterable, CustomStringConvertible {
    /// An OSC client (`--osc-port`).
    case osc
    /// A page of the web surface (`--web-port`).
    case web
    /// A MIDI controller on `midi_in`.
    case midi
    /// The meter view's keys (`--meters`).
    case keys
    /// An X32 or X-Air client (`--x32-port`, `--xair-port`).
    case x32

    /// The name log lines start with: `OSC`, `web`, `MIDI`, `keys`.
    public var description: String {
        switch self {
        case .osc: return "OSC"
        case .web: return "web"
        case .midi: return "MIDI"
        case .keys: return "keys"
        case .x32: return "X32"
        }
    }
}
