// Relative moves: OSC `…/inc f DELTA` on any numeric node (clamped, whole steps for integers, switches refused) and MIDI relative encoders. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine
import FoldbackPresets
import XCTest

final class RelativeMoveTests: XCTestCase {
    private let peer = OSCPeer(host: "127.0.0.1", port: 9)!

    private func increment(_ router: ControlRouter, _ path: String, _ delta: OSCArgument) -> [OSCMessage] {
        router.handle(OSCMessage("/foldback/\(path)/inc", [delta]), from: peer)
    }

    func testIncrementsMoveAnyNumericNodeWithinItsRange() throws {
        let target = try OfflineTarget()
        let router = ControlRouter(target: target)
        // vox's send to iem is +3 dB in the fixture: up 3 (an integer step is taken as well), then down 10.5.
        XCTAssertEqual(increment(router, "strip/vox/send/iem/gain_db", .float(3)), [OSCMessage("/foldback/strip/vox/send/iem/gain_db", [.float(6)])])
        XCTAssertEqual(target.engine.value(at: .sendGain(strip: 0, send: 1)), 6)
        XCTAssertEqual(increment(router, "strip/vox/send/iem/gain_db", .int(-10)).first?.arguments, [.float(-4)])
        XCTAssertEqual(increment(router, "strip/vox/send/iem/gain_db", .float(-0.5)).first?.arguments, [.float(-4.5)])
        XCTAssertEqual(increment(router, "strip/vox/gain_db", .float(40)).first?.arguments, [.float(24)], "clamped to the top of the range")
        XCTAssertEqual(increment(router, "strip/vox/pan", .float(-5)).first?.arguments, [.float(-1)], "clamped to hard left")
        XCTAssertEqual(increment(router, "strip/vox/unit/comp/threshold_db", .float(-4)).first?.arguments, [.float(-24)], "a unit parameter")
        XCTAssertEqual(increment(router, "bus/iem/gain_db", .float(1)).first?.arguments, [.float(-2)], "a bus level")

        // A level at −∞ comes up from the fader's bottom mark.
        XCTAssertEqual(router.handle(OSCMessage("/foldback/bus/main/gain_db", [.float(-.infinity)]), from: peer), [])
        XCTAssertEqual(increment(router, "bus/main/gain_db", .float(-3)).first?.arguments, [.float(-.infinity)], "down from silence: silence")
        XCTAssertEqual(increment(router, "bus/main/gain_db", .float(6)).first?.arguments, [.float(-84)])
    }

    func testIncrementRefusalsLeaveTheValueAlone() throws {
        let target = try OfflineTarget()
        let router = ControlRouter(target: target)
        for (path, argument, expected) in [
            ("strip/vox/mute", OSCArgument.int(1), "is a toggle, not a number"),
            ("strip/vox/send/iem/gain_db", .string("up"), "takes one number"),
            ("strip/vox/send/iem/gain_db", .float(.nan), "takes one number"),
            ("strip/vox/send/nowhere/gain_db", .float(1), "has no send to 'nowhere'"),
        ] {
            let reply = increment(router, path, argument)
            XCTAssertEqual(reply.first?.path, OSCServer.errorPath, path)
            XCTAssertTrue(reply.first?.arguments.contains { $0.text?.contains(expected) == true } == true, "\(path): \(reply)")
        }
        XCTAssertNil(target.engine.value(at: .sendGain(strip: 0, send: 1)), "nothing was set")
        XCTAssertNil(target.engine.value(at: .stripMute(strip: 0)))
    }

    func testRelativeEncodersStepFromTheCurrentValue() throws {
        let text = ControlFixtures.preset + """

            [midi]
              [[midi.cc]]
              cc = 16
              target = "strip.vox.send.iem.gain_db"
              relative = "twos"
              [[midi.cc]]
              cc = 17
              target = "strip.vox.pan"
              relative = "offset"
              step = 0.1
              [[midi.cc]]
              cc = 18
              target = "strip.vox.unit.comp.threshold_db"
              relative = "sign"
              step = 2
              min = -30
              max = -10
            """
        let target = try OfflineTarget(text: text)
        let map = target.currentPreset.midi
        XCTAssertEqual(map.controls.map(\.relative), [.twos, .offset, .sign])
        XCTAssertEqual(map.controls[0].step, 0.5, "a level's default step")
        let midi = MIDIController(preset: target.currentPreset, engine: target.engine)
        func turn(_ cc: UInt8, _ value: UInt8) { midi.handle(MIDIMessage(status: 0xB0, data1: cc, data2: value)) }

        turn(16, 2)      // two's complement: +2 detents of 0.5 dB from the file's +3
        XCTAssertEqual(target.engine.value(at: .sendGain(strip: 0, send: 1)), 4)
        turn(16, 124)    // −4 detents
        XCTAssertEqual(target.engine.value(at: .sendGain(strip: 0, send: 1)), 2)
        turn(17, 61)     // offset: −3 detents of 0.1 from the strip's pan 0.25 (the send into a mono bus follows nothing; the strip pan moves)
        XCTAssertEqual(try XCTUnwrap(target.engine.value(at: .stripPan(strip: 0))), -0.05, accuracy: 1e-6)
        turn(18, 67)     // sign bit: −3 detents of 2 dB from −20
        XCTAssertEqual(target.engine.value(at: .unitParameter(strip: 0, unit: 1, parameter: 0)), -26)
        turn(18, 70)     // −6 more: stopped at the mapping's min
        XCTAssertEqual(target.engine.value(at: .unitParameter(strip: 0, unit: 1, parameter: 0)), -30)

        XCTAssertEqual(MIDIRelativeEncoding.twos.detents(forControllerValue: 127), -1)
        XCTAssertEqual(MIDIRelativeEncoding.offset.detents(forControllerValue: 64), 0)
        XCTAssertEqual(MIDIRelativeEncoding.sign.detents(forControllerValue: 65), -1)
        let again = try PresetLoader.parse(PresetWriter.text(for: target.currentPreset), path: "/tmp/again.toml")
        XCTAssertEqual(again.midi.controls.map(\.step), [0.5, 0.1, 2], "relative mappings are saved with their step")
    }

    func testARelativeEncoderOnASwitchIsAnError() throws {
        let text = ControlFixtures.preset + "\n[midi]\n  [[midi.cc]]\n  cc = 16\n  target = \"strip.vox.mute\"\n  relative = \"twos\"\n"
        XCTAssertThrowsError(try PresetLoader.parse(text, path: "/tmp/switch.toml")) { error in
            XCTAssertTrue("\(error)".contains("'relative' is for a continuous target"), "\(error)")
        }
    }
}

extension RelativeMoveTests {
    func testSourceTransportCommandsAreCheckedAndRefusedWithoutAFile() throws {
        let router = ControlRouter(target: try OfflineTarget())
        let peer = OSCPeer(host: "127.0.0.1", port: 9)!
        func reply(_ path: String, _ arguments: [OSCArgument] = []) -> String {
            router.handle(OSCMessage("/foldback/strip/vox/source/" + path, arguments), from: peer).first?.arguments.compactMap(\.text).joined() ?? ""
        }
        XCTAssertTrue(reply("play").contains("strip 'vox' plays no file"), reply("play"))
        XCTAssertTrue(reply("locate", [.float(-1)]).contains("takes one number, the position in seconds"))
        XCTAssertTrue(reply("locate").contains("takes one number"))
        XCTAssertTrue(reply("cue", [.int(1)]).contains("takes no arguments"))
    }
}
