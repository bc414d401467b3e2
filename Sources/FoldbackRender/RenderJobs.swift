// Runs a render's input sets (or any numbered jobs) on up to K threads, with one shared progress bar. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import Foundation
import Synchronization

/// A pool of threads for one multi-file render: jobs are taken in order, each by the next free thread.
public enum RenderJobs {
    /// Runs jobs `0..<count` on at most `threads` threads (each with an 8 MiB stack) and waits for all of
    /// them; results are in job order, a job's thrown error as its failure (the other jobs still run).
    public static func run<Output: Sendable>(
        count: Int, threads: Int, _ job: @escaping @Sendable (Int) throws(RenderError) -> Output
    ) -> [Result<Output, RenderError>] {
        let shared = Shared<Output>(count: count)
        let workers = (0..<min(max(1, threads), count)).map { _ in
            Thread {
                while let index = shared.next() {
                    shared.store(Result { () throws(RenderError) in try job(index) }, at: index)
                }
            }
        }
        workers.forEach { $0.stackSize = 8 << 20; $0.start() }
        shared.waitUntilDone()
        return shared.results
    }

    /// Runs every renderer on at most `threads` threads, drawing `progress` (by default a bar on standard
    /// error when it is a terminal); `isCancelled` (by default: a stop signal came, see
    /// `fb_install_stop_signals`) cancels every job.
    /// Results are in the renderers' order.
    public static func run(
        _ renderers: [OfflineRenderer], threads: Int, progress: RenderProgress? = nil,
        isCancelled: (@Sendable () -> Bool)? = nil
    ) -> [Result<RenderSummary, RenderError>] {
        let stopped: @Sendable () -> Bool = isCancelled ?? { fb_stop_signal() != 0 }
        let total = renderers.reduce(0) { $0 + $1.estimatedFrames }
        let progress = progress ?? RenderProgress(
            jobs: renderers.count, totalFrames: total, sampleRate: renderers.first.map { $0.graph.sampleRate } ?? 48000)
        let owned = Renderers(renderers)
        let results = run(count: renderers.count, threads: threads) { index throws(RenderError) in
            try owned.all[index].run(progress: { progress.update(job: index, frames: $0) }, isCancelled: stopped)
        }
        progress.finish()
        return results
    }

    /// The renderers, each used by one thread at a time.
    private final class Renderers: @unchecked Sendable {
        let all: [OfflineRenderer]
        init(_ all: [OfflineRenderer]) { self.all = all }
    }

    /// State the worker threads share: the next job to take and the results.
    private final class Shared<Output: Sendable>: Sendable {
        private let count: Int
        private let state: Mutex<(next: Int, done: Int, results: [Result<Output, RenderError>?])>
        private let finished = DispatchSemaphore(value: 0)

        init(count: Int) {
            self.count = count
            state = Mutex((next: 0, done: 0, results: Array(repeating: nil, count: count)))
        }

        func next() -> Int? {
            state.withLock { state in
                guard state.next < count else { return nil }
                defer { state.next += 1 }
                return state.next
            }
        }

        func store(_ result: Result<Output, RenderError>, at index: Int) {
            let isLast = state.withLock { state in
                state.results[index] = result
                state.done += 1
                return state.done == count
            }
            if isLast { finished.signal() }
        }

        func waitUntilDone() {
            guard count > 0 else { return }
            finished.wait()
        }

        var results: [Result<Output, RenderError>] {
            state.withLock { $0.results.map { $0 ?? .failure(.nothingToRender("not rendered")) } }
        }
    }
}
