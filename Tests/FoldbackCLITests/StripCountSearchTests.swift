// The strip-count search of `bench --live`: doubling, bisection and a second look, to the largest count that fits. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import FoldbackBench
import XCTest

final class StripCountSearchTests: XCTestCase {
    /// Runs a search in which count `strips`, measured for the `look`-th time (from 1), fits when `fits` says so;
    /// returns the counts tried and the answer.
    private func search(limit: Int = 4_096, fits: (_ strips: Int, _ look: Int) -> Bool) -> (tried: [Int], best: Int?) {
        var search = StripCountSearch(limit: limit)
        var tried: [Int] = []
        while let strips = search.nextCount, tried.count < 60 {
            tried.append(strips)
            let look = tried.filter { $0 == strips }.count
            search.record(BenchLive.Trial(strips: strips, maxMicroseconds: 1, p99Microseconds: 1, cycles: 1, fits: fits(strips, look)))
        }
        XCTAssertNil(search.nextCount, "the search ends: \(tried)")
        return (tried, search.best?.strips)
    }

    private func search(capacity: Int, limit: Int = 4_096) -> (tried: [Int], best: Int?) {
        search(limit: limit) { strips, _ in strips <= capacity }
    }

    func testItFindsTheLargestFittingCountByDoublingBisectingAndLookingAgain() {
        let result = search(capacity: 190)
        XCTAssertEqual(result.best, 190)
        XCTAssertEqual(result.tried, [1, 2, 4, 8, 16, 32, 64, 128, 256, 192, 160, 176, 184, 188, 190, 191, 190])
        for capacity in [1, 2, 3, 64, 65, 333, 334, 4_095] {
            XCTAssertEqual(search(capacity: capacity).best, capacity, "capacity \(capacity)")
        }
    }

    /// A count that fits only on its first look (a quiet moment on a shared machine) is not the answer:
    /// the second look fails, and the search finds the largest count below it that fits twice.
    func testACountThatFitsOnlyOnceIsNotTheAnswer() {
        let result = search { strips, look in strips <= 200 || (strips == 256 && look == 1) }
        XCTAssertEqual(result.best, 200, "\(result.tried)")
        XCTAssertEqual(Array(result.tried.prefix(18)), [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 384, 320, 288, 272, 264, 260, 258, 257])
        XCTAssertEqual(result.tried[18], 256, "the second look at 256")
    }

    func testNoCountFitsOrEveryCountFits() {
        XCTAssertNil(search(capacity: 0).best)
        XCTAssertEqual(search(capacity: 0).tried, [1])
        XCTAssertEqual(search(capacity: 10_000).best, 4_096)
        XCTAssertEqual(search(capacity: 10_000, limit: 100).tried.suffix(2), [100, 100])
        XCTAssertNil(search { strips, look in strips == 1 && look == 1 }.best, "1 fits once only")
    }
}
