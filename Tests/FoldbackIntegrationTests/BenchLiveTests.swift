// `foldback bench --live` end to end: it starts its own dummy jackd, times its callback and reports a strip count. Non-realtime.
import Foundation
import FoldbackJACK
import XCTest

final class BenchLiveTests: XCTestCase {
    /// A short search finishes, prints one row per trial with max ≥ p99 > 0, and names the largest fit.
    func testLiveBenchFindsAStripCountWithMaxAndP99() throws {
        guard JACKServerLauncher.jackdPath() != nil else { throw XCTSkip("jackd is not installed") }
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("bench-live-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        let run = try FoldbackRun(["bench", "--live", "--seconds", "0.5"], testBundle: Bundle(for: Self.self), standardOutput: try FileHandle(forWritingTo: outputFile))
        let deadline = Date().addingTimeInterval(300)
        while run.process.isRunning, Date() < deadline { usleep(50_000) }
        guard !run.process.isRunning else {
            run.stop()
            return XCTFail("bench --live did not finish in 300 s:\n\((try? String(contentsOf: outputFile, encoding: .utf8)) ?? "")")
        }
        XCTAssertEqual(run.process.terminationStatus, 0, run.standardError)
        let text = try String(contentsOf: outputFile, encoding: .utf8)
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
}
