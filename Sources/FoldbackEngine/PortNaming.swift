// How strips and buses name their JACK ports and pretty names. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The port names a strip's inputs and a bus's outputs get, shared by every backend and by `foldback check`.
///
/// Mono strips take `<strip>_in`, stereo strips `<strip>_in_L` / `<strip>_in_R`;
/// mono buses are `<bus>`, stereo buses `<bus>_L` / `<bus>_R`.
public enum PortNaming {
    /// Short port names for a strip's inputs, in channel order.
    public static func inputPortNames(strip: String, channels: Int) -> [String] {
        channels == 1 ? ["\(strip)_in"] : ["\(strip)_in_L", "\(strip)_in_R"]
    }

    /// Short port names for a bus's outputs, in channel order.
    public static func outputPortNames(bus: String, channels: Int) -> [String] {
        channels == 1 ? [bus] : ["\(bus)_L", "\(bus)_R"]
    }

    /// Human-readable names for JACK metadata (`http://jackaudio.org/metadata/pretty-name`).
    public static func inputPrettyNames(strip: String, channels: Int) -> [String] {
        channels == 1 ? ["\(strip) in"] : ["\(strip) in left", "\(strip) in right"]
    }

    /// Human-readable output port names for JACK metadata.
    public static func outputPrettyNames(bus: String, channels: Int) -> [String] {
        channels == 1 ? ["\(bus) out"] : ["\(bus) out left", "\(bus) out right"]
    }

    /// The cue output's ports, after every bus's.
    public static let cuePortNames = ["cue_L", "cue_R"]
    /// Their pretty names.
    public static let cuePrettyNames = ["cue out left", "cue out right"]
}
