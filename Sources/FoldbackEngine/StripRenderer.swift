// Renders one strip for one chunk: units with bypass crossfades, pre-fader meter, gates, fader and sends. Realtime.
import FoldbackDSP

extension GraphRender {
    /// Processes strip `index` for `frames` frames of input (read at `inputOffset`), mixing its sends into the bus buffers.
    mutating func renderStrip(
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
            let source = Int(strip.pointee.inputChannel) + channel
            if returnBus >= 0 {
                current[channel] = returnInput(of: strip, from: buses + returnBus, channel: channel, frames: frames)
            } else if source < inputCount, let input = inputs[source] {
                current[channel] = input + inputOffset
            } else {
                current[channel] = UnsafePointer(silence)
            }
        }

        let isDormant = !strip.pointee.isEnabled && strip.pointee.gate.isSettled && strip.pointee.gate.value == 0
        if isDormant {
            meters.update(Int(strip.pointee.meter), blockPeak: 0, blockMeanSquare: 0, factors: meterFactors)
            advanceTrim(of: strip, frames: frames)
            advanceTaps(of: strip, frames: frames)
            tapStrip(index, channels: 0, frames: frames, gain: 0, frameGains: nil)
            cueStrip(index, channels: 0, postFader: 0, frameGains: nil, frames: frames)
            return
        }

        applyTrim(strip, channels: currentCount, frames: frames)
        currentCount = runUnits(first: Int(strip.pointee.firstUnit), count: Int(strip.pointee.unitCount), work: strip.pointee.work, channels: currentCount, frames: frames)
        if !meterStrip(strip, channels: currentCount, frames: frames, factors: meterFactors) {
            guardNonFinite(first: Int(strip.pointee.firstUnit), count: Int(strip.pointee.unitCount), channels: currentCount, meter: Int(strip.pointee.meter), factors: meterFactors)
        }
        let isSettled = strip.pointee.gate.isSettled && strip.pointee.fader.isSettled
        let postFader = strip.pointee.gate.value * strip.pointee.fader.value
        mixSends(of: strip, channels: currentCount, frames: frames)
        tapStrip(index, channels: currentCount, frames: frames, gain: postFader, frameGains: isSettled ? nil : postFaderFrames)
        cueStrip(index, channels: currentCount, postFader: postFader, frameGains: isSettled ? nil : postFaderFrames, frames: frames)
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

    /// Adds the strip's signal into every bus it sends to (a talkback's into their talk inputs):
    /// gate × (fader unless pre-fader) × trim compensation × send level × pan law.
    private mutating func mixSends(of strip: UnsafeMutablePointer<StripRender>, channels: Int, frames: Int) {
        let gainsSettled = strip.pointee.gate.isSettled && strip.pointee.fader.isSettled && !isCompensationRamping
        let gate = strip.pointee.gate.value * compensation
        let postFader = gate * strip.pointee.fader.value
        var preFrames = gateFrames, postFrames = postFaderFrames
        if !gainsSettled {
            strip.pointee.gate.fill(gateFrames, count: frames)
            strip.pointee.fader.fill(postFaderFrames, count: frames)
            for frame in 0..<frames { postFaderFrames[frame] *= gateFrames[frame] }
            if isCompensationRamping || compensation != 1 {
                if !isCompensationRamping { compensationFrames.update(repeating: compensation, count: frames) }
                (preFrames, postFrames) = compensatedFrames(pre: gateFrames, post: postFaderFrames, frames: frames)
            }
        } else if gate == 0 {
            advanceTaps(of: strip, frames: frames)
            return
        }
        for sendOffset in 0..<Int(strip.pointee.sendCount) {
            let send = sends + Int(strip.pointee.firstSend) + sendOffset
            let bus = buses + Int(send.pointee.bus)
            let isPreFader = send.pointee.isPreFader
            let busBuffers = strip.pointee.isTalkback ? bus.pointee.talk ?? bus.pointee.buffers : bus.pointee.buffers
            let mixBuffers = send.pointee.delay == nil ? busBuffers : sendScratch
            if send.pointee.delay != nil {
                for channel in 0..<Int(bus.pointee.channels) { MixKernels.clear(sendScratch[channel], frames: frames) }
            }
            for tapOffset in 0..<Int(send.pointee.tapCount) {
                let tap = taps + Int(send.pointee.firstTap) + tapOffset
                let source = stripChannels[min(Int(tap.pointee.sourceChannel), channels - 1)]
                let destination = mixBuffers[Int(tap.pointee.busChannel)]
                if gainsSettled {
                    let gain = isPreFader ? gate : postFader
                    if tap.pointee.coefficient.isSettled {
                        let coefficient = gain * tap.pointee.coefficient.value
                        if coefficient != 0 { MixKernels.accumulate(source, into: destination, gain: coefficient, frames: frames) }
                    } else {
                        for frame in 0..<frames { destination[frame] += source[frame] * gain * tap.pointee.coefficient.next() }
                    }
                } else {
                    let frameGains = isPreFader ? preFrames : postFrames
                    for frame in 0..<frames {
                        destination[frame] += source[frame] * frameGains[frame] * tap.pointee.coefficient.next()
                    }
                }
            }
            if let delay = send.pointee.delay { delaySend(delay, from: UnsafePointer(sendScratch), into: busBuffers, channels: Int(bus.pointee.channels), frames: frames) }
        }
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

    /// Keeps send ramps on schedule while a strip is silent, and lets delayed sends play out their lines.
    private func advanceTaps(of strip: UnsafeMutablePointer<StripRender>, frames: Int) {
        for sendOffset in 0..<Int(strip.pointee.sendCount) {
            let send = sends + Int(strip.pointee.firstSend) + sendOffset
            if let delay = send.pointee.delay {
                let bus = buses + Int(send.pointee.bus)
                let buffers = strip.pointee.isTalkback ? bus.pointee.talk ?? bus.pointee.buffers : bus.pointee.buffers
                delaySend(delay, from: nil, into: buffers, channels: Int(bus.pointee.channels), frames: frames)
            }
            for tapOffset in 0..<Int(send.pointee.tapCount) {
                taps[Int(send.pointee.firstTap) + tapOffset].coefficient.advance(by: frames)
            }
        }
        strip.pointee.gate.advance(by: frames)
        strip.pointee.fader.advance(by: frames)
    }
}
