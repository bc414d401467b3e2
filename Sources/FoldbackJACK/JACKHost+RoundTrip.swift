// JACKHost's view of the latency JACK computes around each output port: capture side, playback side, round trip. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CJack

/// The latency JACK reports around one of Foldback's output ports, in frames.
public struct JACKPortRoundTrip: Sendable, Hashable {
    /// The port's short name (`main_L`).
    public var port: String
    /// From the capture ports feeding it to this port: the capture side plus what Foldback adds (max of JACK's range).
    public var captureFrames: Int
    /// From this port to the playback ports it feeds (max of JACK's range); 0 when it feeds none.
    public var playbackFrames: Int

    /// Capture plus playback: input to ears.
    public var roundTripFrames: Int { captureFrames + playbackFrames }

    /// Figures for `port`.
    public init(port: String, captureFrames: Int, playbackFrames: Int) {
        self.port = port
        self.captureFrames = captureFrames
        self.playbackFrames = playbackFrames
    }
}

extension JACKHost {
    /// Asks the server to recompute every port's total latency (after connections change), so the
    /// figures ``roundTrip(ofOutput:)`` reads are current. Does nothing while the server is gone.
    public func recomputeLatencies() {
        let client = client
        guard shutdown == nil, !client.isClosed else { return }
        jack_recompute_total_latencies(client.handle)
    }

    /// The latency ranges JACK holds for output port `name` (short name), or nil for no such port:
    /// `jack_port_get_latency_range` in capture and in playback mode.
    public func roundTrip(ofOutput name: String) -> JACKPortRoundTrip? {
        guard shutdown == nil, !client.isClosed, let port = lock.withLock({ outputPorts[name] }) else { return nil }
        var capture = jack_latency_range_t()
        var playback = jack_latency_range_t()
        jack_port_get_latency_range(port.handle, JACKLatencyMode.capture.jackMode, &capture)
        jack_port_get_latency_range(port.handle, JACKLatencyMode.playback.jackMode, &playback)
        return JACKPortRoundTrip(port: name, captureFrames: Int(capture.max), playbackFrames: Int(playback.max))
    }
}
