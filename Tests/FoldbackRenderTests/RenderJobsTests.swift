// Tests of the render job pool: N jobs on K threads, results in job order, failures reported per job; the progress bar's text.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackRender
import Foundation
import Synchronization
import XCTest

final class RenderJobsTests: XCTestCase {
    /// Tallies of what the jobs saw: how many ran at once, on which threads.
    private final class Tally: Sendable {
        let state = Mutex((running: 0, mostRunning: 0, threads: Set<ObjectIdentifier>()))
    }

    /// Holds each caller until `count` callers have arrived (or 10 s have passed, so a broken pool fails rather than hangs).
    private final class Barrier: @unchecked Sendable {
        private let condition = NSCondition()
        private var arrived = 0
        private let count: Int
        init(count: Int) { self.count = count }

        func arriveAndWait() {
            condition.lock()
            defer { condition.unlock() }
            arrived += 1
            condition.broadcast()
            let deadline = Date().addingTimeInterval(10)
            while arrived < count && condition.wait(until: deadline) {}
        }
    }

    /// 13 jobs on 3 threads: exactly 3 run at once (the first 3 wait for each other), on 3 threads, and
    /// every job's result or error comes back at its index.
    func testRunsNJobsOnKThreadsAndReportsFailures() {
        let jobs = 13, threads = 3
        let tally = Tally()
        let barrier = Barrier(count: threads)
        let results = RenderJobs.run(count: jobs, threads: threads) { index throws(RenderError) -> Int in
            tally.state.withLock { state in
                state.running += 1
                state.mostRunning = max(state.mostRunning, state.running)
                state.threads.insert(ObjectIdentifier(Thread.current))
            }
            defer { tally.state.withLock { $0.running -= 1 } }
            if index < threads { barrier.arriveAndWait() }  // the first K jobs meet, so K must run at once
            if index % 4 == 1 { throw .nothingToRender("job \(index) failed") }
            return index * 10
        }
        XCTAssertEqual(results.count, jobs)
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let value):
                XCTAssertNotEqual(index % 4, 1)
                XCTAssertEqual(value, index * 10)
            case .failure(let error):
                XCTAssertEqual(index % 4, 1)
                XCTAssertEqual("\(error)", "job \(index) failed")
            }
        }
        let state = tally.state.withLock { $0 }
        XCTAssertEqual(state.mostRunning, threads, "at most K jobs at once, and K did run together")
        XCTAssertEqual(state.threads.count, threads)
    }

    /// More threads than jobs start one thread per job; no jobs return at once.
    func testFewerJobsThanThreadsAndNoJobs() {
        let results = RenderJobs.run(count: 2, threads: 8) { index throws(RenderError) in index }
        XCTAssertEqual(results.map { try? $0.get() }, [0, 1])
        XCTAssertTrue(RenderJobs.run(count: 0, threads: 4) { index throws(RenderError) in index }.isEmpty)
    }

    /// The bar: 30 cells filled in proportion, percent, seconds rendered and speed.
    func testProgressLine() {
        let line = RenderProgress.line(frames: 48000, totalFrames: 96000, sampleRate: 48000, wallSeconds: 0.05)
        XCTAssertEqual(line, "\r[" + String(repeating: "#", count: 15) + String(repeating: "-", count: 15) + "]  50%  1.0 s  20× realtime ")
        XCTAssertTrue(RenderProgress.line(frames: 200, totalFrames: 100, sampleRate: 48000, wallSeconds: 0).contains("[" + String(repeating: "#", count: 30) + "] 100%"))
    }

    /// The bar is drawn through the sink given, at most ten times a second, and cleared at the end.
    func testProgressDrawsThroughItsSink() {
        let drawn = Mutex<[String]>([])
        let progress = RenderProgress(jobs: 2, totalFrames: 100, sampleRate: 100) { line in drawn.withLock { $0.append(line) } }
        progress.update(job: 0, frames: 10)
        progress.update(job: 1, frames: 30)
        progress.finish()
        let lines = drawn.withLock { $0 }
        XCTAssertTrue((2...3).contains(lines.count), "one bar per 0.1 s, then the clearing line: \(lines)")
        XCTAssertTrue(lines.first?.contains(" 10%") == true, "\(lines)")
        XCTAssertEqual(lines.last, "\r" + String(repeating: " ", count: 72) + "\r")
    }
}
