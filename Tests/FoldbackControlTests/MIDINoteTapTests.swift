// MIDI notes mapped in `[[midi.note]]`: a note-on (velocity above 0) is a press, so a pad mapped to `tempo.tap` taps the show tempo. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine
import FoldbackPresets
import Foundation
import XCTest

final class MIDINoteTapTests: XCTestCase {
    private typealias Clock = MIDITempoTapTests.Clock

    private func preset(_ midi: String) throws -> Preset { try MIDITempoTapTests.preset(midi: midi) }

    /// A controller on the pad-on-tap preset, timed by `clock`, whose taps go to a fresh show tempo; and the taps counted.
    private func tapping(clock: Clock) throws -> (MIDIController, ShowTempo, Clock) {
        let controller = MIDIController(preset: try preset(Self.padOnTap), engine: Engine(configuration: EngineConfiguration(maxFrames: 256)),
                                        clock: { clock.lock.withLock { clock.now } })
        let tempo = ShowTempo(), taps = Clock()
        taps.now = 0
        controller.onTempoTap = { time in
            taps.lock.withLock { taps.now += 1 }
            _ = tempo.tap(at: time)
        }
        return (controller, tempo, taps)
    }

    private static let padOnTap = """
        [[midi.note]]
        channel = 10
        note = 36                     # a drum pad
        target = "tempo.tap"
        """

    /// Four note-ons of note 36 on channel 10, 500 ms apart by the controller's clock, each followed by its note-off and
    /// a note-on of velocity 0 (a release too) 100 ms later: four taps, 120 BPM (±0.5). Note-offs, releases, other
    /// notes and other channels tap nothing.
    func testFourNoteOnsHalfASecondApartGive120BPM() throws {
        let counter = Clock()
        let (controller, tempo, taps) = try tapping(clock: counter)
        for press in 0..<4 {
            counter.lock.withLock { counter.now = 100 + 0.5 * Double(press) }
            controller.handle(.noteOn(channel: 10, note: 36, velocity: 100))
            counter.lock.withLock { counter.now += 0.1 }
            controller.handle(.noteOff(channel: 10, note: 36, velocity: 64))
            controller.handle(.noteOn(channel: 10, note: 36, velocity: 0))
            controller.handle(.noteOn(channel: 10, note: 37, velocity: 100))   // another pad
            controller.handle(.noteOn(channel: 1, note: 36, velocity: 100))    // another channel
            controller.handle(.controlChange(channel: 10, controller: 36, value: 127))   // a controller of the same number
        }
        XCTAssertEqual(taps.lock.withLock { taps.now }, 4, "one tap per note-on")
        XCTAssertEqual(try XCTUnwrap(tempo.bpm), 120, accuracy: 0.5)
    }

    /// A note-off alone (or a note-on of velocity 0) is never a tap: no tap counted, no tempo.
    func testANoteOffIsNotATap() throws {
        let counter = Clock()
        let (controller, tempo, taps) = try tapping(clock: counter)
        for press in 0..<4 {
            counter.lock.withLock { counter.now = 100 + 0.5 * Double(press) }
            controller.handle(.noteOff(channel: 10, note: 36))
            controller.handle(.noteOn(channel: 10, note: 36, velocity: 0))
        }
        XCTAssertEqual(taps.lock.withLock { taps.now }, 0)
        XCTAssertNil(tempo.bpm)
    }

    /// `[[midi.note]]` (a press target, and a switch in `toggle` mode) round-trips through the preset writer beside a
    /// `[[midi.cc]]` of the same number, and shows in `foldback check` as `note 36`.
    func testNoteMappingsAreSavedAndShown() throws {
        let loaded = try preset(Self.padOnTap + """

            [[midi.note]]
            note = 60
            target = "strip.vox.unit.verb.bypass"
            mode = "toggle"
            [[midi.cc]]
            cc = 36
            target = "strip.vox.gain_db"
            """)
        XCTAssertEqual(loaded.midi.controls.map(\.kind), [.controlChange, .note, .note])
        XCTAssertEqual(loaded.midi.control(channel: 10, controller: 36, kind: .note)?.target, .tempo(key: "tap"))
        XCTAssertEqual(loaded.midi.control(channel: 1, controller: 36)?.target, .strip("vox", key: "gain_db"))
        let again = try PresetLoader.parse(PresetWriter.text(for: loaded), path: "/tmp/again.toml")
        XCTAssertEqual(Set(again.midi.controls), Set(loaded.midi.controls))
        let report = PresetReport.render(loaded)
        XCTAssertTrue(report.contains("ch 10  note 36  -> tempo.tap"), report)
        XCTAssertTrue(report.contains("ch 1  note 60   -> strip.vox.unit.verb.bypass  toggle"), report)
    }

    /// A note cannot move a continuous target (the error names the file, line and column and says to use `[[midi.cc]]`),
    /// nor take a controller's range keys.
    func testANoteOnAContinuousTargetIsRefusedAtItsLine() throws {
        XCTAssertThrowsError(try preset("""
            [[midi.note]]
            note = 60
            target = "strip.vox.gain_db"
            """)) { error in
            XCTAssertTrue("\(error)".contains("show.toml:14:"), "\(error)")
            XCTAssertTrue("\(error)".contains("[[midi.cc]]"), "\(error)")
        }
        XCTAssertThrowsError(try preset("""
            [[midi.note]]
            note = 60
            target = "tempo.tap"
            curve = "db"
            """)) { error in
            XCTAssertTrue("\(error)".contains("curve"), "\(error)")
        }
        XCTAssertThrowsError(try preset("""
            [[midi.note]]
            note = 128
            target = "tempo.tap"
            """)) { error in
            XCTAssertTrue("\(error)".contains("note"), "\(error)")
        }
    }
}
