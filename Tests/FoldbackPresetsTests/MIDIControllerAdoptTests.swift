// After a preset switch the MIDI controller follows the new preset's [midi] map. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class MIDIControllerAdoptTests: XCTestCase {
    private func preset(cc: Int) throws -> Preset {
        try PresetLoader.parse(presetText(stripName: "vox") + """
            [midi]
              [[midi.cc]]
              cc = \(cc)
              target = "strip.vox.gain_db"
              min = -30
              max = 0
            """, path: "cc\(cc).toml")
    }

    func testAnAdoptedPresetsMapReplacesTheOldOne() throws {
        let first = try preset(cc: 7), second = try preset(cc: 8)
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 256))
        try engine.install(PresetGraphBuilder.graph(for: first, sampleRate: 48000, maxFrames: 256), crossfade: .none)
        let controller = MIDIController(preset: first, engine: engine)
        controller.handle(MIDIMessage(status: 0xB0, data1: 7, data2: 127))
        XCTAssertEqual(engine.value(at: .stripGain(strip: 0)), 0, "CC 7 drives the fader under the first preset")

        engine.renderCycle(frames: 16)
        try engine.install(PresetGraphBuilder.graph(for: second, sampleRate: 48000, maxFrames: 256), crossfade: .none)
        controller.adopt(second)
        controller.handle(MIDIMessage(status: 0xB0, data1: 7, data2: 0))
        XCTAssertNil(engine.value(at: .stripGain(strip: 0)), "CC 7 is no longer mapped")
        controller.handle(MIDIMessage(status: 0xB0, data1: 8, data2: 0))
        XCTAssertEqual(engine.value(at: .stripGain(strip: 0)), -30, "CC 8 is, by the second preset's map")
        XCTAssertEqual(controller.map.controls.map(\.controller), [8])
    }
}
