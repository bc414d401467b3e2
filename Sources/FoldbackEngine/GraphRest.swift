// A graph at rest: when a whole chunk rested, the next chunk of digital silence only moves clocks, meters and outputs. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

/// Silence gating of the whole graph (the step after gating units, sends and limiters one by one).
///
/// After a chunk rendered in full, ``GraphRender/noteRest()`` asks whether everything in it rested: every strip's
/// signal after its units was exact +0.0 (or the strip is dormant), each unit was skipped at rest with a deferred or
/// per-chunk advance (or is bypassed), every send's ramps were settled and its delay line held only zeros, every
/// bus's output was +0.0 with its limiter at rest, and no ramp moved. A chunk whose every live input is +0.0 would then
/// run the same skips again; ``GraphRender/renderAtRest(inputs:inputCount:inputOffset:outputs:outputCount:outputOffset:frames:)``
/// makes exactly those calls (unit clocks, delay positions, limiters' rest, meters, the loudness taps' zeros, zeroed
/// output ports) without visiting the rest of the chain, so the output, meters and taps are bit-identical.
extension GraphRender {
    /// After a chunk rendered in full: records whether the whole graph rested in it (see the extension's comment).
    mutating func noteRest() {
        isAtRest = restedInLastChunk()
    }

    /// Renders one chunk of a graph that rested in the last one, if every strip's live input is exact +0.0 and no
    /// record tap, input tap or analyser listens; returns false, having changed nothing, when it cannot.
    mutating func renderAtRest(
        inputs: UnsafeMutablePointer<UnsafePointer<Float>?>, inputCount: Int, inputOffset: Int,
        outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>, outputCount: Int, outputOffset: Int, frames: Int
    ) -> Bool {
        guard isAtRest, frames <= maxFrames else { return false }
        sampleTaps()   // what the full render samples first; sampling again there changes nothing
        sampleInputTaps()
        guard analyserKind == AnalyserTapState.off, !tapsActive, !(inputTapSwitch?.pointee.isActive ?? false),
              inputsAreSilent(inputs, inputCount: inputCount, inputOffset: inputOffset, frames: frames)
        else {
            isAtRest = false
            return false
        }
        let factors = meters.factors(frames: frames)
        for index in 0..<stripCount {
            let strip = strips + index
            if !Self.isDormant(strip) { strip.pointee.silentChunks &+= 1 }
            meters.updateSilent(Int(strip.pointee.meter), factors: factors)
            for offset in 0..<Int(strip.pointee.sendCount) {
                let send = sends + Int(strip.pointee.firstSend) + offset
                send.pointee.delay?.pointee.advance(by: frames)
                send.pointee.silentFrames = min(send.pointee.silentFrames + frames, Int(Int32.max))
            }
            if !Self.isDormant(strip) { restUnits(first: Int(strip.pointee.firstUnit), count: Int(strip.pointee.unitCount), frames: frames) }
        }
        for index in 0..<busCount {
            let bus = buses + index
            restUnits(first: Int(bus.pointee.firstUnit), count: Int(bus.pointee.unitCount), frames: frames)
            if let limiter = bus.pointee.limiter {   // found at rest in the last chunk, untouched since
                limiter.pointee.restAgain(frames: frames)
                bus.pointee.limiterGatedChunks &+= 1
            }
            meters.updateSilent(Int(bus.pointee.meter), factors: factors)
            if isTapping, let analysis = busAnalysisTaps[index] {
                analysis.pointee.write(UnsafePointer(unitInputs), count: 0, frames: frames, gain: 1, frameGains: nil)
            }
            for channel in 0..<Int(bus.pointee.channels) {
                let port = Int(bus.pointee.outputChannel) + channel
                if port < outputCount, let output = outputs[port] { MixKernels.clear(output + outputOffset, frames: frames) }
            }
        }
        restChunks &+= 1
        return true
    }

    /// Whether every strip that reads input ports reads exact +0.0 there (an absent port reads the graph's zeros).
    private func inputsAreSilent(_ inputs: UnsafeMutablePointer<UnsafePointer<Float>?>, inputCount: Int, inputOffset: Int, frames: Int) -> Bool {
        for index in 0..<stripCount {
            let strip = strips + index
            guard strip.pointee.returnBus < 0, !Self.isDormant(strip) else { continue }
            for channel in 0..<Int(strip.pointee.channels) {
                let input = portInput(of: strip, channel: channel, inputs: inputs, inputCount: inputCount, inputOffset: inputOffset)
                if input != UnsafePointer(silence) && !Self.isExactSilence(input, frames: frames) { return false }
            }
        }
        return true
    }

    /// The units `first..<first + count`, all known at rest or bypassed: another chunk of zeros (their clocks).
    private func restUnits(first: Int, count: Int, frames: Int) {
        for offset in 0..<count {
            let slot = units + first + offset
            guard let advance = slot.pointee.functions.rest?.advance, !Self.isBypassed(slot) else { continue }
            Self.restAgain(slot, advance: advance, eachChunk: slot.pointee.functions.rest?.advancesEachChunk ?? false, frames: frames)
            slot.pointee.gatedChunks &+= 1
        }
    }

    /// Whether everything rested in the chunk just rendered (see the extension's comment). The few buses are asked
    /// first, whether they rested before anything else: while anything sounds, one of them does, so a busy chunk
    /// pays a handful of reads for this.
    private func restedInLastChunk() -> Bool {
        guard isGatingEnabled, cue == nil, take == nil, analyserKind == AnalyserTapState.off, !tapsActive,
              !(inputTapSwitch?.pointee.isActive ?? false) else { return false }
        for index in 0..<busCount {
            let bus = buses + index
            guard bus.pointee.restedLastChunk, bus.pointee.room == nil, bus.pointee.gain.isSettled, bus.pointee.dim.isSettled,
                  unitsRest(first: Int(bus.pointee.firstUnit), count: Int(bus.pointee.unitCount)) else { return false }
        }
        for index in 0..<stripCount {
            let strip = strips + index
            guard stripSources[index] == nil, strip.pointee.gate.isSettled, strip.pointee.fader.isSettled,
                  Self.isTrimSteady(strip), sendsRest(of: strip) else { return false }
            if Self.isDormant(strip) { continue }
            guard stripOutputs[index].isSilent, stripOutputs[index].channels > 0,
                  unitsRest(first: Int(strip.pointee.firstUnit), count: Int(strip.pointee.unitCount)) else { return false }
        }
        return true
    }

    /// Whether a strip's sends added nothing and will add nothing on silence: no binaural source, every tap's ramp
    /// settled, every delay line drained (so a silent chunk only moves its position).
    private func sendsRest(of strip: UnsafeMutablePointer<StripRender>) -> Bool {
        for offset in 0..<Int(strip.pointee.sendCount) {
            let send = sends + Int(strip.pointee.firstSend) + offset
            guard send.pointee.binaural == nil else { return false }
            if let delay = send.pointee.delay, send.pointee.silentFrames < delay.pointee.frames { return false }
            for tap in 0..<Int(send.pointee.tapCount) where !taps[Int(send.pointee.firstTap) + tap].coefficient.isSettled { return false }
        }
        return true
    }

    /// Whether every unit of `first..<first + count` is bypassed or known at rest with an advance, and no handover mirrors it.
    private func unitsRest(first: Int, count: Int) -> Bool {
        for offset in 0..<count {
            let slot = units + first + offset
            if Self.isBypassed(slot) { continue }
            guard slot.pointee.isKnownAtRest, slot.pointee.functions.rest?.advance != nil, slot.pointee.mirror == nil,
                  slot.pointee.bypass.isSettled, slot.pointee.bypass.value == 0 else { return false }
        }
        return true
    }

    /// Whether a unit is bypassed outright (no crossfade running): the chain passes it by.
    @inline(__always)
    static func isBypassed(_ slot: UnsafeMutablePointer<UnitSlot>) -> Bool {
        slot.pointee.bypass.isSettled && slot.pointee.bypass.value >= 1
    }
}
