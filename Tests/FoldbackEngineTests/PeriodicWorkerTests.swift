// Tests of the background worker type: wake latency, period, stop and join, the thread's name.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackTestSupport
import Foundation
import Synchronization
import XCTest

final class PeriodicWorkerTests: XCTestCase {
    /// Run instants (monotonic nanoseconds), appended by a worker's body.
    private final class Runs: Sendable {
        let instants = Mutex<[UInt64]>([])
        func record() { instants.withLock { $0.append(DispatchTime.now().uptimeNanoseconds) } }
        var count: Int { instants.withLock { $0.count } }
    }

    /// The names of this process's threads, as `top -H` shows them.
    private static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// A started worker named `name` recording each run every `period`.
    private static func recordingWorker(_ name: String, period: Duration) -> (PeriodicWorker, Runs) {
        let runs = Runs()
        let worker = PeriodicWorker(name: name, period: period) { runs.record() }
        worker.start()
        return (worker, runs)
    }

    func testWakeRunsTheBodyPromptly() throws {
        let runs = Runs()
        let worker = PeriodicWorker(name: "fb-test-wake") {
            runs.record()
            return .whenWoken
        }
        worker.start()
        defer { worker.stop() }
        try waitFor("the first run") { runs.count == 1 }
        var latencies: [Double] = []
        for round in 1...50 {
            let woken = DispatchTime.now().uptimeNanoseconds
            worker.wake()
            try waitFor("run \(round + 1)") { runs.count == round + 1 }
            let ran = runs.instants.withLock { $0.last! }
            latencies.append(Double(ran - woken) / 1e6)
        }
        latencies.sort()
        let median = latencies[latencies.count / 2], worst = latencies.last!
        print("PeriodicWorker wake latency: median \(String(format: "%.3f", median)) ms, worst \(String(format: "%.3f", worst)) ms over 50 wakes")
        XCTAssertLessThan(median, 5, "a woken worker runs within milliseconds (measured median \(median) ms)")
        XCTAssertLessThan(worst, 100, "even on a loaded machine")
    }

    func testPeriodIsHonoured() throws {
        let (worker, runs) = Self.recordingWorker("fb-test-period", period: .milliseconds(20))
        defer { worker.stop() }
        try waitFor("11 runs") { runs.count >= 11 }
        let instants = runs.instants.withLock { Array($0.prefix(11)) }
        let meanMs = Double(instants[10] - instants[0]) / 10 / 1e6
        XCTAssertGreaterThanOrEqual(meanMs, 19.5, "never early")
        XCTAssertLessThan(meanMs, 60, "about the period (measured \(meanMs) ms)")
    }

    func testStopJoinsAndTheBodyNeverRunsAgain() throws {
        let (worker, runs) = Self.recordingWorker("fb-test-stop", period: .milliseconds(1))
        try waitFor("a few runs") { runs.count >= 3 }
        try waitFor("the named thread") { Self.threadNames().contains("fb-test-stop") }
        worker.stop()
        XCTAssertFalse(worker.isRunning)
        let count = runs.count
        XCTAssertFalse(Self.threadNames().contains("fb-test-stop"), "the thread is gone once stop returns")
        worker.wake()
        worker.stop()   // twice is fine
        usleep(20_000)  // the only sleep: a stopped worker must stay still over several of its periods
        XCTAssertEqual(runs.count, count)
    }

    func testThreadCarriesItsName() throws {
        let worker = PeriodicWorker(name: "fb-a-name-longer-than-15", period: .milliseconds(5)) {}
        XCTAssertEqual(worker.name, "fb-a-name-longe")
        XCTAssertEqual(worker.name.utf8.count, 15)
        worker.start()
        defer { worker.stop() }
        try waitFor("the thread named in /proc/self/task") { Self.threadNames().contains(worker.name) }
    }

    func testStopFromTheBodyItselfEndsTheThread() throws {
        let runs = Runs()
        let holder = Mutex<PeriodicWorker?>(nil)
        let worker = PeriodicWorker(name: "fb-test-self") {
            runs.record()
            holder.withLock { $0 }?.stop()
            return .after(.milliseconds(1))
        }
        holder.withLock { $0 = worker }
        worker.start()
        try waitFor("the run that stops it") { runs.count == 1 && !worker.isRunning }
        try waitFor("the thread gone") { !Self.threadNames().contains("fb-test-self") }
        holder.withLock { $0 = nil }
        XCTAssertEqual(runs.count, 1)
    }
}
