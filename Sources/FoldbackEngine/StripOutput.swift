// What a strip or bus leaves behind in a chunk for its sends and the cue, and the per-lane scratch of a parallel render. Realtime (plain data).
// SPDX-License-Identifier: GPL-3.0-or-later

/// The send gains of a strip for one chunk, worked out once after its units.
struct SendGains {
    /// Gate, fader and compensation all steady: the scalars apply; else the frame buffers.
    var isSettled = true
    /// Steady at zero: the sends only advance their ramps and play out their delay lines.
    var isSilent = false
    /// Gate × compensation, and that × fader.
    var pre: Float = 0
    var post: Float = 0
    var preFrames: UnsafePointer<Float>
    var postFrames: UnsafePointer<Float>
}

/// A table entry made at build time, silent until the first chunk renders.
protocol ChunkOutput {
    init(silence: UnsafePointer<Float>)
}

/// A strip's signal after its units and its gains, kept for the sends (mixed bus by bus in a parallel
/// render) and the cue.
struct StripOutput: ChunkOutput {
    /// Its channels (the second repeats the first for a mono strip); 0 channels for a dormant strip.
    var first: UnsafePointer<Float>
    var second: UnsafePointer<Float>
    var channels: Int32 = 0
    /// Its channels are exact +0.0 in this chunk (only when gating is on): its sends add nothing.
    var isSilent = false
    var sends: SendGains
    /// Gate × fader for the record tap and AFL cue, or frame by frame (`postFaderFrames`) while they ramp.
    var postFader: Float = 0
    var postFaderFrames: UnsafeMutablePointer<Float>? = nil

    init(silence: UnsafePointer<Float>) {
        first = silence
        second = silence
        sends = SendGains(preFrames: silence, postFrames: silence)
    }

    /// Channel `index` (clamped to the last one).
    @inline(__always)
    func channel(_ index: Int) -> UnsafePointer<Float> { index >= 1 && channels > 1 ? second : first }
}

/// A bus's final output channels (what its ports carry), kept for the cue.
struct BusOutput: ChunkOutput {
    var first: UnsafePointer<Float>
    var second: UnsafePointer<Float>
    var channels: Int32 = 0

    init(silence: UnsafePointer<Float>) {
        first = silence
        second = silence
    }

    init(first: UnsafePointer<Float>, second: UnsafePointer<Float>, channels: Int32) {
        (self.first, self.second, self.channels) = (first, second, channels)
    }
}

/// The scratch one render lane (thread) works in: the channel tables and frame buffers a strip or bus uses while it renders.
struct RenderScratch {
    var stripChannels: UnsafeMutablePointer<UnsafePointer<Float>>
    var unitInputs: UnsafeMutablePointer<UnsafePointer<Float>>
    var unitOutputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var sendScratch: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var trimFrames: UnsafeMutablePointer<Float>
    var compensationFrames: UnsafeMutablePointer<Float>
}

extension GraphRender {
    /// This graph as lane `lane` sees it: the same strips, units and buses, with the lane's own scratch
    /// (lane 0 is the graph's own) and strip `strip`'s own send-gain buffers when given.
    @inline(__always)
    func view(lane: Int, strip: Int? = nil) -> GraphRender {
        var view = self
        if lane > 0, let lanes {
            let scratch = lanes[lane - 1]
            view.stripChannels = scratch.stripChannels
            view.unitInputs = scratch.unitInputs
            view.unitOutputs = scratch.unitOutputs
            view.sendScratch = scratch.sendScratch
            view.trimFrames = scratch.trimFrames
            view.compensationFrames = scratch.compensationFrames
            view.activeUnit = activeUnit.map { $0 + lane }
        }
        if let strip, let gains = stripGainFrames {
            let base = gains + strip * 4 * maxFrames
            view.gateFrames = base
            view.postFaderFrames = base + maxFrames
            view.compensatedPre = base + 2 * maxFrames
            view.compensatedPost = base + 3 * maxFrames
        }
        return view
    }
}
