// `foldback bench --live` end to end: it starts its own dummy jackd, times its callback and reports a strip count. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackJACK
import XCTest

final class BenchLiveTests: XCTestCase {
    /// A short search finishes, prints one row per trial with max ≥ p99 > 0, and names the largest fit. Up to 32
    /// strips: an unbounded search doubles to the machine's limit (hundreds of strips, some 20 trials, the last ones
    /// loading a core); the search's doubling, bisection and second look are `StripCountSearchTests`' facts.
    func testLiveBenchFindsAStripCountWithMaxAndP99() throws {
        guard JACKServerLauncher.jackdPath() != nil else { throw XCTSkip("jackd is not installed") }
        let text = try benchLive(["--seconds", "0.5", "--max-strips", "32"])
        let rows = text.split(separator: "\n").map { $0.split(separator: " ") }.filter { $0.count >= 5 && Int($0[0]) != nil }
        XCTAssertFalse(rows.isEmpty, text)
        for row in rows {
            let maximum = try XCTUnwrap(Double(row[1])), p99 = try XCTUnwrap(Double(row[2])), cycles = try XCTUnwrap(Int(row[3]))
            XCTAssertGreaterThan(p99, 0, text)
            XCTAssertGreaterThanOrEqual(maximum + 1, p99, "max ≥ p99 (1 µs histogram resolution): \(text)")
            XCTAssertGreaterThanOrEqual(cycles, 375, "0.5 s of 64-frame cycles at 48 kHz: \(text)")
        }
        XCTAssertTrue(text.contains("largest fit:") || text.contains("not even one strip fits"), text)
    }

    /// With `--threads 2` a one-thread search takes turns with the two-thread one: rows of both thread
    /// counts, each search's largest fit, and the gain as the ratio of the two counts.
    func testTwoThreadsTakeTurnsWithOneAndReportTheGain() throws {
        guard JACKServerLauncher.jackdPath() != nil else { throw XCTSkip("jackd is not installed") }
        let text = try benchLive(["--threads", "2", "--seconds", "0.3", "--max-strips", "6"])
        // strips, max, p99, cycles, worker share, %, wakes per cycle, threads, verdict
        let rows = text.split(separator: "\n").map { $0.split(separator: " ") }.filter { $0.count >= 9 && Int($0[0]) != nil }
        XCTAssertEqual(Set(rows.compactMap { Int($0[7]) }), [1, 2], "rows of both thread counts:\n\(text)")
        func fit(_ label: String) -> Int? {
            text.split(separator: "\n").first { $0.hasPrefix(label) }.flatMap { Int($0.dropFirst(label.count).prefix { $0 != " " }) }
        }
        let one = try XCTUnwrap(fit("largest fit, one thread: "), text), two = try XCTUnwrap(fit("largest fit, 2 threads: "), text)
        XCTAssertTrue(text.contains(String(format: "gain: %d / %d strips = %.2f× one thread", two, one, Double(two) / Double(one))), text)
    }

    /// Runs `foldback bench --live` with `arguments`; returns its standard output once it exits 0.
    private func benchLive(_ arguments: [String]) throws -> String {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("bench-live-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        let run = try FoldbackRun(["bench", "--live"] + arguments, testBundle: Bundle(for: Self.self), standardOutput: try FileHandle(forWritingTo: outputFile))
        let deadline = Date().addingTimeInterval(300)
        while run.process.isRunning, Date() < deadline { usleep(50_000) }
        let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        guard !run.process.isRunning else {
            run.stop()
            XCTFail("bench --live did not finish in 300 s:\n\(text)")
            return text
        }
        XCTAssertEqual(run.process.terminationStatus, 0, run.standardError)
        return text
    }
}
