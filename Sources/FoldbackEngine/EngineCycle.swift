// One realtime cycle: accept graph swaps, apply parameter changes, render in chunks, crossfade. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
import CFoldbackTeam
#if canImport(Glibc)
import Glibc
#endif

/// The audio-thread entry point of ``Engine``.
enum EngineCycle {
    /// `fb_cycle_fn`-compatible entry: `context` is the engine's realtime state.
    static let function: @convention(c) (UnsafeMutableRawPointer?, UInt32) -> Void = { context, frames in
        guard let context else { return }
        run(context.assumingMemoryBound(to: EngineRealtimeState.self), frames: Int(frames))
    }

    /// Runs one cycle of `frames` frames (any length: longer than a graph's chunk is split).
    static func run(_ state: UnsafeMutablePointer<EngineRealtimeState>, frames: Int) {
        defer { state.pointee.cycles.wrappingIncrement(ordering: .relaxed) }
        if let team = state.pointee.team { fb_team_begin_cycle(team) }
        defer { if let team = state.pointee.team { fb_team_end_cycle(team) } }
        acceptSwaps(state)
        applyParameters(state)
        let io = state.pointee.io
        guard let current = state.pointee.current else {
            clearOutputs(io, from: 0, offset: 0, frames: frames)
            return
        }
        var offset = 0
        while offset < frames {
            var chunk = min(frames - offset, state.pointee.chunkFrames, current.pointee.maxFrames)
            if let fading = state.pointee.fadingOut { chunk = min(chunk, fading.pointee.maxFrames) }
            clearOutputs(io, from: current.pointee.outputChannelCount, offset: offset, frames: chunk)
            let isFading = state.pointee.fadingOut != nil
            if isFading || !current.pointee.renderAtRest(
                inputs: io.pointee.inputs, inputCount: io.pointee.inputCount, inputOffset: offset,
                outputs: io.pointee.outputs, outputCount: io.pointee.outputCount, outputOffset: offset, frames: chunk) {
                render(current, team: state.pointee.team,
                    inputs: io.pointee.inputs, inputCount: io.pointee.inputCount, inputOffset: offset,
                    outputs: io.pointee.outputs, outputCount: io.pointee.outputCount, outputOffset: offset, frames: chunk)
                current.pointee.noteRest()
            }
            if isFading { crossfade(state, offset: offset, frames: chunk) }
            offset += chunk
        }
    }

    /// Renders one chunk of `graph`: with the render team when there is one and the graph has lanes for it, else on this thread.
    @inline(__always)
    private static func render(
        _ graph: UnsafeMutablePointer<GraphRender>, team: OpaquePointer?,
        inputs: UnsafeMutablePointer<UnsafePointer<Float>?>, inputCount: Int, inputOffset: Int,
        outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>, outputCount: Int, outputOffset: Int, frames: Int
    ) {
        if let team, graph.pointee.laneCount + 1 >= Int(fb_team_lanes(team)) {
            GraphRender.render(
                graph, team: team, inputs: inputs, inputCount: inputCount, inputOffset: inputOffset,
                outputs: outputs, outputCount: outputCount, outputOffset: outputOffset, frames: frames)
        } else {
            graph.pointee.render(
                inputs: inputs, inputCount: inputCount, inputOffset: inputOffset,
                outputs: outputs, outputCount: outputCount, outputOffset: outputOffset, frames: frames)
        }
    }

    /// Takes queued graphs once no fade is running: the audible graph fades out toward the newest queued
    /// one; graphs queued in between were never heard and are retired at once.
    private static func acceptSwaps(_ state: UnsafeMutablePointer<EngineRealtimeState>) {
        guard state.pointee.fadingOut == nil else { return }   // a swap waits for the running fade
        var newest: GraphSwap?
        while state.pointee.swaps.peek() != nil {
            guard state.pointee.retired.freeCount >= 2 else { break }   // old graphs cannot be handed back yet
            guard let swap = state.pointee.swaps.pop() else { break }
            if let unheard = newest { _ = state.pointee.retired.push(unheard.graph) }
            newest = swap
        }
        guard let swap = newest else { return }
        let previous = state.pointee.current
        swap.graph.pointee.takeOver(from: previous, isFading: swap.fadeFrames > 0)
        if let previous {
            if swap.fadeFrames > 0 {
                state.pointee.fadingOut = previous
                previous.pointee.isTapping = false   // record taps follow the incoming graph
                state.pointee.fadePosition = 0
                state.pointee.fadeFrames = Int(swap.fadeFrames)
                state.pointee.fadeLaw = swap.law
            } else {
                _ = state.pointee.retired.push(previous)
            }
        }
        state.pointee.current = swap.graph
        state.pointee.currentGraph.store(Int(bitPattern: swap.graph), ordering: .releasing)
    }

    /// Applies queued parameter changes addressed to the current graph; drops stale ones.
    private static func applyParameters(_ state: UnsafeMutablePointer<EngineRealtimeState>) {
        while let change = state.pointee.parameters.pop() {
            if let current = state.pointee.current, change.graph == UnsafeMutableRawPointer(current) {
                current.pointee.apply(change)
            } else {
                state.pointee.droppedChanges.wrappingIncrement(ordering: .relaxed)
            }
        }
    }

    /// Renders the fading-out graph and blends it under the current graph's output for one chunk.
    private static func crossfade(_ state: UnsafeMutablePointer<EngineRealtimeState>, offset: Int, frames: Int) {
        guard let fading = state.pointee.fadingOut, let current = state.pointee.current else { return }
        let io = state.pointee.io
        let outputCount = io.pointee.outputCount
        render(fading, team: state.pointee.team,
            inputs: io.pointee.inputs, inputCount: io.pointee.inputCount, inputOffset: offset,
            outputs: state.pointee.fadeOutputs, outputCount: outputCount, outputOffset: 0, frames: frames)
        current.pointee.clearMirrors()
        let fadeIn = state.pointee.fadeInGains
        let fadeOut = state.pointee.fadeOutGains
        let length = Float(state.pointee.fadeFrames)
        for frame in 0..<frames {
            let progress = min(Float(state.pointee.fadePosition + frame + 1) / length, 1)
            if progress >= 1 {
                fadeIn[frame] = 1
                fadeOut[frame] = 0
            } else if state.pointee.fadeLaw == .equalPower {
                fadeIn[frame] = sinf(progress * Float.pi / 2)
                fadeOut[frame] = cosf(progress * Float.pi / 2)
            } else {
                fadeIn[frame] = progress
                fadeOut[frame] = 1 - progress
            }
        }
        let newChannels = min(current.pointee.outputChannelCount, outputCount)
        let oldChannels = min(fading.pointee.outputChannelCount, outputCount)
        // Channels only the new graph drives fade in; channels only the old one drove (cleared above) fade out.
        for channel in 0..<max(newChannels, oldChannels) {
            guard let output = io.pointee.outputs[channel] else { continue }
            let destination = output + offset
            let newGain = channel < newChannels ? fadeIn : nil
            if channel < oldChannels, let old = state.pointee.fadeOutputs[channel] {
                if let newGain {
                    for frame in 0..<frames { destination[frame] = destination[frame] * newGain[frame] + old[frame] * fadeOut[frame] }
                } else {
                    for frame in 0..<frames { destination[frame] = old[frame] * fadeOut[frame] }
                }
            } else {
                for frame in 0..<frames { destination[frame] *= fadeIn[frame] }
            }
        }
        state.pointee.fadePosition += frames
        if state.pointee.fadePosition >= state.pointee.fadeFrames {
            _ = state.pointee.retired.push(fading)   // room was reserved when the swap was accepted
            state.pointee.fadingOut = nil
            current.pointee.stopMirroring()
        }
    }

    /// Zeroes output channels from `first` on, for one chunk.
    private static func clearOutputs(_ io: UnsafeMutablePointer<RealtimeIO>, from first: Int, offset: Int, frames: Int) {
        let count = io.pointee.outputCount
        if first >= count { return }
        for channel in first..<count {
            if let output = io.pointee.outputs[channel] { MixKernels.clear(output + offset, frames: frames) }
        }
    }
}
