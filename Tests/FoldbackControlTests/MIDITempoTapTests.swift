// MIDI presses of `tempo.tap`: each press (a CC rising through 64) is one tap of the show tempo. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine
import FoldbackPresets
import Foundation
import XCTest

final class MIDITempoTapTests: XCTestCase {
    final class Clock: @unchecked Sendable {
        let lock = NSLock()
        var now = 100.0
    }

    /// A one-strip preset (vox, with a reverb `verb`) whose `[midi]` section is `midi`.
    static func preset(midi: String) throws -> Preset {
        try PresetLoader.parse("""
            [[bus]]
            name = "main"
            channels = 1
            [[strip]]
            name = "vox"
            gain_db = -6
            send = [{ bus = "main" }]
              [[strip.unit]]
              type = "reverb"
              id = "verb"
            [midi]
            \(midi)
            """, path: "/tmp/show.toml")
    }

    private func preset(target: String) throws -> Preset {
        try Self.preset(midi: "[[midi.cc]]\ncc = 64\ntarget = \"\(target)\"")
    }

    /// CC 64 at 127, 0 four times, 500 ms apart by the controller's clock (with a still-high 100 in between,
    /// not a press): the show tempo is 120 BPM (±0.5).
    func testFourPressesHalfASecondApartGive120BPM() throws {
        let clock = Clock()
        let controller = MIDIController(preset: try preset(target: "tempo.tap"), engine: Engine(configuration: EngineConfiguration(maxFrames: 256)),
                                        clock: { clock.lock.withLock { clock.now } })
        let tempo = ShowTempo()
        let taps = Clock()
        taps.now = 0
        controller.onTempoTap = { time in
            taps.lock.withLock { taps.now += 1 }
            _ = tempo.tap(at: time)
        }
        for press in 0..<4 {
            clock.lock.withLock { clock.now = 100 + 0.5 * Double(press) }
            for value in [127, 100, 0] {
                controller.handle(MIDIMessage(status: 0xB0, data1: 64, data2: UInt8(value)))
            }
        }
        XCTAssertEqual(taps.lock.withLock { taps.now }, 4)
        XCTAssertEqual(try XCTUnwrap(tempo.bpm), 120, accuracy: 0.5)
    }

    func testAnUnknownTempoTargetIsRefusedWithTap() throws {
        XCTAssertThrowsError(try preset(target: "tempo.tapp")) { error in
            XCTAssertTrue("\(error)".contains("tap"), "\(error)")
        }
    }
}
