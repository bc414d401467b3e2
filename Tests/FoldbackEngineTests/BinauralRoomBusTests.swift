// A binaural bus's room in the engine: off changes nothing, on adds the room of the bus's mix after its sources' sum and
// leaves the direct sound where it was; at two rates and awkward block sizes; refused on a bus that is not binaural.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class BinauralRoomBusTests: XCTestCase {
    private func graph(_ set: HRIRSet, roomDB: Float?) -> GraphDescription {
        var send = SendDescription(bus: 0, gainDB: 0, isPreFader: false, width: nil)
        send.position = BinauralPosition(azimuthDeg: 90)
        var bus = BusDescription(name: "iem", channels: 2)
        bus.hrtf = set
        bus.roomDB = roomDB
        return GraphDescription(strips: [StripDescription(name: "vox", channels: 1, sends: [send])], buses: [bus])
    }

    private func render(_ set: HRIRSet, roomDB: Float?, sampleRate: Double, blockSize: Int, frames: Int) throws -> [[Float]] {
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
        try host.install(graph(set, roomDB: roomDB), sampleRate: sampleRate)
        var click = [Float](repeating: 0, count: frames)
        click[100] = 1
        return host.render([click], blockSize: blockSize)
    }

    /// The click set at 90°: the right ear's click (× 1.5) at frame 105, the left's (× 0.5) at 115. With the room at
    /// −6 dB the direct clicks are unchanged (±1e-6) and the room adds, at each reflection's delay per ear after both
    /// clicks, their mean × its gain × −6 dB (±1e-5), as the room alone computes it; block sizes 1, 7, 253, 1024 give
    /// identical output; without a room the output is exactly the two clicks.
    func testTheRoomAddsItsReflectionsAfterTheDirectSound() throws {
        for sampleRate in [44100.0, 48000] {
            let set = BinauralBusTests.clickSet(sampleRate: sampleRate)
            let frames = 4096
            let dry = try render(set, roomDB: nil, sampleRate: sampleRate, blockSize: 253, frames: frames)
            var expectedDry = [[Float]](repeating: [Float](repeating: 0, count: frames), count: 2)
            expectedDry[0][115] = 0.5
            expectedDry[1][105] = 1.5
            assertSignalsEqual(dry[0], expectedDry[0], tolerance: 1e-6, "\(sampleRate) Hz, no room, left")
            assertSignalsEqual(dry[1], expectedDry[1], tolerance: 1e-6, "\(sampleRate) Hz, no room, right")
            var first: [[Float]]?
            for blockSize in [1, 7, 253, 1024] {
                let wet = try render(set, roomDB: -6, sampleRate: sampleRate, blockSize: blockSize, frames: frames)
                if let first {
                    XCTAssertEqual(wet, first, "\(sampleRate) Hz, block \(blockSize)")
                    continue
                }
                first = wet
                XCTAssertEqual(wet[0][115], 0.5, accuracy: 1e-6)
                XCTAssertEqual(wet[1][105], 1.5, accuracy: 1e-6)
                let room = BinauralRoom(sampleRate: sampleRate)
                defer { room.deallocate() }
                let level = Decibels.linearGain(fromDecibels: -6)
                for (delays, gains) in zip(room.delays, room.gains) {
                    for ear in 0..<2 {
                        let delay = Int(delays[ear])
                        // Both clicks are summed to mono (0.75 at 105, 0.25 at 115) before the reflections.
                        XCTAssertEqual(wet[ear][105 + delay] - dry[ear][105 + delay], 0.75 * gains[ear] * level, accuracy: 1e-5, "\(sampleRate) Hz, ear \(ear), delay \(delay)")
                        XCTAssertEqual(wet[ear][115 + delay] - dry[ear][115 + delay], 0.25 * gains[ear] * level, accuracy: 1e-5, "\(sampleRate) Hz, ear \(ear), delay \(delay)")
                    }
                }
            }
        }
    }

    /// `room_db` moved live (the engine's `busRoomLevel`, as OSC and the pages set it) from −6 to −18 dB: a click 2000
    /// frames later (past the 20 ms glide) comes back with every reflection 12 dB lower (as the room alone computes it
    /// at −18 dB, ±1e-5, i.e. well within 0.1 dB) and the direct sound unchanged. Values outside −40…6 and a bus
    /// without a room are refused.
    func testTheRoomLevelMovesLiveByTheAskedDecibels() throws {
        let set = BinauralBusTests.clickSet(sampleRate: 48000)
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
        try host.install(graph(set, roomDB: -6), sampleRate: 48000)
        var click = [Float](repeating: 0, count: 6000)
        click[2000] = 1
        let out = try host.render([click], blockSize: 253) { cycle, _ in
            if cycle == 0 { try host.engine.set(.busRoomLevel(bus: 0), to: -18) }
        }
        XCTAssertEqual(out[0][2015], 0.5, accuracy: 1e-6)
        XCTAssertEqual(out[1][2005], 1.5, accuracy: 1e-6)
        let room = BinauralRoom(sampleRate: 48000)
        defer { room.deallocate() }
        let level = Decibels.linearGain(fromDecibels: -18)
        for (delays, gains) in zip(room.delays, room.gains) {
            for ear in 0..<2 {
                let at = 2005 + Int(delays[ear])
                XCTAssertEqual(out[ear][at], 0.75 * gains[ear] * level, accuracy: 1e-5, "ear \(ear), reflection at \(at)")
            }
        }
        XCTAssertThrowsError(try host.engine.set(.busRoomLevel(bus: 0), to: 7))
        XCTAssertThrowsError(try host.engine.set(.busRoomLevel(bus: 0), to: .nan))
        let plain = OfflineEngine(maxFrames: 256, inputs: 1, outputs: 2)
        try plain.install(graph(set, roomDB: nil), sampleRate: 48000)
        XCTAssertThrowsError(try plain.engine.set(.busRoomLevel(bus: 0), to: 0)) { error in
            XCTAssertTrue("\(error)".contains("has no room"), "\(error)")
        }
    }

    /// A 300 Hz sine through the room while `room_db` jumps from −40 to +6 dB at frame 9600: the largest frame-to-frame
    /// step from then on stays within 5 % of the largest the same sine makes through the room steady at +6 dB when it
    /// starts at that frame (at a zero crossing): turning the room up sounds like the room's own onset, with no click or
    /// zipper from the glide.
    func testARoomLevelMoveHasNoStepAboveTheSignalsOwn() throws {
        let set = BinauralBusTests.clickSet(sampleRate: 48000)
        let sine = (0..<24000).map { Float(sin(2 * Double.pi * 300 * Double($0) / 48000)) * 0.3 }
        func largestStep(_ out: [[Float]], from start: Int) -> Float {
            out.map { signal in (start + 1..<signal.count).map { abs(signal[$0] - signal[$0 - 1]) }.max()! }.max()!
        }
        let onset = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
        try onset.install(graph(set, roomDB: 6), sampleRate: 48000)
        let own = largestStep(onset.render([sine.enumerated().map { $0.offset < 9600 ? 0 : $0.element }], blockSize: 64), from: 9600)
        let moving = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
        try moving.install(graph(set, roomDB: -40), sampleRate: 48000)
        let out = try moving.render([sine], blockSize: 64) { cycle, _ in
            if cycle == 150 { try moving.engine.set(.busRoomLevel(bus: 0), to: 6) }
        }
        let step = largestStep(out, from: 9600)
        XCTAssertLessThanOrEqual(step, own * 1.05, "moving \(step), the room's own onset \(own)")
        XCTAssertGreaterThan(own, 0.01)
    }

    func testARoomOnABusThatIsNotBinauralIsRefused() {
        var bus = BusDescription(name: "wedge", channels: 2)
        bus.roomDB = 0
        let graph = GraphDescription(strips: [StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0)])], buses: [bus])
        XCTAssertThrowsError(try EngineGraph(graph, sampleRate: 48000, maxFrames: 256)) { error in
            XCTAssertEqual("\(error)", "binaural bus 'wedge': a room needs a binaural bus")
        }
    }
}
