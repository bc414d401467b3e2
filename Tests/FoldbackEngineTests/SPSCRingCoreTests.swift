// Tests of the shared ring core and the rings built on it: capacity, full and empty, order across the wrap.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import XCTest

final class SPSCRingCoreTests: XCTestCase {
    func testCapacityIsAPowerOfTwoAtLeastTheMinimum() {
        XCTAssertEqual(SPSCRingCore.slotCount(atLeast: 0), 2)
        XCTAssertEqual(SPSCRingCore.slotCount(atLeast: 5), 8)
        XCTAssertEqual(SPSCRingCore.slotCount(atLeast: 8), 8)
        XCTAssertEqual(SPSCRingCore.slotCount(atLeast: 10, minimum: 64), 64)
        let core = SPSCRingCore(capacity: 100)
        defer { core.destroy() }
        XCTAssertEqual(core.capacity, 128)
        XCTAssertEqual(core.mask, 127)
    }

    func testReservePublishReadRelease() {
        let core = SPSCRingCore(capacity: 8)
        defer { core.destroy() }
        XCTAssertEqual(core.reserve(8), 0)
        XCTAssertNil(core.reserve(9), "more than the capacity never fits")
        core.publish(upTo: 6)
        XCTAssertEqual(core.freeCount, 2)
        XCTAssertNil(core.reserve(3))
        XCTAssertEqual(core.readableCount, 6)
        core.release(upTo: 4)
        XCTAssertEqual(core.readableCount(from: 4), 2)
        XCTAssertEqual(core.reserve(6), 6)
        XCTAssertEqual(core.writePosition, 6)
        XCTAssertEqual(core.readPosition, 4)
    }

    func testElementRingKeepsOrderAcrossManyWraps() {
        let ring = SPSCRing<Int>(capacity: 5)
        defer { ring.destroy() }
        XCTAssertEqual(ring.capacity, 8)
        var next = 0, expected = 0
        for round in 0..<100 {
            while ring.push(next) { next += 1 }
            XCTAssertEqual(ring.freeCount, 0)
            for _ in 0..<(round % 8 + 1) {
                XCTAssertEqual(ring.peek(), expected)
                XCTAssertEqual(ring.pop(), expected)
                expected += 1
            }
        }
        while let value = ring.pop() { XCTAssertEqual(value, expected); expected += 1 }
        XCTAssertEqual(expected, next)
        XCTAssertNil(ring.peek())
    }

    func testTapRingMovesFramesAcrossTheWrapAndCountsUnderruns() {
        let ring = TapRing(channels: 2, frames: 8)
        var source: [Float] = (0..<12).map(Float.init)   // six stereo frames
        XCTAssertTrue(ring.fill(from: &source, frames: 6))
        XCTAssertFalse(ring.fill(from: &source, frames: 3), "all or nothing")
        var out = [Float](repeating: -1, count: 12)
        XCTAssertEqual(ring.drain(into: &out, maxFrames: 4), 4)
        XCTAssertTrue(ring.fill(from: &source, frames: 6))   // wraps
        XCTAssertEqual(ring.availableFrames, 8)
        XCTAssertEqual(ring.drain(into: &out, maxFrames: 6), 6)
        XCTAssertEqual(out, [8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7])
        let left = UnsafeMutablePointer<Float>.allocate(capacity: 4), right = UnsafeMutablePointer<Float>.allocate(capacity: 4)
        defer { left.deallocate(); right.deallocate() }
        XCTAssertEqual(ring.read(into: [left, right], frames: 4), 2)
        XCTAssertEqual([left[0], right[0], left[1], right[1], left[2], right[3]], [8, 9, 10, 11, 0, 0])
        XCTAssertEqual(ring.underrunCount, 1)
    }

    /// A restart: the old frames are skipped at once, what is written after the hold is not heard until it is released
    /// (silence meanwhile, no underrun), then all of it from its first frame; running dry before the hold still counts.
    func testTapRingHoldsARestartSilentlyUntilItIsReleased() {
        let ring = TapRing(channels: 1, frames: 16)
        let out = UnsafeMutablePointer<Float>.allocate(capacity: 8)
        defer { out.deallocate() }
        var old: [Float] = [9, 9, 9, 9]
        XCTAssertTrue(ring.fill(from: &old, frames: 4))
        XCTAssertEqual(ring.read(into: [out], frames: 1), 1)
        let mark = ring.writePosition
        ring.hold(at: mark)
        ring.discard(before: mark)
        XCTAssertEqual(ring.read(into: [out], frames: 3), 0, "the old frames are skipped, nothing is heard yet")
        var new: [Float] = [1, 2, 3, 4, 5]
        XCTAssertTrue(ring.fill(from: &new, frames: 3))
        XCTAssertEqual(ring.read(into: [out], frames: 2), 0, "frames written during the hold wait for the release")
        XCTAssertEqual([out[0], out[1]], [0, 0])
        XCTAssertEqual(ring.underrunCount, 0, "waiting at a hold is no underrun")
        XCTAssertTrue(ring.fill(from: &new, frames: 2))
        ring.release()
        XCTAssertEqual(ring.read(into: [out], frames: 7), 5)
        XCTAssertEqual(Array(UnsafeBufferPointer(start: out, count: 7)), [1, 2, 3, 1, 2, 0, 0])
        XCTAssertEqual(ring.underrunCount, 1, "running dry after the release is an underrun")
        ring.hold(at: ring.writePosition + 2)
        XCTAssertEqual(ring.read(into: [out], frames: 1), 0)
        XCTAssertEqual(ring.underrunCount, 2, "running dry before the hold's position is an underrun too")
        ring.release()
    }
}
