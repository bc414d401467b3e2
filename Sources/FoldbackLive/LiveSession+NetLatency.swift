// A live session on a netjack2 slave: what the network adds to each bus's round trip, printed at start. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackJACK
import FoldbackPresets

extension LiveSession {
    /// On a netjack2 slave, the lines saying what the network adds to each bus's round trip (already counted in
    /// ``latencyReport()`` and its in-ear warning); empty on any other server.
    package func netLatencyReport() -> [String] {
        host.recomputeLatencies()
        guard let net = host.netLatency else { return [] }
        let rate = host.sampleRate
        let ms = { (frames: Int) in NumberFormatting.milliseconds(frames: frames, sampleRate: rate) }
        let periods = host.bufferSize > 0 && net.roundTripFrames % host.bufferSize == 0 ? " = \(net.roundTripFrames / host.bufferSize) periods" : ""
        return [
            "foldback: JACK server '\(serverName ?? "default")' is a netjack2 slave: the network latency is \(net.roundTripFrames) frames "
                + "(\(ms(net.roundTripFrames)) ms\(periods): master → here \(net.captureFrames), here → master \(net.playbackFrames))",
            "foldback: the network adds \(ms(net.roundTripFrames)) ms (\(net.roundTripFrames) frames) to each bus's round trip below; "
                + "the stage box's own converters come on top",
        ]
    }
}
