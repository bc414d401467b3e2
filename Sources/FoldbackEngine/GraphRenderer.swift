// Renders a whole graph for one chunk: clear buses, strips, bus gains, outputs and meters. Realtime.
import FoldbackDSP

extension GraphRender {
    /// Renders `frames` frames: inputs read at `inputOffset`, outputs written at `outputOffset`.
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
        let factors = meters.factors(frames: frames)
        sampleTaps()
        for bus in 0..<busCount {
            for channel in 0..<Int(buses[bus].channels) {
                MixKernels.clear(buses[bus].buffers[channel], frames: frames)
            }
        }
        for strip in 0..<stripCount {
            renderStrip(strip, inputs: inputs, inputCount: inputCount, inputOffset: inputOffset, frames: frames, meterFactors: factors)
        }
        for bus in 0..<busCount {
            renderBus(buses + bus, outputs: outputs, outputCount: outputCount, outputOffset: outputOffset, frames: frames, factors: factors)
        }
    }

    /// Applies a bus's output gain into its output ports (or in place when a port is absent), then its
    /// limiter, and meters the final output.
    private func renderBus(
        _ bus: UnsafeMutablePointer<BusRender>,
        outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>,
        outputCount: Int,
        outputOffset: Int,
        frames: Int,
        factors: (peakDecay: Float, rmsWeight: Float)
    ) {
        let start = bus.pointee.gain
        var ramp = start
        let channels = Int(bus.pointee.channels)
        let destinations = unitOutputs   // free scratch once the strips are rendered
        for channel in 0..<channels {
            ramp = start
            let mix = bus.pointee.buffers[channel]
            let port = Int(bus.pointee.outputChannel) + channel
            var destination = mix
            if port < outputCount, let output = outputs[port] { destination = output + outputOffset }
            if ramp.isSettled {
                MixKernels.scale(mix, into: destination, gain: ramp.value, frames: frames)
            } else {
                for frame in 0..<frames { destination[frame] = mix[frame] * ramp.next() }
            }
            destinations[channel] = destination
            unitInputs[channel] = UnsafePointer(destination)
        }
        bus.pointee.gain = ramp
        if let limiter = bus.pointee.limiter {
            limiter.pointee.process(inputs: UnsafePointer(unitInputs), outputs: UnsafePointer(destinations), channels: channels, frames: frames)
        }
        let level = MixKernels.level(of: unitInputs, count: channels, frames: frames)   // = destinations, limited in place
        meters.update(Int(bus.pointee.meter), blockPeak: level.peak, blockMeanSquare: level.meanSquare, factors: factors)
        tapBus(bus - buses, channels: channels, frames: frames)
    }
}
