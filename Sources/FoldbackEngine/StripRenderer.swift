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
        for channel in 0..<currentCount where !hasFileSource {
            let source = Int(strip.pointee.inputChannel) + channel
            if source < inputCount, let input = inputs[source] {
                current[channel] = input + inputOffset
            } else {
                current[channel] = UnsafePointer(silence)
            }
        }

        let isDormant = !strip.pointee.isEnabled && strip.pointee.gate.isSettled && strip.pointee.gate.value == 0
        if isDormant {
            meters.update(Int(strip.pointee.meter), blockPeak: 0, blockMeanSquare: 0, factors: meterFactors)
            advanceTaps(of: strip, frames: frames)
            tapStrip(index, channels: 0, frames: frames, gain: 0, frameGains: nil)
            return
        }

        currentCount = runUnits(of: strip, channels: currentCount, frames: frames)
        if !meterStrip(strip, channels: currentCount, frames: frames, factors: meterFactors) {
            guardNonFinite(strip, channels: currentCount, factors: meterFactors)
        }
        let isSettled = strip.pointee.gate.isSettled && strip.pointee.fader.isSettled
        let postFader = strip.pointee.gate.value * strip.pointee.fader.value
        mixSends(of: strip, channels: currentCount, frames: frames)
        tapStrip(index, channels: currentCount, frames: frames, gain: postFader, frameGains: isSettled ? nil : postFaderFrames)
    }

    /// The NaN/Inf guard: a non-finite sample silences the strip for this chunk, resets its units'
    /// state (so a blown-up filter recovers) and counts the trip for the status line.
    private mutating func guardNonFinite(_ strip: UnsafeMutablePointer<StripRender>, channels: Int, factors: (peakDecay: Float, rmsWeight: Float)) {
        for channel in 0..<channels { stripChannels[channel] = UnsafePointer(silence) }
        for offset in 0..<Int(strip.pointee.unitCount) {
            let slot = units + Int(strip.pointee.firstUnit) + offset
            slot.pointee.functions.reset(slot.pointee.state)
        }
        meters.recordGuardTrip(Int(strip.pointee.meter))
        meters.update(Int(strip.pointee.meter), blockPeak: 0, blockMeanSquare: 0, factors: factors)
    }

    /// Runs the strip's units in order through ping-pong work buffers; returns the channel count after them.
    private mutating func runUnits(of strip: UnsafeMutablePointer<StripRender>, channels: Int, frames: Int) -> Int {
        let current = stripChannels
        var currentCount = channels
        var useFirstPair = true
        for offset in 0..<Int(strip.pointee.unitCount) {
            let slot = units + Int(strip.pointee.firstUnit) + offset
            let inputChannels = Int(slot.pointee.inputChannels)
            let outputChannels = Int(slot.pointee.outputChannels)
            if slot.pointee.bypass.isSettled && slot.pointee.bypass.value >= 1 {
                for channel in currentCount..<max(currentCount, outputChannels) { current[channel] = current[currentCount - 1] }
                currentCount = max(currentCount, outputChannels)
                continue
            }
            for channel in 0..<inputChannels {
                unitInputs[channel] = current[min(channel, currentCount - 1)]
            }
            let pair = useFirstPair ? 0 : 2
            for channel in 0..<outputChannels {
                unitOutputs[channel] = strip.pointee.work[pair + channel]
            }
            slot.pointee.functions.process(slot.pointee.state, UnsafePointer(unitInputs), UnsafePointer(unitOutputs), Int32(frames))
            mirrorOutput(of: slot, frames: frames)
            if !(slot.pointee.bypass.isSettled && slot.pointee.bypass.value == 0) {
                blendDry(into: slot, dry: current, dryCount: currentCount, frames: frames)
            }
            for channel in 0..<outputChannels { current[channel] = UnsafePointer(unitOutputs[channel]) }
            currentCount = outputChannels
            useFirstPair.toggle()
        }
        return currentCount
    }

    /// Bypass crossfade: mixes the dry signal into the unit's output by the bypass ramp (1 = all dry).
    private mutating func blendDry(
        into slot: UnsafeMutablePointer<UnitSlot>,
        dry: UnsafeMutablePointer<UnsafePointer<Float>>,
        dryCount: Int,
        frames: Int
    ) {
        let start = slot.pointee.bypass
        var ramp = start
        for channel in 0..<Int(slot.pointee.outputChannels) {
            ramp = start
            let output = unitOutputs[channel]
            let source = dry[min(channel, dryCount - 1)]
            for frame in 0..<frames {
                let mix = ramp.next()
                output[frame] += (source[frame] - output[frame]) * mix
            }
        }
        slot.pointee.bypass = ramp
    }

    /// Pre-fader, post-unit meter of a strip (the level feeding the fader, as on a console's input meter).
    /// Returns false, publishing nothing, when the signal is not finite (NaN and ∞ make the energy non-finite).
    private func meterStrip(_ strip: UnsafeMutablePointer<StripRender>, channels: Int, frames: Int, factors: (peakDecay: Float, rmsWeight: Float)) -> Bool {
        let level = MixKernels.level(of: stripChannels, count: channels, frames: frames)
        guard level.meanSquare.isFinite else { return false }
        meters.update(Int(strip.pointee.meter), blockPeak: level.peak, blockMeanSquare: level.meanSquare, factors: factors)
        return true
    }

    /// Adds the strip's signal into every bus it sends to: gate × (fader unless pre-fader) × send level × pan law.
    private mutating func mixSends(of strip: UnsafeMutablePointer<StripRender>, channels: Int, frames: Int) {
        let gainsSettled = strip.pointee.gate.isSettled && strip.pointee.fader.isSettled
        let gate = strip.pointee.gate.value
        let postFader = gate * strip.pointee.fader.value
        if !gainsSettled {
            strip.pointee.gate.fill(gateFrames, count: frames)
            strip.pointee.fader.fill(postFaderFrames, count: frames)
            for frame in 0..<frames { postFaderFrames[frame] *= gateFrames[frame] }
        } else if gate == 0 {
            advanceTaps(of: strip, frames: frames)
            return
        }
        for sendOffset in 0..<Int(strip.pointee.sendCount) {
            let send = sends + Int(strip.pointee.firstSend) + sendOffset
            let bus = buses + Int(send.pointee.bus)
            let isPreFader = send.pointee.isPreFader
            for tapOffset in 0..<Int(send.pointee.tapCount) {
                let tap = taps + Int(send.pointee.firstTap) + tapOffset
                let source = stripChannels[min(Int(tap.pointee.sourceChannel), channels - 1)]
                let destination = bus.pointee.buffers[Int(tap.pointee.busChannel)]
                if gainsSettled {
                    let gain = isPreFader ? gate : postFader
                    if tap.pointee.coefficient.isSettled {
                        let coefficient = gain * tap.pointee.coefficient.value
                        if coefficient != 0 { MixKernels.accumulate(source, into: destination, gain: coefficient, frames: frames) }
                    } else {
                        for frame in 0..<frames { destination[frame] += source[frame] * gain * tap.pointee.coefficient.next() }
                    }
                } else {
                    let frameGains = isPreFader ? gateFrames : postFaderFrames
                    for frame in 0..<frames {
                        destination[frame] += source[frame] * frameGains[frame] * tap.pointee.coefficient.next()
                    }
                }
            }
        }
    }

    /// Keeps send ramps on schedule while a strip is silent.
    private func advanceTaps(of strip: UnsafeMutablePointer<StripRender>, frames: Int) {
        for sendOffset in 0..<Int(strip.pointee.sendCount) {
            let send = sends + Int(strip.pointee.firstSend) + sendOffset
            for tapOffset in 0..<Int(send.pointee.tapCount) {
                taps[Int(send.pointee.firstTap) + tapOffset].coefficient.advance(by: frames)
            }
        }
        strip.pointee.gate.advance(by: frames)
        strip.pointee.fader.advance(by: frames)
    }
}
