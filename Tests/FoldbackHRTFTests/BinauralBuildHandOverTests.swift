// A binaural source whose moves are built by another thread: it never builds them itself, and a pair handed over in the frame of the move gives the in-frame build's output bit for bit.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackHRTF
import Foundation
import XCTest

final class BinauralBuildHandOverTests: XCTestCase {
    private typealias Measure = BinauralMeasurement

    /// Builds `request` on a thread of its own and waits for it (as the live engine's worker does, minus the waiting).
    private func buildElsewhere(_ builder: BinauralFilterBuilder, _ request: (slot: Int, position: BinauralPosition)) -> BinauralFilterPair {
        final class Box: @unchecked Sendable { var pair = BinauralFilterPair() }
        let box = Box(), done = DispatchSemaphore(value: 0)
        Thread { box.pair = builder.build(slot: request.slot, position: request.position); done.signal() }.start()
        done.wait()
        return box.pair
    }

    /// KEMAR at 48 kHz, noise, blocks of 253 frames; three moves (the last far away and up), each once the previous
    /// crossfade has ended. With `buildsInline` off the source keeps its position until a pair is handed over; handing each
    /// over at the start of the block in which the in-frame build would run gives that build's output exactly (the
    /// same filters, the same crossfade frames), at every partition phase the block boundaries fall on.
    func testAPairBuiltElsewhereAndHandedOverGivesTheInFrameBuildsOutput() throws {
        let set = try SOFALoader.load(path: Measure.kemar, sampleRate: 48000)
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<24000).map { _ in Float.random(in: -0.5...0.5, using: &generator) }
        let moves: [Int: BinauralPosition] = [
            2530: BinauralPosition(azimuthDeg: 75), 7590: BinauralPosition(azimuthDeg: -120, elevationDeg: 20),
            12650: BinauralPosition(azimuthDeg: 160, elevationDeg: 60, distanceM: 4.5),
        ]
        var inline = BinauralSource(set: set, position: BinauralPosition(azimuthDeg: -30))
        defer { inline.deallocate() }
        let expected = Measure.render(&inline, input: noise, blockSize: 253) { frame, source in
            if let position = moves[frame] { source.move(to: position) }
        }
        var elsewhere = BinauralSource(set: set, position: BinauralPosition(azimuthDeg: -30))
        defer { elsewhere.deallocate() }
        elsewhere.buildsInline = false
        var handedOver = 0
        let output = Measure.render(&elsewhere, input: noise, blockSize: 253) { frame, source in
            if let position = moves[frame] { source.move(to: position) }
            if let request = source.takeBuildRequest() {
                source.finishBuild(buildElsewhere(source.builder, request))
                handedOver += 1
            }
        }
        XCTAssertEqual(handedOver, 3)
        XCTAssertEqual(output.left, expected.left)
        XCTAssertEqual(output.right, expected.right)
        XCTAssertEqual(elsewhere.position, inline.position)
        XCTAssertGreaterThan(expected.left.map(abs).max()!, 0.01)
    }

    /// With `buildsInline` off and nobody serving it, a moved source renders on at its old position for as long as it
    /// waits (20,000 frames), reports the move as under way, and asks once: the build is never done in `process`.
    func testAWaitingSourceNeverBuildsByItself() throws {
        let set = try SOFALoader.load(path: Measure.kemar, sampleRate: 48000)
        let start = BinauralPosition(azimuthDeg: 10), target = BinauralPosition(azimuthDeg: -90)
        let sine = (0..<20000).map { Float(sin(2 * Double.pi * 700 * Double($0) / 48000)) * 0.5 }
        var still = BinauralSource(set: set, position: start)
        defer { still.deallocate() }
        let expected = Measure.render(&still, input: sine, blockSize: 64)
        var waiting = BinauralSource(set: set, position: start)
        defer { waiting.deallocate() }
        waiting.buildsInline = false
        waiting.move(to: target)
        var requests = 0
        let output = Measure.render(&waiting, input: sine, blockSize: 64) { frame, source in
            if frame >= 6400, source.takeBuildRequest() != nil { requests += 1 }
        }
        XCTAssertEqual(output.left, expected.left)
        XCTAssertEqual(output.right, expected.right)
        XCTAssertEqual(waiting.position, start)
        XCTAssertTrue(waiting.isMoving)
        XCTAssertEqual(requests, 1)
        XCTAssertFalse(waiting.rest(frames: 64), "a source waiting for its build does not rest")
    }
}
