// The planar FIFO behind offline render inputs: order kept across pieces of any size and blocks of any size. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import FoldbackRender
import XCTest

final class PlanarFIFOTests: XCTestCase {
    /// A ramp appended in pieces of 5, 40 and 1000 frames (past the starting capacity of 16) and taken in
    /// blocks of 1, 7 and 253 comes out whole and in order on both channels; the last block is short.
    func testFramesComeOutInOrderWhateverThePieceAndBlockSizes() {
        let fifo = PlanarFIFO(channels: 2, capacity: 16)
        var next: Float = 0
        var expected: Float = 0
        let output = [UnsafeMutablePointer<Float>.allocate(capacity: 253), UnsafeMutablePointer<Float>.allocate(capacity: 253)]
        defer { output.forEach { $0.deallocate() } }
        for (piece, block) in [(5, 1), (40, 7), (1000, 253), (5, 7), (1000, 253)] {
            fifo.append(upTo: piece) { channels in
                for frame in 0..<piece {
                    channels[0][frame] = next
                    channels[1][frame] = -next
                    next += 1
                }
                return piece
            }
            while fifo.count >= block {
                XCTAssertEqual(fifo.take(block, into: output), block)
                for frame in 0..<block {
                    XCTAssertEqual(output[0][frame], expected)
                    XCTAssertEqual(output[1][frame], -expected)
                    expected += 1
                }
            }
        }
        let rest = fifo.count
        XCTAssertGreaterThan(rest, 0)
        XCTAssertEqual(fifo.take(253, into: output), rest, "a short last block")
        XCTAssertEqual(output[0][rest - 1], next - 1)
        XCTAssertEqual(fifo.count, 0)
    }
}
