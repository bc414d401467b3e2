// Talkback: silent until pressed, heard only in its buses, dims their other content by dim_db, releases cleanly.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class TalkbackTests: XCTestCase {
    private let cases: [(sampleRate: Double, blockSize: Int)] = [(44100, 7), (48000, 1), (96000, 253), (48000, 1024)]

    /// Strip "band" (input 0) sends to all three buses; talkback "tb" (input 1) talks to alice and bob.
    private func graph(dimDB: Float) -> GraphDescription {
        var talkback = StripDescription(name: "tb", channels: 1, sends: [SendDescription(bus: 0), SendDescription(bus: 1, gainDB: -6)], gainDB: -3)
        talkback.isTalkback = true
        talkback.talkbackDimDB = dimDB
        let band = StripDescription(name: "band", channels: 1, sends: [
            SendDescription(bus: 0, isPreFader: true), SendDescription(bus: 1), SendDescription(bus: 2, gainDB: -4),
        ], gainDB: -2)
        return GraphDescription(strips: [band, talkback], buses: [
            BusDescription(name: "alice", channels: 1), BusDescription(name: "bob", channels: 2), BusDescription(name: "carol", channels: 1),
        ])
    }

    /// Renders `band` and `talk` with the talkback pressed at `pressAt` and released at `releaseAt` (nil: never).
    private func render(
        dimDB: Float, sampleRate: Double, blockSize: Int, band: [Float], talk: [Float], pressAt: Int?, releaseAt: Int?
    ) throws -> [[Float]] {
        let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 4)
        try host.install(graph(dimDB: dimDB), sampleRate: sampleRate)
        return try host.render([band, talk], blockSize: blockSize) { _, start in
            let range = start..<start + blockSize
            if let pressAt, range.contains(pressAt) { try host.engine.set(.talkback(strip: 1), to: 1) }
            if let releaseAt, range.contains(releaseAt) { try host.engine.set(.talkback(strip: 1), to: 0) }
        }
    }

    func testPressedTalkbackDimsOnlyItsBusesByDimDBAndReleasesToTheSameMix() throws {
        for (sampleRate, blockSize) in cases {
            for dimDB: Float in [-12, -20] {
                let frames = Int(sampleRate * 0.4), pressAt = Int(sampleRate * 0.1), releaseAt = Int(sampleRate * 0.25)
                let band = TestSignal.sine(frames: frames, sampleRate: sampleRate, amplitude: 0.5)
                let silence = [Float](repeating: 0, count: frames)
                let still = try render(dimDB: dimDB, sampleRate: sampleRate, blockSize: blockSize, band: band, talk: silence, pressAt: nil, releaseAt: nil)
                let dimmed = try render(dimDB: dimDB, sampleRate: sampleRate, blockSize: blockSize, band: band, talk: silence, pressAt: pressAt, releaseAt: releaseAt)
                let ramp = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate) + blockSize
                let held = (pressAt + ramp)..<(releaseAt / blockSize * blockSize), after = (releaseAt + ramp)..<frames
                for channel in 0..<4 {
                    let change = TestSignal.rmsDB(dimmed[channel][held]) - TestSignal.rmsDB(still[channel][held])
                    let expected = channel < 3 ? Double(dimDB) : 0   // alice, bob L/R dim; carol does not
                    XCTAssertEqual(change, expected, accuracy: 0.001, "channel \(channel) while held, dim \(dimDB) dB, \(sampleRate) Hz block \(blockSize)")
                    if channel == 3 { XCTAssertEqual(dimmed[channel], still[channel], "carol is not touched at all") }
                    XCTAssertEqual(Array(dimmed[channel][after]), Array(still[channel][after]), "channel \(channel) back exactly after the release")
                    XCTAssertLessThanOrEqual(TestSignal.largestStep(dimmed[channel]), TestSignal.largestStep(still[channel]) * 1.01 + 1e-6, "click-free")
                }
            }
        }
    }

    func testTalkbackIsSilentUntilPressedAndReachesOnlyItsTargetsAtItsLevel() throws {
        for (sampleRate, blockSize) in cases {
            let frames = Int(sampleRate * 0.4), pressAt = Int(sampleRate * 0.1), releaseAt = Int(sampleRate * 0.25)
            let talk = TestSignal.sine(frames: frames, frequency: 440, sampleRate: sampleRate, amplitude: 0.5)
            let silence = [Float](repeating: 0, count: frames)
            let output = try render(dimDB: -12, sampleRate: sampleRate, blockSize: blockSize, band: silence, talk: talk, pressAt: pressAt, releaseAt: releaseAt)
            let ramp = TestSignal.frames(seconds: 0.02, sampleRate: sampleRate) + blockSize
            let held = (pressAt + ramp)..<(releaseAt / blockSize * blockSize)   // the release lands at its cycle's start
            let pressStart = pressAt / blockSize * blockSize
            for channel in 0..<4 {
                XCTAssertTrue(output[channel][..<pressStart].allSatisfy { $0 == 0 }, "silent before the press, channel \(channel)")
                XCTAssertTrue(output[channel][(releaseAt + ramp)...].allSatisfy { $0 == 0 }, "silent after the release, channel \(channel)")
                XCTAssertLessThanOrEqual(TestSignal.largestStep(output[channel]), TestSignal.largestStep(talk) * 1.01, "click-free")
            }
            XCTAssertTrue(output[3].allSatisfy { $0 == 0 }, "carol never hears the talkback")
            let input = TestSignal.rmsDB(talk[held])
            XCTAssertEqual(TestSignal.rmsDB(output[0][held]) - input, -3, accuracy: 0.01, "alice: the talkback fader")
            let bobLevel = -3 - 6 - 3.0103   // fader, send, centre pan into a stereo bus
            XCTAssertEqual(TestSignal.rmsDB(output[1][held]) - input, bobLevel, accuracy: 0.01, "bob left")
            XCTAssertEqual(TestSignal.rmsDB(output[2][held]) - input, bobLevel, accuracy: 0.01, "bob right")
        }
    }

    func testOnlyTalkbackStripsCanBePressedAndSoloElsewhereLeavesTalkbackOpen() throws {
        let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 4)
        try host.install(graph(dimDB: -12), sampleRate: 48000)
        XCTAssertThrowsError(try host.engine.set(.talkback(strip: 0), to: 1), "band is not a talkback")
        try host.engine.set(.stripSolo(strip: 0), to: 1)
        try host.engine.set(.talkback(strip: 1), to: 1)
        let frames = 4800
        let output = host.render([[Float](repeating: 0, count: frames), TestSignal.dc(frames: frames)], blockSize: 256)
        XCTAssertEqual(output[0].last ?? 0, TestSignal.linear(-3), accuracy: 1e-6, "a solo does not close the talkback")
    }
}
