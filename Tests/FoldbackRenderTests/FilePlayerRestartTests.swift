// Tests of a stretched file source's restart against an audio thread that never waits: silence until the start is ready, then the file whole from its first frame. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
@testable import FoldbackRender
import FoldbackTestSupport
import Foundation
import XCTest

extension FilePlayerStreamTests {
    /// A stretched start runs R3 over its first ~60 ms of input and its start pad before its first frame (25 ms here,
    /// 150 ms on a loaded machine), longer than the 32 ms the ring holds: an audio thread reading meanwhile heard the
    /// old ring run dry (underruns), the first frames as they came, then a gap, and the file late. Now it hears silence
    /// without an underrun until the start is ready, then the ring's 32 ms in one piece from the file's first frame.
    func testAStretchedRestartIsHeardWholeFromItsFirstFrameByAReaderThatNeverWaits() throws {
        let tone = EnvelopeTestSignal.steady.samples(rate: 48_000, seconds: 1)
        let url = try writeFile("tone.wav", rate: 48_000, channels: [tone])
        for (setting, engine) in [(TimePitch(tempo: 0.85, semitones: -2), StretchEngine.finer), (TimePitch(tempo: 2), .faster)] {
            let player = try FilePlayerStream(url: url, channels: 1, loops: false, gainDB: 0, isPlaying: false, timePitch: setting, engine: engine)
            defer { player.close() }
            player.setOutputRate(48_000)
            let reader = RestartReader(ring: player.ring)
            let thread = Thread { reader.run() }
            thread.start()
            try waitFor("the reader under way", timeout: 5) { reader.reads > 10 }
            let baseline = player.underrunCount
            player.start()
            try waitFor("the start heard", timeout: 5) { reader.frames.count >= player.stretchedQueuedFrames }
            reader.stop()
            try waitFor("the reader done", timeout: 5) { reader.isDone }
            XCTAssertEqual(reader.underrunsBeforeSound - baseline, 0, "\(setting.summary): silence while the start is prepared is no underrun")
            let heard = Array(reader.frames.prefix(player.stretchedQueuedFrames))
            let zeros = heard.indices.filter { heard[$0] == 0 && ($0 == 0 || heard[$0 - 1] == 0) }
            XCTAssertEqual(zeros.count, 0, "\(setting.summary): the ring's first 32 ms in one piece")
            let opening = Array(heard.prefix(480))
            let level = 20 * log10((opening.reduce(0) { $0 + $1 * $1 } / Float(opening.count)).squareRoot())
            XCTAssertEqual(level, -15, accuracy: 1, "\(setting.summary): the first 10 ms at the file's level")
        }
    }
}

/// The audio thread's part, impatient: reads 64 frames every 0.33 ms (four times real time, so the old ring runs dry
/// well within the restart), keeping what follows the first non-zero frame and the underrun count before it.
private final class RestartReader: @unchecked Sendable {
    let ring: TapRing
    private let lock = NSLock()
    private var heard: [Float] = []
    private var count = 0, before = 0, stopping = false, done = false

    init(ring: TapRing) { self.ring = ring }

    var reads: Int { lock.withLock { count } }
    var frames: [Float] { lock.withLock { heard } }
    var underrunsBeforeSound: Int { lock.withLock { before } }
    var isDone: Bool { lock.withLock { done } }
    func stop() { lock.withLock { stopping = true } }

    func run() {
        let block = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        defer { block.deallocate() }
        while !lock.withLock({ stopping }) {
            let got = ring.read(into: [block], frames: 64)
            let samples = Array(UnsafeBufferPointer(start: block, count: 64))
            lock.withLock {
                count += 1
                if heard.isEmpty, let first = samples[..<got].firstIndex(where: { $0 != 0 }) {
                    heard = Array(samples[first...])
                } else if !heard.isEmpty {
                    heard += samples
                } else {
                    before = ring.underrunCount
                }
            }
            usleep(333)
        }
        lock.withLock { done = true }
    }
}
