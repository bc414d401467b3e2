// DCA and mute groups: a DCA moves its members' post-fader output by its gain exactly, not pre-fader sends; mute groups release to each strip's own mute.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest

final class StripGroupTests: XCTestCase {
    private let sampleRate = 48000.0

    /// Two mono strips, each with a post-fader send to bus 0 and a pre-fader send to bus 1.
    private func graph(dcas: [DCADescription] = [], muteGroups: [MuteGroupDescription] = [], mutedStrip: Int? = nil) -> GraphDescription {
        let strips = (0..<2).map { (index: Int) in
            StripDescription(name: "s\(index)", channels: 1, sends: [SendDescription(bus: 0), SendDescription(bus: 1, isPreFader: true)],
                             gainDB: -3, isMuted: index == mutedStrip)
        }
        var description = GraphDescription(strips: strips, buses: [BusDescription(name: "foh", channels: 1), BusDescription(name: "iem", channels: 1)])
        description.dcas = dcas
        description.muteGroups = muteGroups
        return description
    }

    /// Renders a tone into strip 0 only, setting `changes` before cycle 4; returns each bus's level over the last half, dB.
    private func levels(_ description: GraphDescription, changes: [(ParameterAddress, Float)] = [], blockSize: Int = 256) throws -> [Double] {
        let host = OfflineEngine(maxFrames: 1024, inputs: 2, outputs: 2)
        try host.install(description, sampleRate: sampleRate)
        let tone = TestSignal.sine(frames: 9600, frequency: 1000, sampleRate: sampleRate, amplitude: 0.5)
        let output = try host.render([tone, [Float](repeating: 0, count: tone.count)], blockSize: blockSize) { cycle, _ in
            if cycle == 4 { for (address, value) in changes { try host.engine.set(address, to: value) } }
        }
        return output.map { TestSignal.rmsDB($0[4800...]) - TestSignal.rmsDB(tone[4800...]) }
    }

    func testDCAMovesPostFaderOutputByItsGainAndLeavesPreFaderSends() throws {
        let base = try levels(graph())
        XCTAssertEqual(base[0], -3, accuracy: 0.01)
        XCTAssertEqual(base[1], 0, accuracy: 0.01)
        for blockSize in [1, 7, 253, 1024] {
            let built = try levels(graph(dcas: [DCADescription(name: "drums", strips: [0], gainDB: -6)]), blockSize: blockSize)
            XCTAssertEqual(built[0], -9, accuracy: 0.01, "post-fader follows the DCA, block \(blockSize)")
            XCTAssertEqual(built[1], 0, accuracy: 0.01, "pre-fader send does not, block \(blockSize)")
        }
        let moved = try levels(graph(dcas: [DCADescription(name: "drums", strips: [0])]), changes: [(.dcaGain(dca: 0), 4.5)])
        XCTAssertEqual(moved[0], 1.5, accuracy: 0.01, "live DCA move")
        XCTAssertEqual(moved[1], 0, accuracy: 0.01)
    }

    func testTwoDCAsAddAndAFaderMoveKeepsTheDCA() throws {
        let dcas = [DCADescription(name: "a", strips: [0], gainDB: -2), DCADescription(name: "b", strips: [0, 1], gainDB: -5)]
        let both = try levels(graph(dcas: dcas))
        XCTAssertEqual(both[0], -10, accuracy: 0.01, "-3 fader -2 -5")
        let faderMoved = try levels(graph(dcas: dcas), changes: [(.stripGain(strip: 0), 0)])
        XCTAssertEqual(faderMoved[0], -7, accuracy: 0.01, "own fader moved, DCAs still add")
    }

    func testDCAMuteClosesTheFaderOnly() throws {
        let muted = try levels(graph(dcas: [DCADescription(name: "a", strips: [0])]), changes: [(.dcaMute(dca: 0), 1)])
        XCTAssertLessThan(muted[0], -120, "post-fader silent")
        XCTAssertEqual(muted[1], 0, accuracy: 0.01, "pre-fader monitor send untouched")
        let released = try levels(graph(dcas: [DCADescription(name: "a", strips: [0], isMuted: true)]), changes: [(.dcaMute(dca: 0), 0)])
        XCTAssertEqual(released[0], -3, accuracy: 0.01)
    }

    func testMuteGroupSilencesMembersAndReleasesThemToTheirOwnMute() throws {
        let group = [MuteGroupDescription(name: "band", strips: [0, 1])]
        let on = try levels(graph(muteGroups: group), changes: [(.muteGroup(group: 0), 1)])
        XCTAssertLessThan(on[0], -120)
        XCTAssertLessThan(on[1], -120, "a mute group mutes pre-fader sends as the strip's mute does")
        let released = try levels(graph(muteGroups: [MuteGroupDescription(name: "band", strips: [0, 1], isMuted: true)]), changes: [(.muteGroup(group: 0), 0)])
        XCTAssertEqual(released[0], -3, accuracy: 0.01, "released to its own (unmuted) state")
        let ownMute = try levels(graph(muteGroups: [MuteGroupDescription(name: "band", strips: [0, 1], isMuted: true)], mutedStrip: 0),
                                 changes: [(.muteGroup(group: 0), 0)])
        XCTAssertLessThan(ownMute[0], -120, "released to its own mute, which is on")
        XCTAssertThrowsError(try OfflineEngine(maxFrames: 64, inputs: 2, outputs: 2).engine.set(.muteGroup(group: 3), to: 1))
    }
}
