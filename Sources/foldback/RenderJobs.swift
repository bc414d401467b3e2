// Runs `foldback render`'s input sets on up to N threads, with one shared progress bar. Non-realtime.
import CFoldback
import FoldbackLive
import Foundation
import FoldbackRender
import Synchronization

/// The renderers of one `foldback render` run and how many may run at once.
struct RenderJobs {
    let renderers: [OfflineRenderer]
    let jobs: Int

    /// Runs every renderer; results are in the renderers' order.
    func run() -> [Result<RenderSummary, RenderError>] {
        let total = renderers.reduce(0) { $0 + $1.estimatedFrames }
        let progress = RenderProgress(jobs: renderers.count, totalFrames: total, sampleRate: renderers.first.map { $0.graph.sampleRate } ?? 48000)
        let shared = Shared(renderers: renderers)
        let workers = (0..<min(jobs, renderers.count)).map { _ in
            Thread {
                while let index = shared.next() {
                    let result = Result { () throws(RenderError) in
                        try shared.renderer(index).run(
                            progress: { progress.update(job: index, frames: $0) }, isCancelled: { fb_stop_signal() != 0 })
                    }
                    shared.store(result, at: index)
                }
            }
        }
        workers.forEach { $0.stackSize = 8 << 20; $0.start() }
        shared.waitUntilDone()
        progress.finish()
        return shared.results
    }

    /// State the worker threads share: the next set to take and the results.
    private final class Shared: @unchecked Sendable {
        private let renderers: [OfflineRenderer]   // each used by one thread at a time
        private let state: Mutex<(next: Int, done: Int, results: [Result<RenderSummary, RenderError>?])>
        private let finished = DispatchSemaphore(value: 0)

        init(renderers: [OfflineRenderer]) {
            self.renderers = renderers
            state = Mutex((next: 0, done: 0, results: Array(repeating: nil, count: renderers.count)))
        }

        func next() -> Int? {
            state.withLock { state in
                guard state.next < renderers.count else { return nil }
                defer { state.next += 1 }
                return state.next
            }
        }

        func renderer(_ index: Int) -> OfflineRenderer { renderers[index] }

        func store(_ result: Result<RenderSummary, RenderError>, at index: Int) {
            let isLast = state.withLock { state in
                state.results[index] = result
                state.done += 1
                return state.done == renderers.count
            }
            if isLast { finished.signal() }
        }

        func waitUntilDone() {
            guard !renderers.isEmpty else { return }
            finished.wait()
        }

        var results: [Result<RenderSummary, RenderError>] {
            state.withLock { $0.results.map { $0 ?? .failure(.nothingToRender("not rendered")) } }
        }
    }
}
