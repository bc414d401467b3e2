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

    func testARoomOnABusThatIsNotBinauralIsRefused() {
        var bus = BusDescription(name: "wedge", channels: 2)
        bus.roomDB = 0
        let graph = GraphDescription(strips: [StripDescription(name: "vox", channels: 1, sends: [SendDescription(bus: 0)])], buses: [bus])
        XCTAssertThrowsError(try EngineGraph(graph, sampleRate: 48000, maxFrames: 256)) { error in
            XCTAssertEqual("\(error)", "binaural bus 'wedge': a room needs a binaural bus")
        }
    }
}
