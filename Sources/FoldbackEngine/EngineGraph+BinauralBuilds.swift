// Moves a graph's binaural filter building onto a worker thread (live engines) and frees it. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
import FoldbackDSP

extension EngineGraph {
    /// From now on a moved binaural source asks a worker thread of this graph for its new filter pair and starts its
    /// crossfade when the pair is ready, instead of building it in the cycle of the move (a live engine: with many
    /// sources moving at small periods the building would not fit in a cycle). Offline renders and tests keep the
    /// in-cycle build, whose output does not depend on timing. Call before the graph is installed; does nothing for a
    /// graph without binaural sends or when called again.
    func buildBinauralMovesOnWorker() {
        guard binauralWorker == nil else { return }
        let total = binauralSources.reduce(0) { $0 + $1.1 }
        guard total > 0 else { return }
        let cells = UnsafeMutablePointer<BinauralBuildCell>.allocate(capacity: total)
        var cellOf: [UnsafeMutablePointer<BinauralSource>: UnsafeMutablePointer<BinauralBuildCell>] = [:]
        var index = 0
        for (sources, count) in binauralSources {
            cellOf[sources] = cells + index
            for channel in 0..<count {
                (cells + index).initialize(to: BinauralBuildCell(state: .create(BinauralBuildCell.idle), builder: sources[channel].builder))
                sources[channel].buildsInline = false
                index += 1
            }
        }
        let graph = render.pointee
        for strip in 0..<graph.stripCount {
            for offset in 0..<Int(graph.strips[strip].sendCount) {
                let send = graph.sends + Int(graph.strips[strip].firstSend) + offset
                if let sources = send.pointee.binaural { send.pointee.buildCells = cellOf[sources] }
            }
        }
        let worker = BinauralBuildWorker(cells: cells, count: total)
        render.pointee.binauralBell = worker.bell
        binauralCells = (cells, total)
        binauralWorker = worker
        worker.start()
    }

    /// Pairs the graph's binaural worker has built (0 without one).
    var binauralWorkerBuilds: Int { binauralWorker?.builds.load(ordering: .relaxed) ?? 0 }

    /// Stops the worker and frees the cells (deinit, before the sources).
    func freeBinauralBuilds() {
        binauralWorker?.stop()
        binauralWorker = nil
        guard let (cells, count) = binauralCells else { return }
        for index in 0..<count { cells[index].state.destroy() }
        cells.deinitialize(count: count)
        cells.deallocate()
        binauralCells = nil
    }
}
