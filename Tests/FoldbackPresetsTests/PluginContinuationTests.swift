// A preset switch keeps unchanged LV2 plugins running in Foldback's own process (`isolation = "none"`; sandboxes: SandboxedStateTests): a plate reverb's tail carries on across the swap. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackLV2
import XCTest
@testable import FoldbackPresets
import FoldbackGraph

final class PluginContinuationTests: XCTestCase {
    static let plate = "http://plugin.org.uk/swh-plugins/plate"
    static let sampleRate = 48000.0
    static let block = 256
    /// The switch happens before this cycle: 40 × 256 frames ≈ 213 ms, while the plate's tail rings.
    static let switchCycle = 40
    static let frames = 48000
    /// The engine's live switch fade is 30 ms equal power; equal gain here makes the continued strip's
    /// two graph copies (the same instance's output) sum to exactly the no-switch signal.
    static let fade = Crossfade(duration: 0.030, law: .equalGain)

    /// Mono strip `vox` through swh plate (mono in, stereo out) into stereo bus `main`; mono strip `keys` into `aux`.
    static func preset(uri: String = plate, wet: Float = 0.3, keysGainDB: Float = 0) throws -> Preset {
        try PresetLoader.parse("""
            [[bus]]
            name = "main"
            channels = 2
            limiter = false
            [[bus]]
            name = "aux"
            limiter = false

            [[strip]]
            name = "vox"
              [[strip.unit]]
              type = "lv2"
              id = "fx"
              uri = "\(uri)"
              isolation = "none"
              \(uri == plate ? "controls = { time = 3, damping = 0.3, wet = \(wet) }" : "")
              [[strip.send]]
              bus = "main"

            [[strip]]
            name = "keys"
            gain_db = \(keysGainDB)
              [[strip.send]]
              bus = "aux"
            """, path: "test.toml")
    }

    /// `vox` gets a 50 ms noise burst, then silence (so what follows is the plate's tail); `keys` a 440 Hz sine.
    static let inputs: [[Float]] = {
        var seed: UInt32 = 12345
        let burst = (0..<frames).map { frame -> Float in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return frame < 2400 ? (Float(seed >> 8) / Float(1 << 24) - 0.5) * 0.2 : 0
        }
        let sine = (0..<frames).map { Float(0.1 * sin(2 * Double.pi * 440 * Double($0) / sampleRate)) }
        return [burst, sine]
    }()

    /// Renders the inputs through an engine running `preset`; `atSwitch(engine)` runs before cycle
    /// ``switchCycle``. Returns the three outputs (main L, main R, aux).
    static func render(_ preset: Preset, atSwitch: (Engine) throws -> Void) throws -> [[Float]] {
        let engine = Engine(configuration: EngineConfiguration(maxFrames: block))
        try engine.install(PresetGraphBuilder.graph(for: preset, sampleRate: sampleRate, maxFrames: block), crossfade: .none)
        var outputs = [[Float]](repeating: [Float](repeating: 0, count: frames), count: 3)
        let inputBuffers = inputs.map { UnsafeMutablePointer(mutating: $0.withUnsafeBufferPointer { $0.baseAddress! }) }
        let scratch = (0..<3).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        defer { scratch.forEach { $0.deallocate() } }
        for cycle in 0..<(frames / block) {
            if cycle == switchCycle { try atSwitch(engine) }
            let start = cycle * block
            for channel in 0..<2 { engine.io.pointee.inputs[channel] = UnsafePointer(inputBuffers[channel] + start) }
            for channel in 0..<3 { engine.io.pointee.outputs[channel] = scratch[channel] }
            engine.io.pointee.inputCount = 2
            engine.io.pointee.outputCount = 3
            engine.renderCycle(frames: block)
            for channel in 0..<3 {
                for frame in 0..<block { outputs[channel][start + frame] = scratch[channel][frame] }
            }
            engine.collectGarbage()
        }
        return outputs
    }

    /// What a switch left for the test to check: the old graph (weakly: the engine frees it after the fade),
    /// its plate's instances, and the new graph.
    final class Switch {
        weak var old: EngineGraph?
        var oldInstances: [ObjectIdentifier] = []
        var new: EngineGraph?
    }

    /// Switches `engine` to `preset`, continuing the running graph's plugins when `continuing`.
    static func switchTo(_ preset: Preset, in engine: Engine, continuing: Bool = true) throws -> Switch {
        let old = try XCTUnwrap(engine.runningGraph)
        let new = try PresetGraphBuilder.graph(
            for: preset, sampleRate: sampleRate, maxFrames: block, continuing: continuing ? old : nil)
        try engine.install(new, crossfade: fade)
        let result = Switch()
        result.old = old
        result.oldInstances = try plateUnit(of: old).instanceIdentifiers
        result.new = new
        return result
    }

    static func plateUnit(of graph: EngineGraph) throws -> LV2Unit {
        try XCTUnwrap(graph.description.strips[0].units[0] as? LV2Unit)
    }

    static func maxDifference(_ a: [Float], _ b: [Float], _ range: Range<Int>) -> Float {
        range.map { abs(a[$0] - b[$0]) }.max() ?? 0
    }

    static func rms(_ signal: [Float], _ range: Range<Int>) -> Float {
        (range.reduce(Float(0)) { $0 + signal[$1] * signal[$1] } / Float(range.count)).squareRoot()
    }

    /// After the switch (a 300 ms window from 250 ms on, well into the tail).
    static let tail = 12000..<26400

    /// Only another strip's fader changes: the plate keeps its instance, and `main` (its tail) matches the
    /// run without a switch to 1e-5 at every frame, while `aux` takes the new fader (−10 dB to 0.05 dB).
    /// The old graph is freed after the fade without taking the instance with it. The same switch without
    /// continuation restarts the reverb: its tail is lost (proves the measure).
    func testTailCarriesOnWhenAnotherStripsFaderChanges() throws {
        let reference = try Self.render(try Self.preset()) { _ in }
        var done: Switch?
        let switched = try Self.render(try Self.preset()) { engine in
            done = try Self.switchTo(try Self.preset(keysGainDB: -10), in: engine)
        }
        let result = try XCTUnwrap(done), new = try XCTUnwrap(result.new)
        XCTAssertEqual(new.continuedUnits.map { "\($0.strip)/\($0.unit)" }, ["vox/fx"])
        XCTAssertEqual(try Self.plateUnit(of: new).instanceIdentifiers, result.oldInstances)
        XCTAssertNil(result.old, "the old graph was freed during the render while its plate played on in the new one")
        XCTAssertGreaterThan(Self.rms(reference[0], Self.tail), 1e-3, "the plate's tail rings after the switch")
        for channel in 0..<2 {
            XCTAssertLessThan(Self.maxDifference(switched[channel], reference[channel], 0..<Self.frames), 1e-5, "main \(channel)")
        }
        let auxBefore = Self.rms(switched[2], 4800..<9600), auxAfter = Self.rms(switched[2], Self.tail)
        XCTAssertEqual(20 * log10(auxAfter / auxBefore), -10, accuracy: 0.05)

        let restarted = try Self.render(try Self.preset()) { engine in
            _ = try Self.switchTo(try Self.preset(keysGainDB: -10), in: engine, continuing: false)
        }
        XCTAssertLessThan(Self.rms(restarted[0], Self.tail), 0.1 * Self.rms(reference[0], Self.tail), "a fresh plate has no tail")
    }

    /// Only the plate's own `wet` changes (0.3 → 0.6): it keeps its instance and takes the new value as a
    /// parameter change at the swap, exactly as a live change at the same cycle does (1e-5 at every frame).
    func testTailCarriesOnWhenThePluginsControlChanges() throws {
        let unchanged = try Self.render(try Self.preset()) { _ in }
        let reference = try Self.render(try Self.preset()) { engine in
            let wet = try XCTUnwrap(engine.graph?.description.strips[0].units[0].parameters.firstIndex { $0.key == "wet" })
            try engine.set(.unitParameter(strip: 0, unit: 0, parameter: wet), to: 0.6)
        }
        var done: Switch?
        let switched = try Self.render(try Self.preset()) { engine in
            done = try Self.switchTo(try Self.preset(wet: 0.6), in: engine)
        }
        let result = try XCTUnwrap(done), new = try XCTUnwrap(result.new)
        XCTAssertEqual(try Self.plateUnit(of: new).instanceIdentifiers, result.oldInstances)
        XCTAssertEqual(try Self.plateUnit(of: new).controlValue("wet"), 0.6)
        XCTAssertGreaterThan(Self.maxDifference(reference[0], unchanged[0], Self.tail), 1e-3, "the wet change is audible")
        for channel in 0..<2 {
            XCTAssertLessThan(Self.maxDifference(switched[channel], reference[channel], 0..<Self.frames), 1e-5, "main \(channel)")
        }
    }

    /// A different plugin under the same id, or the same plugin at another sample rate, gets a fresh instance.
    func testAChangedURIOrRateStartsAFreshInstance() throws {
        let engine = Engine(configuration: EngineConfiguration(maxFrames: Self.block))
        let running = try PresetGraphBuilder.graph(for: try Self.preset(), sampleRate: Self.sampleRate, maxFrames: Self.block)
        try engine.install(running, crossfade: .none)
        engine.renderCycle(frames: Self.block)
        XCTAssertTrue(engine.runningGraph === running)
        let amp = try PresetGraphBuilder.graph(
            for: try Self.preset(uri: "http://plugin.org.uk/swh-plugins/amp"), sampleRate: Self.sampleRate, maxFrames: Self.block,
            continuing: running)
        XCTAssertTrue(amp.continuedUnits.isEmpty)
        XCTAssertNotEqual(try XCTUnwrap(amp.description.strips[0].units[0] as? LV2Unit).instanceIdentifiers, try Self.plateUnit(of: running).instanceIdentifiers)
        let rate = try PresetGraphBuilder.graph(for: try Self.preset(), sampleRate: 44100, maxFrames: Self.block, continuing: running)
        XCTAssertTrue(rate.continuedUnits.isEmpty)
        XCTAssertNotEqual(try Self.plateUnit(of: rate).instanceIdentifiers, try Self.plateUnit(of: running).instanceIdentifiers)
    }

    /// A graph continuing plugins installs only while its predecessor is the running graph: once another
    /// graph was installed after it, the engine refuses (the instance would run in two graphs).
    func testContinuingAGraphThatNoLongerRunsIsRefused() throws {
        let engine = Engine(configuration: EngineConfiguration(maxFrames: Self.block))
        let running = try PresetGraphBuilder.graph(for: try Self.preset(), sampleRate: Self.sampleRate, maxFrames: Self.block)
        try engine.install(running, crossfade: .none)
        engine.renderCycle(frames: Self.block)
        let continuing = try PresetGraphBuilder.graph(
            for: try Self.preset(keysGainDB: -3), sampleRate: Self.sampleRate, maxFrames: Self.block, continuing: running)
        XCTAssertEqual(continuing.continuedUnits.count, 1)
        try engine.install(PresetGraphBuilder.graph(for: try Self.preset(), sampleRate: Self.sampleRate, maxFrames: Self.block))
        XCTAssertNil(engine.runningGraph, "a swap is pending")
        XCTAssertThrowsError(try engine.install(continuing)) { XCTAssertEqual($0 as? EngineError, .predecessorNotRunning) }
    }
}
