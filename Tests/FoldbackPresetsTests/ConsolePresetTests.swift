// Bus units, effect buses, returns and compensation in preset files: decoding, errors at file:line:col, save round trip, rendering.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class ConsolePresetTests: XCTestCase {
    static let console = """
        [[bus]]
        name = "foh"
          [[bus.unit]]
          type = "eq"
          id = "tone"
          gain_db = -3
            [[bus.unit.band]]
            type = "notch"
            freq_hz = 2500
            q = 8
          [[bus.unit]]
          type = "gain"
          id = "trim"
          gain_db = -6
          bypass = true

        [[bus]]
        name = "verb"
        output = false
        limiter = false
          [[bus.unit]]
          type = "reverb"

        [[bus]]
        name = "iem"
        compensate = false
        limiter_ceiling_db = -6

        [[strip]]
        name = "vox"
          [[strip.send]]
          bus = "foh"
          [[strip.send]]
          bus = "verb"
          gain_db = -10

        [[strip]]
        name = "verb_ret"
        return = "verb"
        gain_db = -4
          [[strip.send]]
          bus = "foh"
          [[strip.send]]
          bus = "iem"
          gain_db = -12
        """

    func testBusUnitsEffectBusesAndReturnsLoad() throws {
        let preset = try PresetLoader.parse(Self.console, path: "test.toml")
        XCTAssertEqual(preset.buses[0].units.map(\.id), ["tone", "trim"])
        XCTAssertEqual(preset.buses[0].units[1].isBypassed, true)
        XCTAssertFalse(preset.buses[1].hasOutput)
        XCTAssertFalse(preset.buses[2].isCompensated)
        XCTAssertEqual(preset.strips[1].returnBus, "verb")
        XCTAssertEqual(preset.strips[1].channels, 2, "a return takes its bus's channel count")
        let layout = try PresetGraphBuilder.layout(for: preset)
        XCTAssertEqual(layout.inputPorts.map(\.name), ["vox_in"], "the return has no input ports")
        XCTAssertEqual(layout.outputPorts.map(\.name), ["foh_L", "foh_R", "iem_L", "iem_R"], "the effect bus has no output ports")
        XCTAssertEqual(Set(PresetGraphBuilder.connectionPlan(for: preset).keys), [])
        let report = PresetReport.render(preset)
        XCTAssertTrue(report.contains("1. tone  eq"), report)
        XCTAssertTrue(report.contains("[bypassed]"), report)
        XCTAssertTrue(report.contains("(stereo, effect bus)"), report)
        XCTAssertTrue(report.contains("<- bus verb (effect return: no input ports)"), report)
        XCTAssertTrue(report.contains("1 input port, 4 output ports"), report)
    }

    func testASaveReadsBackTheSameConsole() throws {
        let preset = try PresetLoader.parse(Self.console, path: "test.toml")
        let text = PresetWriter.text(for: preset)
        let again = try PresetLoader.parse(text, path: "saved.toml")
        XCTAssertEqual(PresetWriter.text(for: again), text, "writing is a fixed point")
        XCTAssertEqual(again.buses[0].units.map(\.id), ["tone", "trim"])
        XCTAssertEqual(again.buses[0].units[0].bands.map(\.band.frequency), [2500], "the eq's band stays with the bus unit")
        XCTAssertTrue(text.contains("[[bus.unit.band]]"), text)
        XCTAssertEqual(again.buses[0].units[1].parameters["gain_db"], -6)
        XCTAssertEqual(again.buses[0].units[1].isBypassed, true)
        XCTAssertFalse(again.buses[1].hasOutput)
        XCTAssertFalse(again.buses[2].isCompensated)
        XCTAssertEqual(again.strips[1].returnBus, "verb")
    }

    func testLiveBusValuesAreSavedIntoThePreset() throws {
        let preset = try PresetLoader.parse(Self.console, path: "test.toml")
        let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: 48000, maxFrames: 256)
        let trim = try XCTUnwrap(MIDITarget(parsing: "bus.foh.unit.trim.gain_db")?.address(in: preset, graph: graph))
        let bypass = try XCTUnwrap(MIDITarget(parsing: "bus.foh.unit.trim.bypass")?.address(in: preset, graph: graph))
        let ceiling = try XCTUnwrap(MIDITarget(parsing: "bus.iem.limiter_ceiling_db")?.address(in: preset, graph: graph))
        XCTAssertEqual(preset.value(at: trim, graph: graph), -6)
        XCTAssertEqual(preset.value(at: ceiling, graph: graph), -6)
        let (saved, skipped) = preset.applying([trim: -9, bypass: 0, ceiling: -2, .busLimiterRelease(bus: 2): 120], graph: graph)
        XCTAssertEqual(skipped, [])
        let again = try PresetLoader.parse(PresetWriter.text(for: saved), path: "saved.toml")
        XCTAssertEqual(again.buses[0].units[1].parameters["gain_db"], -9)
        XCTAssertEqual(again.buses[0].units[1].isBypassed, false)
        XCTAssertEqual(again.buses[2].limiter?.ceilingDB, -2)
        XCTAssertEqual(again.buses[2].limiter?.releaseMs, 120)
        if case .failure(let problem) = MIDITarget(parsing: "bus.foh.unit.nope.gain_db")!.info(in: preset) {
            XCTAssertTrue(problem.message.contains("no unit in bus 'foh' 'nope'"), problem.message)
        } else {
            XCTFail("an unknown bus unit is not a target")
        }
    }

    func testAReturnFeedingItsOwnBusIsALocatedSendLoop() {
        let text = """
            [[bus]]
            name = "main"

            [[bus]]
            name = "verb"
            output = false

            [[strip]]
            name = "vox_verb"
            return = "verb"
              [[strip.send]]
              bus = "main"
              [[strip.send]]
              bus = "verb"
            """
        assertSingleError(text, line: 10, column: 10, contains: ["send loop: vox_verb → verb → vox_verb"])
    }

    func testALoopThroughTwoReturnsNamesTheWholeCycle() {
        let text = """
            [[bus]]
            name = "a"
            output = false

            [[bus]]
            name = "b"
            output = false

            [[strip]]
            name = "a_ret"
            return = "a"
              [[strip.send]]
              bus = "b"

            [[strip]]
            name = "b_ret"
            return = "b"
              [[strip.send]]
              bus = "a"
            """
        assertSingleError(text, line: 11, column: 10, contains: ["send loop: a_ret → b → b_ret → a → a_ret"])
    }

    func testAReturnOfAnUnknownBusIsLocated() {
        let text = """
            [[bus]]
            name = "main"

            [[strip]]
            name = "ret"
            return = "mian"
              [[strip.send]]
              bus = "main"
            """
        assertSingleError(text, line: 6, column: 10, contains: ["return of unknown bus 'mian'", "did you mean 'main'"])
    }

    func testAnEffectBusCannotBeConnected() {
        let text = """
            [[bus]]
            name = "verb"
            output = false
            connect = [["system:playback_1"]]
            """ + "\n" + minimalBusAndStrip
        assertSingleError(text, line: 4, column: 1, contains: ["output = false", "remove 'connect'"])
    }

    func testAnUnknownBusUnitTypeIsLocated() {
        let text = """
            [[bus]]
            name = "main"
              [[bus.unit]]
              type = "compresor"

            [[strip]]
            name = "s"
              [[strip.send]]
              bus = "main"
            """
        assertSingleError(text, line: 4, column: 10, contains: ["unknown unit type 'compresor'", "did you mean 'compressor'"])
    }

    /// Rendered offline through the engine: the foh bus's eq (−3 dB output gain) and the return (−10 dB send,
    /// −4 dB fader, reverb at its default mix) reach foh; the iem bus hears only the return.
    func testABusEQUnitChangesTheRenderedBusByItsGain() throws {
        let text = """
            [[bus]]
            name = "main"
            channels = 1
            limiter = false
              [[bus.unit]]
              type = "eq"
              gain_db = -7.5

            [[strip]]
            name = "vox"
              [[strip.send]]
              bus = "main"
            """
        let preset = try PresetLoader.parse(text, path: "test.toml")
        for sampleRate in [44100.0, 48000, 96000] {
            let graph = try PresetGraphBuilder.graph(for: preset, sampleRate: sampleRate, maxFrames: 253)
            let engine = Engine(configuration: EngineConfiguration(maxFrames: 253))
            try engine.install(graph, crossfade: .none)
            let frames = 253 * 40
            let input = (0..<frames).map { 0.5 * Float(sin(2 * Double.pi * 1000 * Double($0) / sampleRate)) }
            var output = [Float](repeating: 0, count: frames)
            input.withUnsafeBufferPointer { source in
                output.withUnsafeMutableBufferPointer { destination in
                    for start in stride(from: 0, to: frames, by: 253) {
                        engine.io.pointee.inputs[0] = source.baseAddress! + start
                        engine.io.pointee.outputs[0] = destination.baseAddress! + start
                        engine.io.pointee.inputCount = 1
                        engine.io.pointee.outputCount = 1
                        engine.renderCycle(frames: 253)
                    }
                }
            }
            let peak = output[(frames / 2)...].map(abs).max() ?? 0
            XCTAssertEqual(Double(Decibels.decibels(fromLinearGain: peak / 0.5)), -7.5, accuracy: 0.05, "\(sampleRate) Hz")
        }
    }
}
