// Renders a whole graph for one chunk: clear buses, then strips and buses in routing order (bus units, gains, limiters, outputs, meters). Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

extension GraphRender {
    /// Renders `frames` frames: inputs read at `inputOffset`, outputs written at `outputOffset`, on the
    /// calling thread alone, strips and buses in routing order.
    /// Output channels the graph does not drive are left untouched (the engine clears them).
    mutating func render(
        inputs: UnsafeMutablePointer<UnsafePointer<Float>?>,
        inputCount: Int,
        inputOffset: Int,
        outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>,
        outputCount: Int,
        outputOffset: Int,
        frames: Int
    ) {
        let factors = beginChunk(inputs: inputs, inputCount: inputCount, inputOffset: inputOffset, frames: frames)
        for step in 0..<orderCount {
            let item = Int(order[step])
            if item >= 0 {
                renderStrip(item, inputs: inputs, inputCount: inputCount, inputOffset: inputOffset, frames: frames, meterFactors: factors)
            } else {
                renderBus(buses + (-item - 1), outputs: outputs, outputCount: outputCount, outputOffset: outputOffset, frames: frames, factors: factors)
                cueBus(-item - 1, frames: frames)
            }
        }
        finishCue(outputs: outputs, outputCount: outputCount, outputOffset: outputOffset, frames: frames)
    }

    /// Starts a chunk: samples the record switch, clears the cue mix and every bus mix, posts the units whose input is
    /// known already (``postStripUnits(inputs:inputCount:inputOffset:frames:)``); returns the meters' factors.
    mutating func beginChunk(
        inputs: UnsafeMutablePointer<UnsafePointer<Float>?>, inputCount: Int, inputOffset: Int, frames: Int
    ) -> (peakDecay: Float, rmsWeight: Float) {
        sampleTaps()
        sampleInputTaps()
        readTake(frames: frames)
        clearCue(frames: frames)
        for bus in 0..<busCount {
            for channel in 0..<Int(buses[bus].channels) {
                MixKernels.clear(buses[bus].buffers[channel], frames: frames)
                if let talk = buses[bus].talk { MixKernels.clear(talk[channel], frames: frames) }
            }
        }
        postStripUnits(inputs: inputs, inputCount: inputCount, inputOffset: inputOffset, frames: frames)
        return meters.factors(frames: frames)
    }

    /// Runs a bus's units on its mix and leaves the bus's channels in ``stripChannels`` (a stereo result on
    /// a mono bus is folded to mono at half level, a mono result feeds both sides of a stereo bus).
    private mutating func runBusUnits(_ bus: UnsafeMutablePointer<BusRender>, frames: Int, factors: (peakDecay: Float, rmsWeight: Float)) {
        let channels = Int(bus.pointee.channels)
        for channel in 0..<channels { stripChannels[channel] = UnsafePointer(bus.pointee.buffers[channel]) }
        guard bus.pointee.unitCount > 0 else { return }
        let first = Int(bus.pointee.firstUnit), count = Int(bus.pointee.unitCount)
        let produced = runUnits(first: first, count: count, work: bus.pointee.work, channels: channels, frames: frames)
        if !MixKernels.level(of: stripChannels, count: produced, frames: frames).meanSquare.isFinite {
            guardNonFinite(first: first, count: count, channels: produced, meter: Int(bus.pointee.meter), factors: factors)
        }
        if produced > channels {
            let left = stripChannels[0], right = stripChannels[1], mono = bus.pointee.buffers[0]
            for frame in 0..<frames { mono[frame] = (left[frame] + right[frame]) * 0.5 }
            stripChannels[0] = UnsafePointer(mono)
        } else if produced < channels {
            stripChannels[1] = stripChannels[0]
        }
    }

    /// Writes ``stripChannels`` × the `gain` ramp into output ports from `firstPort` on (into `fallback`,
    /// in place, where a port is absent) and leaves where each channel went in ``unitOutputs`` and ``unitInputs``.
    func writeScaled(
        channels: Int, gain: inout LinearSmoother, firstPort: Int, fallback: UnsafeMutablePointer<UnsafeMutablePointer<Float>>,
        outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>, outputCount: Int, outputOffset: Int, frames: Int
    ) {
        let start = gain
        var ramp = start
        for channel in 0..<channels {
            ramp = start
            let mix = stripChannels[channel]
            let port = firstPort + channel
            var destination = fallback[channel]
            if port < outputCount, let output = outputs[port] { destination = output + outputOffset }
            if ramp.isSettled {
                MixKernels.scale(mix, into: destination, gain: ramp.value, frames: frames)
            } else {
                for frame in 0..<frames { destination[frame] = mix[frame] * ramp.next() }
            }
            unitOutputs[channel] = destination
            unitInputs[channel] = UnsafePointer(destination)
        }
        gain = ramp
    }

    /// Runs a bus's units, applies its output gain into its output ports (or in place when a port is
    /// absent, as for an effect bus), then its limiter, meters and taps the final output and leaves it in
    /// ``busOutputs`` for the cue.
    mutating func renderBus(
        _ bus: UnsafeMutablePointer<BusRender>,
        outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>,
        outputCount: Int,
        outputOffset: Int,
        frames: Int,
        factors: (peakDecay: Float, rmsWeight: Float)
    ) {
        if let room = bus.pointee.room {
            room.pointee.process(left: bus.pointee.buffers[0], right: bus.pointee.buffers[1], frames: frames)
        }
        mixTalk(into: bus, frames: frames)
        runBusUnits(bus, frames: frames, factors: factors)
        let channels = Int(bus.pointee.channels)
        // Exact +0.0 after the units stays +0.0 through the gain (≥ 0) and a limiter at rest, and meters as 0.
        let isSilent = Self.isExactSilence(UnsafePointer(stripChannels), channels: channels, frames: frames, silence: silence, isEnabled: isGatingEnabled)
        let destinations = unitOutputs   // free scratch between units
        writeScaled(
            channels: channels, gain: &bus.pointee.gain, firstPort: Int(bus.pointee.outputChannel), fallback: bus.pointee.buffers,
            outputs: outputs, outputCount: outputCount, outputOffset: outputOffset, frames: frames)
        var isOutputSilent = isSilent
        if let limiter = bus.pointee.limiter, !(isSilent && limiter.pointee.skipsAtRest(frames: frames)) {
            limiter.pointee.process(inputs: UnsafePointer(unitInputs), outputs: UnsafePointer(destinations), channels: channels, frames: frames)
            isOutputSilent = false
        } else if isSilent, bus.pointee.limiter != nil {
            bus.pointee.limiterGatedChunks &+= 1
        }
        let level = isOutputSilent
            ? (peak: Float(0), meanSquare: Float(0))
            : MixKernels.level(of: unitInputs, count: channels, frames: frames)   // = destinations, limited in place
        if bus.pointee.isReturned {
            for channel in 0..<channels where destinations[channel] != bus.pointee.buffers[channel] {
                MixKernels.scale(unitInputs[channel], into: bus.pointee.buffers[channel], gain: 1, frames: frames)
            }
        }
        meters.update(Int(bus.pointee.meter), blockPeak: level.peak, blockMeanSquare: level.meanSquare, factors: factors)
        tapBus(bus - buses, channels: channels, frames: frames, isSilent: isOutputSilent)
        bus.pointee.restedLastChunk = isOutputSilent
        busOutputs[bus - buses] = BusOutput(first: unitInputs[0], second: unitInputs[min(1, channels - 1)], channels: Int32(channels))
    }
}
