// JACK ports as FoldbackJACK hands them out: direction, latency mode and the registered port. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import CJack

/// Which way audio flows through a port, seen from the client that owns it.
public enum JACKPortDirection: Sendable {
    /// A sink: other clients' outputs connect to it.
    case input
    /// A source: it connects to other clients' inputs.
    case output
}

/// Which of JACK's two latency measures to read.
public enum JACKLatencyMode: Sendable {
    /// Frames since the signal arriving at the port entered the graph (from a capture port).
    case capture
    /// Frames until the signal leaving the port reaches the graph's end (a playback port).
    case playback
}

extension JACKLatencyMode {
    /// The libjack value. (Its enum constants are visible only where CFoldback is imported too,
    /// because CFoldback's header also includes <jack/jack.h>.)
    var jackMode: jack_latency_callback_mode_t {
        self == .capture ? JackCaptureLatency : JackPlaybackLatency
    }
}

/// A port registered by a ``JACKClient``.
public struct JACKPort: @unchecked Sendable, Equatable {
    package let handle: OpaquePointer
    /// The full name, `client:port`.
    public let name: String
    /// The port name without the client prefix.
    public let shortName: String
    /// Input or output.
    public let direction: JACKPortDirection
}
