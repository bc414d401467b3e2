// A send into a binaural bus: each strip channel × its gains through its own binaural source into the bus, and moves. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackTeam
import FoldbackDSP

extension GraphRender {
    /// Adds a send's channels, each × its send gains and tap level, through their binaural sources into the bus's
    /// left and right `buffers`. A send that adds nothing in this chunk (its gains steady at zero, or the strip's
    /// signal exact +0.0) feeds its sources silence until their delays and filters have played out; then, with
    /// gating on, they rest (``BinauralSource/rest(frames:)``: their clocks move as processing zeros would, so the
    /// output is bit-identical to gating off).
    func mixBinaural(
        _ send: UnsafeMutablePointer<SendRender>, sources: UnsafeMutablePointer<BinauralSource>, gains: SendGains,
        output: UnsafeMutablePointer<StripOutput>, into buffers: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int
    ) {
        let input = send.pointee.binauralInput!
        if let cells = send.pointee.buildCells { serveBuilds(cells, sources: sources, count: Int(send.pointee.tapCount)) }
        if gains.isSilent || output.pointee.isSilent {
            for tapOffset in 0..<Int(send.pointee.tapCount) {
                taps[Int(send.pointee.firstTap) + tapOffset].coefficient.advance(by: frames)
            }
            let isAtRest = isGatingEnabled && send.pointee.silentFrames >= sources.pointee.historyFrames
            send.pointee.silentFrames = min(send.pointee.silentFrames + frames, Int(Int32.max))
            for tapOffset in 0..<Int(send.pointee.tapCount) where !(isAtRest && sources[tapOffset].rest(frames: frames)) {
                sources[tapOffset].process(input: UnsafePointer(silence), left: buffers[0], right: buffers[1], frames: frames)
            }
            return
        }
        send.pointee.silentFrames = 0
        let isPreFader = send.pointee.isPreFader
        for tapOffset in 0..<Int(send.pointee.tapCount) {
            let tap = taps + Int(send.pointee.firstTap) + tapOffset
            let source = output.pointee.channel(Int(tap.pointee.sourceChannel))
            if gains.isSettled && tap.pointee.coefficient.isSettled {
                let coefficient = (isPreFader ? gains.pre : gains.post) * tap.pointee.coefficient.value
                for frame in 0..<frames { input[frame] = source[frame] * coefficient }
            } else if gains.isSettled {
                let gain = isPreFader ? gains.pre : gains.post
                for frame in 0..<frames { input[frame] = source[frame] * gain * tap.pointee.coefficient.next() }
            } else {
                let frameGains = isPreFader ? gains.preFrames : gains.postFrames
                for frame in 0..<frames { input[frame] = source[frame] * frameGains[frame] * tap.pointee.coefficient.next() }
            }
            sources[tapOffset].process(input: input, left: buffers[0], right: buffers[1], frames: frames)
        }
    }

    /// Hands the worker's built filter pairs to a send's sources and asks it for the builds they wait for (a live
    /// engine: the heavy part of a move never runs here). Realtime-safe.
    func serveBuilds(_ cells: UnsafeMutablePointer<BinauralBuildCell>, sources: UnsafeMutablePointer<BinauralSource>, count: Int) {
        var asked = false
        for index in 0..<count where cells[index].serve(sources + index) { asked = true }
        if asked, let bell = binauralBell { fb_doorbell_ring(bell) }
    }

    /// Moves a binaural send's sources to its position (each channel's, with the send's width; realtime-safe).
    mutating func retargetBinaural(_ send: UnsafeMutablePointer<SendRender>) {
        guard let sources = send.pointee.binaural else { return }
        let channels = Int(send.pointee.tapCount)
        for channel in 0..<channels {
            sources[channel].move(to: BinauralSpread.position(of: channel, channels: channels, send: send.pointee.position, width: send.pointee.width))
        }
    }
}
