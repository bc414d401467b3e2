// Runs a chain of units (a strip's or a bus's) with bypass crossfades, and its NaN guard. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

extension GraphRender {
    /// Runs the units `first..<first + count` in order on ``stripChannels`` (`channels` of them) through the
    /// ping-pong `work` buffers ([A0, A1, B0, B1]); returns the channel count after them.
    /// A unit at rest on exact zeros is skipped (silence gating: ``skipsAtRest(_:isInputSilent:frames:)``).
    mutating func runUnits(first: Int, count: Int, work: UnsafeMutablePointer<UnsafeMutablePointer<Float>>, channels: Int, frames: Int) -> Int {
        let current = stripChannels, silence = UnsafePointer(self.silence), gating = isGatingEnabled
        var currentCount = channels
        var useFirstPair = true
        var isSilent = count > 0 && Self.isExactSilence(UnsafePointer(current), channels: currentCount, frames: frames, silence: silence, isEnabled: gating)
        for offset in 0..<count {
            let slot = units + first + offset
            let inputChannels = Int(slot.pointee.inputChannels)
            let outputChannels = Int(slot.pointee.outputChannels)
            if Self.isBypassed(slot) {
                for channel in currentCount..<max(currentCount, outputChannels) { current[channel] = current[currentCount - 1] }
                currentCount = max(currentCount, outputChannels)
                continue
            }
            if Self.skipsAtRest(slot, isInputSilent: isSilent, frames: frames) {
                for channel in 0..<outputChannels { current[channel] = silence }
                currentCount = outputChannels
                continue
            }
            for channel in 0..<inputChannels {
                unitInputs[channel] = current[min(channel, currentCount - 1)]
            }
            let pair = useFirstPair ? 0 : 2
            for channel in 0..<outputChannels {
                unitOutputs[channel] = work[pair + channel]
            }
            noteActiveUnit(first + offset)
            Self.wake(slot)
            slot.pointee.functions.process(slot.pointee.state, UnsafePointer(unitInputs), UnsafePointer(unitOutputs), Int32(frames))
            mirrorOutput(of: slot, frames: frames)
            if !(slot.pointee.bypass.isSettled && slot.pointee.bypass.value == 0) {
                blendDry(into: slot, dry: current, dryCount: currentCount, frames: frames)
            }
            for channel in 0..<outputChannels { current[channel] = UnsafePointer(unitOutputs[channel]) }
            currentCount = outputChannels
            useFirstPair.toggle()
            isSilent = offset + 1 < count
                && Self.isExactSilence(UnsafePointer(current), channels: currentCount, frames: frames, silence: silence, isEnabled: gating)
        }
        noteActiveUnit(-1)
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


    /// The NaN/Inf guard: a non-finite sample silences the chain's output for this chunk, resets the units
    /// `first..<first + count` (so a blown-up filter recovers) and counts the trip on `meter` for the status line.
    mutating func guardNonFinite(first: Int, count: Int, channels: Int, meter: Int, factors: (peakDecay: Float, rmsWeight: Float)) {
        for channel in 0..<channels { stripChannels[channel] = UnsafePointer(silence) }
        for offset in 0..<count {
            let slot = units + first + offset
            Self.wake(slot)
            slot.pointee.functions.reset(slot.pointee.state)
        }
        meters.recordGuardTrip(meter)
        meters.update(meter, blockPeak: 0, blockMeanSquare: 0, factors: factors)
    }
}
