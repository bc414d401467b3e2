// The cue output on the audio thread: crossfaded selections of bus outputs and strip PFL/AFL, its level and limiter. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

/// The cue output of a graph: a stereo mix of what the engineer selected, each source faded in and out.
struct CueRender {
    /// The first of its two output port channels.
    var outputChannel: Int32
    /// The stereo cue mix, `maxFrames` each.
    var mix: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// Selection ramps (0 = not cued, 1 = cued): one per bus, one PFL and one AFL per strip.
    var busSelect: UnsafeMutablePointer<LinearSmoother>
    var pflSelect: UnsafeMutablePointer<LinearSmoother>
    var aflSelect: UnsafeMutablePointer<LinearSmoother>
    /// The cue level, linear, ramped.
    var gain: LinearSmoother
    var limiter: UnsafeMutablePointer<LimiterKernel>
}

extension GraphRender {
    /// Adds a cued source (`channels` of `sources`, mono to both sides) × its selection ramp × `gain` (or
    /// `frameGains` frame by frame) into the cue mix; a source not cued costs nothing.
    private static func cue(
        _ sources: UnsafePointer<UnsafePointer<Float>>, channels: Int, select: UnsafeMutablePointer<LinearSmoother>,
        gain: Float, frameGains: UnsafeMutablePointer<Float>?, into mix: UnsafeMutablePointer<UnsafeMutablePointer<Float>>, frames: Int
    ) {
        let start = select.pointee
        if start.isSettled && (start.value == 0 || (frameGains == nil && gain == 0)) {
            return
        }
        var ramp = start
        for side in 0..<2 {
            ramp = start
            let source = sources[min(side, channels - 1)], destination = mix[side]
            if ramp.isSettled, frameGains == nil {
                MixKernels.accumulate(source, into: destination, gain: gain * ramp.value, frames: frames)
            } else if let frameGains {
                for frame in 0..<frames { destination[frame] += source[frame] * frameGains[frame] * ramp.next() }
            } else {
                for frame in 0..<frames { destination[frame] += source[frame] * gain * ramp.next() }
            }
        }
        select.pointee = ramp
    }

    /// Cues strip `index` (its channels in ``stripChannels``): PFL as it leaves its units, AFL × gate × fader
    /// (`postFader`, or `frameGains` while those ramp).
    func cueStrip(_ index: Int, channels: Int, postFader: Float, frameGains: UnsafeMutablePointer<Float>?, frames: Int) {
        guard let cue else { return }
        let sources = UnsafePointer(stripChannels)
        guard channels > 0 else {
            cue.pointee.pflSelect[index].advance(by: frames)
            cue.pointee.aflSelect[index].advance(by: frames)
            return
        }
        Self.cue(sources, channels: channels, select: cue.pointee.pflSelect + index, gain: 1, frameGains: nil, into: cue.pointee.mix, frames: frames)
        Self.cue(sources, channels: channels, select: cue.pointee.aflSelect + index, gain: postFader, frameGains: frameGains, into: cue.pointee.mix, frames: frames)
    }

    /// Cues strip `index` as it left ``stripOutputs`` in this chunk.
    func cueStrip(_ index: Int, frames: Int) {
        guard cue != nil else { return }
        let output = stripOutputs[index]
        stripChannels[0] = output.first
        stripChannels[1] = output.second
        cueStrip(index, channels: Int(output.channels), postFader: output.postFader, frameGains: output.postFaderFrames, frames: frames)
    }

    /// Cues bus `index` as it left ``busOutputs`` in this chunk.
    func cueBus(_ index: Int, frames: Int) {
        guard cue != nil else { return }
        let output = busOutputs[index]
        unitInputs[0] = output.first
        unitInputs[1] = output.second
        cueBus(index, outputs: unitInputs, channels: Int(output.channels), frames: frames)
    }

    /// Cues bus `index`: exactly what it outputs (`outputs`, after its units, gain and limiter).
    func cueBus(_ index: Int, outputs: UnsafeMutablePointer<UnsafePointer<Float>>, channels: Int, frames: Int) {
        guard let cue else { return }
        Self.cue(UnsafePointer(outputs), channels: channels, select: cue.pointee.busSelect + index, gain: 1, frameGains: nil, into: cue.pointee.mix, frames: frames)
    }

    /// Clears the cue mix for a chunk.
    func clearCue(frames: Int) {
        guard let cue else { return }
        MixKernels.clear(cue.pointee.mix[0], frames: frames)
        MixKernels.clear(cue.pointee.mix[1], frames: frames)
    }

    /// Applies the cue level and limiter and writes the cue ports (or, without ports, limits the mix in place).
    func finishCue(outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>, outputCount: Int, outputOffset: Int, frames: Int) {
        guard let cue else { return }
        stripChannels[0] = UnsafePointer(cue.pointee.mix[0])   // free once every strip and bus has rendered
        stripChannels[1] = UnsafePointer(cue.pointee.mix[1])
        writeScaled(
            channels: 2, gain: &cue.pointee.gain, firstPort: Int(cue.pointee.outputChannel), fallback: cue.pointee.mix,
            outputs: outputs, outputCount: outputCount, outputOffset: outputOffset, frames: frames)
        cue.pointee.limiter.pointee.process(inputs: UnsafePointer(unitInputs), outputs: UnsafePointer(unitOutputs), channels: 2, frames: frames)
    }

    /// Sets one cue selection (a bus, or a strip's PFL or AFL) on or off; it fades over the smoothing time.
    mutating func setCue(_ kind: ParameterChange.Kind, index: Int, isOn: Bool) {
        guard let cue else { return }
        switch kind {
        case .cueBus where index < busCount: cue.pointee.busSelect[index].setTarget(isOn ? 1 : 0)
        case .cuePFL where index < stripCount: cue.pointee.pflSelect[index].setTarget(isOn ? 1 : 0)
        case .cueAFL where index < stripCount: cue.pointee.aflSelect[index].setTarget(isOn ? 1 : 0)
        default: break
        }
    }

    /// Fades every cue selection out.
    mutating func clearCueSelection() {
        guard let cue else { return }
        for bus in 0..<busCount { cue.pointee.busSelect[bus].setTarget(0) }
        for strip in 0..<stripCount {
            cue.pointee.pflSelect[strip].setTarget(0)
            cue.pointee.aflSelect[strip].setTarget(0)
        }
    }
}
