// Renders one strip for one chunk: units with bypass crossfades, pre-fader meter, gates, fader and sends. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

extension GraphRender {
    /// Renders strip `index` for `frames` frames of input (read at `inputOffset`): its units, then its sends
    /// into the bus buffers and its cue.
    mutating func renderStrip(
        _ index: Int, inputs: UnsafeMutablePointer<UnsafePointer<Float>?>, inputCount: Int, inputOffset: Int, frames: Int,
        meterFactors: (peakDecay: Float, rmsWeight: Float)
    ) {
        processStrip(index, inputs: inputs, inputCount: inputCount, inputOffset: inputOffset, frames: frames, meterFactors: meterFactors)
        mixSends(ofStrip: index, frames: frames)
        cueStrip(index, frames: frames)
    }

    /// Everything of strip `index` but its sends and cue: input, trim, units, meter, gains and record tap; what
    /// the sends and cue need is left in ``stripOutputs`` (it touches nothing shared, so strips run in parallel).
    mutating func processStrip(
        _ index: Int,
        inputs: UnsafeMutablePointer<UnsafePointer<Float>?>,
        inputCount: Int,
        inputOffset: Int,
        frames: Int,
        meterFactors: (peakDecay: Float, rmsWeight: Float)
    ) {
        let strip = strips + index
        let current = stripChannels
        var currentCount = Int(strip.pointee.channels)
        let hasFileSource = readSource(strip, index: index, frames: frames)
        let returnBus = Int(strip.pointee.returnBus)
        for channel in 0..<currentCount where !hasFileSource {
            current[channel] = returnBus >= 0
                ? returnInput(of: strip, from: buses + returnBus, channel: channel, frames: frames)
                : portInput(of: strip, channel: channel, inputs: inputs, inputCount: inputCount, inputOffset: inputOffset)
        }
        tapStripInput(index, channels: currentCount, frames: frames)
        mixTake(index, channels: currentCount, frames: frames)

        let output = stripOutputs + index
        let isDormant = Self.isDormant(strip)
        if isDormant {
            meters.update(Int(strip.pointee.meter), blockPeak: 0, blockMeanSquare: 0, factors: meterFactors)
            advanceTrim(of: strip, frames: frames)
            output.pointee.channels = 0
            output.pointee.isSilent = true
            output.pointee.sends.isSilent = true
            output.pointee.postFader = 0
            output.pointee.postFaderFrames = nil
            strip.pointee.gate.advance(by: frames)
            strip.pointee.fader.advance(by: frames)
            tapStrip(index, channels: 0, frames: frames, gain: 0, frameGains: nil)
            return
        }

        applyTrim(strip, channels: currentCount, frames: frames)
        tapAnalyser(kind: AnalyserTapState.stripPre, index: index, channels: currentCount, frames: frames)
        currentCount = runUnits(first: Int(strip.pointee.firstUnit), count: Int(strip.pointee.unitCount), work: strip.pointee.work, channels: currentCount, frames: frames)
        tapAnalyser(kind: AnalyserTapState.stripPost, index: index, channels: currentCount, frames: frames)
        let isSilent = Self.isExactSilence(UnsafePointer(current), channels: currentCount, frames: frames, silence: silence, isEnabled: isGatingEnabled)
        if isSilent {   // what the meter reads of exact zeros: peak 0, mean square 0
            strip.pointee.silentChunks &+= 1
            meters.update(Int(strip.pointee.meter), blockPeak: 0, blockMeanSquare: 0, factors: meterFactors)
        } else if !meterStrip(strip, channels: currentCount, frames: frames, factors: meterFactors) {
            guardNonFinite(first: Int(strip.pointee.firstUnit), count: Int(strip.pointee.unitCount), channels: currentCount, meter: Int(strip.pointee.meter), factors: meterFactors)
        }
        let isSettled = strip.pointee.gate.isSettled && strip.pointee.fader.isSettled
        let postFader = strip.pointee.gate.value * strip.pointee.fader.value
        output.pointee.first = current[0]
        output.pointee.second = current[min(1, currentCount - 1)]
        output.pointee.channels = Int32(currentCount)
        output.pointee.isSilent = isSilent
        output.pointee.sends = sendGains(of: strip, frames: frames)
        output.pointee.postFader = postFader
        output.pointee.postFaderFrames = isSettled ? nil : postFaderFrames
        tapStrip(index, channels: currentCount, frames: frames, gain: postFader, frameGains: isSettled ? nil : postFaderFrames)
    }

    /// A return strip's input `channel`: its bus's channel; a mono return of a stereo bus folds it to
    /// ½(L+R) in its last work buffer (free until the second unit writes it, by when the first has read it).
    private func returnInput(
        of strip: UnsafeMutablePointer<StripRender>, from bus: UnsafeMutablePointer<BusRender>, channel: Int, frames: Int
    ) -> UnsafePointer<Float> {
        let busChannels = Int(bus.pointee.channels)
        guard strip.pointee.channels == 1, busChannels == 2 else {
            return UnsafePointer(bus.pointee.buffers[min(channel, busChannels - 1)])
        }
        let mono = strip.pointee.work[3], left = bus.pointee.buffers[0], right = bus.pointee.buffers[1]
        for frame in 0..<frames { mono[frame] = (left[frame] + right[frame]) * 0.5 }
        return UnsafePointer(mono)
    }

    /// Pre-fader, post-unit meter of a strip (the level feeding the fader, as on a console's input meter).
    /// Returns false, publishing nothing, when the signal is not finite (NaN and ∞ make the energy non-finite).
    private func meterStrip(_ strip: UnsafeMutablePointer<StripRender>, channels: Int, frames: Int, factors: (peakDecay: Float, rmsWeight: Float)) -> Bool {
        let level = MixKernels.level(of: stripChannels, count: channels, frames: frames)
        guard level.meanSquare.isFinite else { return false }
        meters.update(Int(strip.pointee.meter), blockPeak: level.peak, blockMeanSquare: level.meanSquare, factors: factors)
        return true
    }

    /// The strip's send gains for this chunk: gate × compensation (pre-fader) and × fader (post-fader),
    /// frame by frame in ``gateFrames`` / ``postFaderFrames`` (or the compensated buffers) while any ramps.
    /// Steady at zero, the gate and fader ramps just advance.
    private mutating func sendGains(of strip: UnsafeMutablePointer<StripRender>, frames: Int) -> SendGains {
        let gainsSettled = strip.pointee.gate.isSettled && strip.pointee.fader.isSettled && !isCompensationRamping
        let gate = strip.pointee.gate.value * compensation
        let postFader = gate * strip.pointee.fader.value
        var gains = SendGains(isSettled: gainsSettled, pre: gate, post: postFader, preFrames: gateFrames, postFrames: postFaderFrames)
        if !gainsSettled {
            strip.pointee.gate.fill(gateFrames, count: frames)
            strip.pointee.fader.fill(postFaderFrames, count: frames)
            for frame in 0..<frames { postFaderFrames[frame] *= gateFrames[frame] }
            if isCompensationRamping || compensation != 1 {
                if !isCompensationRamping { compensationFrames.update(repeating: compensation, count: frames) }
                let compensated = compensatedFrames(pre: gateFrames, post: postFaderFrames, frames: frames)
                (gains.preFrames, gains.postFrames) = (UnsafePointer(compensated.pre), UnsafePointer(compensated.post))
            }
        } else if gate == 0 {
            gains.isSilent = true
            strip.pointee.gate.advance(by: frames)
            strip.pointee.fader.advance(by: frames)
        }
        return gains
    }

    /// Adds strip `index`'s signal (as ``processStrip(_:inputs:inputCount:inputOffset:frames:meterFactors:)``
    /// left it) into every bus it sends to.
    func mixSends(ofStrip index: Int, frames: Int) {
        let strip = strips + index
        for sendOffset in 0..<Int(strip.pointee.sendCount) {
            mixSend(sends + Int(strip.pointee.firstSend) + sendOffset, of: strip, output: stripOutputs + index, frames: frames)
        }
    }

    /// Adds one send of a strip into its bus (a talkback's into the bus's talk input): the strip's `output`
    /// × its send gains × each tap's level and pan law; a silent strip's send only advances its ramps and
    /// plays out its delay line.
    func mixSend(
        _ send: UnsafeMutablePointer<SendRender>, of strip: UnsafeMutablePointer<StripRender>, output: UnsafeMutablePointer<StripOutput>, frames: Int
    ) {
        let bus = buses + Int(send.pointee.bus)
        let busBuffers = strip.pointee.isTalkback ? bus.pointee.talk ?? bus.pointee.buffers : bus.pointee.buffers
        let gains = output.pointee.sends
        if let sources = send.pointee.binaural {
            let mixBuffers = send.pointee.delay == nil ? busBuffers : sendScratch
            if send.pointee.delay != nil {
                for channel in 0..<2 { MixKernels.clear(sendScratch[channel], frames: frames) }
            }
            mixBinaural(send, sources: sources, gains: gains, output: output, into: mixBuffers, frames: frames)
            if let delay = send.pointee.delay { delaySend(delay, from: UnsafePointer(sendScratch), into: busBuffers, channels: 2, frames: frames) }
            return
        }
        if gains.isSilent || output.pointee.isSilent {
            skipSilentSend(send, into: busBuffers, channels: Int(bus.pointee.channels), frames: frames)
            return
        }
        send.pointee.silentFrames = 0
        let isPreFader = send.pointee.isPreFader
        let mixBuffers = send.pointee.delay == nil ? busBuffers : sendScratch
        if send.pointee.delay != nil {
            for channel in 0..<Int(bus.pointee.channels) { MixKernels.clear(sendScratch[channel], frames: frames) }
        }
        for tapOffset in 0..<Int(send.pointee.tapCount) {
            let tap = taps + Int(send.pointee.firstTap) + tapOffset
            let source = output.pointee.channel(Int(tap.pointee.sourceChannel))
            let destination = mixBuffers[Int(tap.pointee.busChannel)]
            if gains.isSettled {
                let gain = isPreFader ? gains.pre : gains.post
                if tap.pointee.coefficient.isSettled {
                    let coefficient = gain * tap.pointee.coefficient.value
                    if coefficient != 0 { MixKernels.accumulate(source, into: destination, gain: coefficient, frames: frames) }
                } else {
                    for frame in 0..<frames { destination[frame] += source[frame] * gain * tap.pointee.coefficient.next() }
                }
            } else {
                let frameGains = isPreFader ? gains.preFrames : gains.postFrames
                for frame in 0..<frames {
                    destination[frame] += source[frame] * frameGains[frame] * tap.pointee.coefficient.next()
                }
            }
        }
        if let delay = send.pointee.delay { delaySend(delay, from: UnsafePointer(sendScratch), into: busBuffers, channels: Int(bus.pointee.channels), frames: frames) }
    }

    /// A send of a strip that adds nothing in this chunk (its gains steady at zero, or its signal exact +0.0: a
    /// product with +0.0 is ±0.0, which leaves a bus mix, built up from +0.0, as it is): its taps' ramps advance
    /// as mixing would move them, and its delay line, if any, plays out; once the line has taken in as many
    /// frames of zeros as it holds (it holds nothing else) and gating is on, only its position moves.
    private func skipSilentSend(
        _ send: UnsafeMutablePointer<SendRender>, into busBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>, channels: Int, frames: Int
    ) {
        for tapOffset in 0..<Int(send.pointee.tapCount) {
            taps[Int(send.pointee.firstTap) + tapOffset].coefficient.advance(by: frames)
        }
        if let delay = send.pointee.delay {
            if isGatingEnabled && send.pointee.silentFrames >= delay.pointee.frames {
                delay.pointee.advance(by: frames)
            } else {
                delaySend(delay, from: nil, into: busBuffers, channels: channels, frames: frames)
            }
        }
        send.pointee.silentFrames = min(send.pointee.silentFrames + frames, Int(Int32.max))
    }

    /// Passes a delayed send's mix (or silence, from nil) through its delay line into its bus's `buffers`.
    private func delaySend(
        _ delay: UnsafeMutablePointer<LookaheadDelay>, from mix: UnsafePointer<UnsafeMutablePointer<Float>>?,
        into buffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>, channels: Int, frames: Int
    ) {
        for frame in 0..<frames {
            for channel in 0..<channels {
                let sample = mix.map { $0[channel][frame] } ?? 0
                buffers[channel][frame] += delay.pointee.exchange(sample, channel: channel)
            }
            delay.pointee.advance()
        }
    }
}
