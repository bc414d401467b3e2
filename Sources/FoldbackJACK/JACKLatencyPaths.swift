// Per-port latency ranges for JACK's latency callback, from a graph's input-to-output paths. Non-realtime (JACK's notification thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import CJack
import FoldbackEngine

/// A graph's ``LatencyPath``s resolved to registered JACK ports, and the ranges they imply.
///
/// JACK's latency contract: in capture mode each output port's capture latency is the capture latency
/// reaching the inputs that feed it plus the path's own latency; in playback mode each input port's
/// playback latency is the playback latency after the outputs it feeds plus the path's own latency.
/// Where several paths meet, the port's range spans them all. A port on no path reports 0…0.
struct JACKLatencyPaths: Equatable {
    private struct Path: Equatable {
        let input: OpaquePointer
        let output: OpaquePointer
        let frames: UInt32
    }

    private var paths: [Path] = []
    private var inputs: [OpaquePointer] = []
    private var outputs: [OpaquePointer] = []

    init() {}

    /// Resolves `layout`'s paths to `inputs` and `outputs` (short name → port). A layout with no paths
    /// (built without prepared units) gets its graph-wide latency on every input-output pair.
    init(layout: GraphLayout, inputs: [String: JACKPort], outputs: [String: JACKPort]) {
        let described = layout.latencyPaths.isEmpty
            ? inputs.keys.flatMap { input in
                outputs.keys.map { LatencyPath(input: input, output: $0, frames: layout.latencyFrames) }
            }
            : layout.latencyPaths
        paths = described.compactMap { path in
            guard let input = inputs[path.input], let output = outputs[path.output] else { return nil }
            return Path(input: input.handle, output: output.handle, frames: UInt32(clamping: path.frames))
        }
        self.inputs = inputs.values.map(\.handle)
        self.outputs = outputs.values.map(\.handle)
    }

    /// Sets the latency range of every port downstream in `mode`: outputs for capture, inputs for playback.
    func report(_ mode: jack_latency_callback_mode_t) {
        let isCapture = mode == JACKLatencyMode.capture.jackMode
        for port in isCapture ? outputs : inputs {
            var range = jack_latency_range_t(min: .max, max: 0)
            for path in paths where (isCapture ? path.output : path.input) == port {
                var upstream = jack_latency_range_t()
                jack_port_get_latency_range(isCapture ? path.input : path.output, mode, &upstream)
                range.min = min(range.min, upstream.min &+ path.frames)
                range.max = max(range.max, upstream.max &+ path.frames)
            }
            if range.min > range.max { range = jack_latency_range_t(min: 0, max: 0) }
            jack_port_set_latency_range(port, mode, &range)
        }
    }
}
