// The strip-count search of `bench --live`: doubling, then bisection, to the largest count that fits. Non-realtime.
@testable import FoldbackLive
import XCTest

final class StripCountSearchTests: XCTestCase {
    /// Runs a search against a machine on which every count up to `capacity` fits; returns the counts tried.
    private func search(capacity: Int, limit: Int = 4_096) -> (tried: [Int], best: Int?) {
        var search = StripCountSearch(limit: limit)
        var tried: [Int] = []
        while let strips = search.nextCount {
            tried.append(strips)
            search.record(BenchLive.Trial(strips: strips, maxMicroseconds: 1, p99Microseconds: 1, cycles: 1, fits: strips <= capacity))
            XCTAssertLessThan(tried.count, 40, "the search ends")
            if tried.count >= 40 { break }
        }
        return (tried, search.best?.strips)
    }

    func testItFindsTheLargestFittingCountByDoublingThenBisecting() {
        let result = search(capacity: 190)
        XCTAssertEqual(result.best, 190)
        XCTAssertEqual(Array(result.tried.prefix(9)), [1, 2, 4, 8, 16, 32, 64, 128, 256])
        XCTAssertEqual(Array(result.tried.dropFirst(9)), [192, 160, 176, 184, 188, 190, 191])
        for capacity in [1, 2, 3, 64, 65, 333, 334, 4_095] {
            XCTAssertEqual(search(capacity: capacity).best, capacity, "capacity \(capacity)")
        }
    }

    func testNoCountFitsOrEveryCountFits() {
        XCTAssertNil(search(capacity: 0).best)
        XCTAssertEqual(search(capacity: 0).tried, [1])
        XCTAssertEqual(search(capacity: 10_000).best, 4_096)
        XCTAssertEqual(search(capacity: 10_000, limit: 100).tried.last, 100)
    }
}
