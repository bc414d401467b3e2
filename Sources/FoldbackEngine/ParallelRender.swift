// Renders a graph's chunk with a render team: strips in parallel, their sends bus by bus, buses in parallel, then the cue in routing order. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldbackTeam

/// What every lane needs to run the items of one chunk; lives on the callback thread's stack for the chunk.
struct ParallelChunk {
    var graph: UnsafeMutablePointer<GraphRender>
    var stage: RenderStages.Stage
    var inputs: UnsafeMutablePointer<UnsafePointer<Float>?>
    var inputCount: Int
    var inputOffset: Int
    var outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    var outputCount: Int
    var outputOffset: Int
    var frames: Int
    var factors: (peakDecay: Float, rmsWeight: Float)
}

extension GraphRender {
    /// Renders `frames` frames of `graph` as ``render(inputs:inputCount:inputOffset:outputs:outputCount:outputOffset:frames:)``
    /// does, its stages shared out over `team`'s lanes (the graph must have lanes for them, see
    /// ``EngineGraph/prepareLanes(_:)``). The output is bit-identical to the one-thread render.
    static func render(
        _ graph: UnsafeMutablePointer<GraphRender>, team: OpaquePointer,
        inputs: UnsafeMutablePointer<UnsafePointer<Float>?>, inputCount: Int, inputOffset: Int,
        outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>, outputCount: Int, outputOffset: Int, frames: Int
    ) {
        let factors = graph.pointee.beginChunk(inputs: inputs, inputCount: inputCount, inputOffset: inputOffset, frames: frames)
        let plan = graph.pointee.stages
        var chunk = ParallelChunk(
            graph: graph, stage: plan.stages[0], inputs: inputs, inputCount: inputCount, inputOffset: inputOffset,
            outputs: outputs, outputCount: outputCount, outputOffset: outputOffset, frames: frames, factors: factors)
        withUnsafeMutablePointer(to: &chunk) { chunk in
            for stage in 0..<plan.stageCount {
                chunk.pointee.stage = plan.stages[stage]
                // A literal, not a stored closure: no lazily initialised global is touched on the audio thread.
                fb_team_run(team, { context, lane, item in GraphRender.runItem(context, lane: lane, item: item) }, UnsafeMutableRawPointer(chunk), UInt32(plan.stages[stage].itemCount))
            }
        }
        if graph.pointee.cue != nil {
            for step in 0..<graph.pointee.orderCount {
                let item = Int(graph.pointee.order[step])
                if item >= 0 { graph.pointee.cueStrip(item, frames: frames) } else { graph.pointee.cueBus(-item - 1, frames: frames) }
            }
        }
        graph.pointee.finishCue(outputs: outputs, outputCount: outputCount, outputOffset: outputOffset, frames: frames)
    }

    /// One item of the current stage, on render lane `lane`: a strip, one bus's sends, or a bus.
    private static func runItem(_ context: UnsafeMutableRawPointer?, lane: UInt32, item: UInt32) {
        guard let chunk = context?.assumingMemoryBound(to: ParallelChunk.self) else { return }
        let plan = chunk.pointee.graph.pointee.stages
        let stage = chunk.pointee.stage
        let index = Int(plan.items[Int(stage.firstItem) + Int(item)])
        let frames = chunk.pointee.frames
        switch stage.kind {
        case .strips:
            var view = chunk.pointee.graph.pointee.view(lane: Int(lane), strip: index)
            view.processStrip(
                index, inputs: chunk.pointee.inputs, inputCount: chunk.pointee.inputCount, inputOffset: chunk.pointee.inputOffset,
                frames: frames, meterFactors: chunk.pointee.factors)
        case .mix:
            let view = chunk.pointee.graph.pointee.view(lane: Int(lane))
            let job = plan.mixJobs[index]
            for offset in 0..<Int(job.feederCount) {
                let feeder = plan.feeders[Int(job.firstFeeder) + offset]
                view.mixSend(view.sends + Int(feeder.send), of: view.strips + Int(feeder.strip), output: view.stripOutputs + Int(feeder.strip), frames: frames)
            }
        case .buses:
            var view = chunk.pointee.graph.pointee.view(lane: Int(lane))
            view.renderBus(
                view.buses + index, outputs: chunk.pointee.outputs, outputCount: chunk.pointee.outputCount,
                outputOffset: chunk.pointee.outputOffset, frames: frames, factors: chunk.pointee.factors)
        }
    }
}

extension EngineGraph {
    /// Gives the graph scratch for `count` extra render lanes and per-strip send-gain buffers, so a render
    /// team can share its chunks out. Call before it is installed; a graph keeps the most lanes asked for.
    func prepareLanes(_ count: Int) {
        guard count > render.pointee.laneCount else { return }
        let lanes = allocate(RenderScratch.self, count: count)
        for lane in 0..<count {
            let tables = (0..<3).map { _ in allocate(UnsafeMutablePointer<Float>.self, count: GraphRender.maxUnitChannels) }
            let silence = render.pointee.silence
            for table in tables { table.initialize(repeating: silence, count: GraphRender.maxUnitChannels) }
            (lanes + lane).initialize(to: RenderScratch(
                stripChannels: UnsafeMutableRawPointer(tables[0]).assumingMemoryBound(to: UnsafePointer<Float>.self),
                unitInputs: UnsafeMutableRawPointer(tables[1]).assumingMemoryBound(to: UnsafePointer<Float>.self),
                unitOutputs: tables[2], sendScratch: workBuffers(2), trimFrames: zeroedFrames(), compensationFrames: zeroedFrames()))
        }
        // Touched only by strips whose gains ramp: left unwritten, most of it is never paged in.
        render.pointee.stripGainFrames = allocate(Float.self, count: max(1, description.strips.count) * 4 * maxFrames)
        render.pointee.lanes = lanes
        render.pointee.laneCount = count
    }
}
