// Posts, at the start of a chunk, the units whose work is done elsewhere (a plugin sandbox) and whose input is known then. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

extension GraphRender {
    /// Calls ``UnitRenderFunctions/post`` of every strip's first unit that has one when the strip's input is known
    /// before anything renders: it reads its input ports (not a bus's return, a file source or a take), it is not
    /// dormant, the unit is not bypassed and never gated (it will run at its place in this chunk, see
    /// ``runUnits(first:count:work:channels:frames:)``), and its trim holds still, so the unit's input is computed here
    /// as ``processStrip(_:inputs:inputCount:inputOffset:frames:meterFactors:)`` will (the steady trim into the strip's
    /// own work buffers B, which it writes again with the same values). The unit's sandbox then works while the engine
    /// renders everything else; the unit collects at its place. Runs on the callback thread before any render lane
    /// takes a strip, once per chunk.
    mutating func postStripUnits(inputs: UnsafeMutablePointer<UnsafePointer<Float>?>, inputCount: Int, inputOffset: Int, frames: Int) {
        for index in 0..<stripCount {
            let strip = strips + index
            guard strip.pointee.unitCount > 0 else { continue }
            let slot = units + Int(strip.pointee.firstUnit)
            guard let post = slot.pointee.functions.post, slot.pointee.functions.rest == nil,
                  !Self.isBypassed(slot),
                  strip.pointee.returnBus < 0, stripSources[index] == nil, take == nil || takeChannels[index] < 0,
                  !Self.isDormant(strip), Self.isTrimSteady(strip)
            else { continue }
            let channels = Int(strip.pointee.channels), trim = strip.pointee.trim.value
            for channel in 0..<channels {
                let input = portInput(of: strip, channel: channel, inputs: inputs, inputCount: inputCount, inputOffset: inputOffset)
                if trim == 1 {
                    stripChannels[channel] = input
                } else {
                    MixKernels.scale(input, into: strip.pointee.work[2 + channel], gain: trim, frames: frames)
                    stripChannels[channel] = UnsafePointer(strip.pointee.work[2 + channel])
                }
            }
            for channel in 0..<Int(slot.pointee.inputChannels) { unitInputs[channel] = stripChannels[min(channel, channels - 1)] }
            post(slot.pointee.state, UnsafePointer(unitInputs), Int32(frames))
        }
    }

    /// A strip's input `channel` from the input ports (`inputs`, read at `inputOffset`), or ``silence`` for a port
    /// that is absent.
    @inline(__always)
    func portInput(
        of strip: UnsafeMutablePointer<StripRender>, channel: Int, inputs: UnsafeMutablePointer<UnsafePointer<Float>?>, inputCount: Int, inputOffset: Int
    ) -> UnsafePointer<Float> {
        let source = Int(strip.pointee.inputChannel) + channel
        guard source < inputCount, let input = inputs[source] else { return UnsafePointer(silence) }
        return input + inputOffset
    }

    /// Whether a strip is switched off and its gate has closed: it renders nothing but its ramps.
    @inline(__always)
    static func isDormant(_ strip: UnsafeMutablePointer<StripRender>) -> Bool {
        !strip.pointee.isEnabled && strip.pointee.gate.isSettled && strip.pointee.gate.value == 0
    }
}
