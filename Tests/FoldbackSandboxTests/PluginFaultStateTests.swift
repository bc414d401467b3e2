// A sandboxed plugin's `faulted` node (issue 34): read from its sandbox, kept bypassed after three faults, re-enabled with 0.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackGraph
import FoldbackLV2
import FoldbackPresets
import FoldbackSandbox
import FoldbackTestSupport
import Foundation
import Glibc
import XCTest

final class PluginFaultStateTests: XCTestCase {
    func testEachSandboxedPluginHasAFaultedNodeThatFollowsItsSandbox() throws {
        let sandboxed = try SandboxedPresetTests.vocalPreset(isolation: "strip")
        let tree = ParameterTree(preset: sandboxed)
        let faulted = tree.nodes.filter { $0.descriptor.key == ParameterTree.Key.faulted }
        XCTAssertEqual(faulted.map(\.path), ["strip/vox/unit/eq/faulted", "strip/vox/unit/comp/faulted", "strip/vox/unit/verb/faulted"])
        XCTAssertEqual(faulted.map(\.descriptor.type), [.toggle, .toggle, .toggle])
        XCTAssertTrue(ParameterTree(preset: try SandboxedPresetTests.vocalPreset(isolation: "none")).nodes.allSatisfy { $0.descriptor.key != ParameterTree.Key.faulted },
                      "a plugin in Foldback's own process has no fault state")

        let graph = try PresetGraphBuilder.graph(for: sandboxed, sampleRate: 48_000, maxFrames: 256, hosting: .live(period: 256))
        let comp = HostParameter.pluginFaulted(isBus: false, owner: 0, unit: 2)
        let unit = try XCTUnwrap(graph.description.strips[0].units[2] as? SandboxedUnit)
        XCTAssertEqual(tree.node(at: "strip/vox/unit/comp/faulted")?.address, .host(comp))
        try waitFor("comp's sandbox runs", timeout: 10) { unit.process?.phase == .running }
        XCTAssertEqual(graph.pluginFaultValue(comp), 0)
        XCTAssertNil(graph.pluginFaultValue(.pluginFaulted(isBus: false, owner: 0, unit: 0)), "the trim is no plugin")

        let pid = try XCTUnwrap(unit.process?.processIdentifier)
        let killed = Date()
        kill(pid, SIGSEGV)
        try waitFor("comp reads faulted", timeout: 2) { graph.pluginFaultValue(comp) == 1 }
        let noticed = Date().timeIntervalSince(killed)
        // isolation = "strip": comp shares its sandbox with eq and verb, so the crash faults the three of them.
        XCTAssertEqual(graph.faultedPluginsStatus, "FAULT vox/eq vox/comp vox/verb", "the status line names the group while it restarts")
        try waitFor("comp comes back", timeout: 2) { graph.pluginFaultValue(comp) == 0 }
        let back = Date().timeIntervalSince(killed)
        print("faulted read \(Int(noticed * 1000)) ms after SIGSEGV, 0 again \(Int(back * 1000)) ms after it")
        // The rule for a crash is the comeback: within 1 s. Seeing it takes Foundation's reaper thread noticing the
        // exit, then an `fb-sandbox` check (every 10 ms), then this test's poll: three normal-priority threads, each of which
        // a loaded machine's scheduler can delay by tens of ms (195 ms seen in CI), so no tighter bound is a product fact.
        XCTAssertLessThan(noticed, back, "faulted read before the comeback")
        XCTAssertLessThan(back, 1, "back within 1 s (faulted read after \(Int(noticed * 1000)) ms)")
        XCTAssertEqual(unit.process?.lastFault, "crashed: signal 11 (SIGSEGV)")
        XCTAssertNil(graph.faultedPluginsStatus)

        XCTAssertThrowsError(try graph.setPluginFault(comp, value: 1)) {
            XCTAssertEqual(($0 as? EngineError)?.description.contains(HostParameter.faultedIsReadOnly), true, "\($0)")
        }
        XCTAssertThrowsError(try graph.setPluginFault(.pluginFaulted(isBus: false, owner: 0, unit: 0), value: 0))
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 256))
        XCTAssertThrowsError(try engine.set(.host(comp), to: 0), "no show, no applier") {
            XCTAssertEqual(($0 as? EngineError)?.description.contains("running show"), true, "\($0)")
        }
    }

    /// fil4, live at 48 kHz / 256, driven cycle by cycle in real time: three crashes within a minute
    /// leave it bypassed (its input, bit for bit) until `reenable()`, after which it plays as a fresh plugin does.
    func testThreeFaultsLeaveThePluginBypassedUntilReenabled() throws {
        let uri = SandboxedUnitTests.fil4
        guard (try? LV2World.shared.plugin(uri: uri)) != nil else { throw XCTSkip("\(uri) is not installed (x42-plugins)") }
        let controls: [String: Float] = ["sec3": 1, "freq3": 3000, "gain3": 6]
        // The cycles at SCHED_FIFO as JACK's, the sandbox at the same priority as `foldback run` starts it, where allowed.
        let realtime = SandboxedUnitTests.enterRealtime()
        defer { SandboxedUnitTests.leaveRealtime() }
        let hosting = PluginHosting.live(period: 256, priority: realtime ? SandboxedUnitTests.priority : nil)
        let unit = SandboxedUnit(
            plugin: try LV2Unit(uri: uri, controls: controls, hosting: hosting), hosting: hosting, options: SandboxOptions(), owner: "strip 'vox'")
        let driver = SlotDriver(try unit.prepare(channels: 1, sampleRate: 48_000, maxFrames: 256), maxFrames: 256)
        let process = try XCTUnwrap(unit.process)
        let channel = process.channel
        var seed: UInt64 = 3
        let period = 256.0 / 48_000
        let start = Date()
        var cycle = 0
        var fallbackBlocks = 0
        var fallbackExact = 0
        /// One paced cycle of noise; returns the input, the output and whether the sandbox delivered it.
        func step() -> (input: [Float], output: [Float], delivered: Bool) {
            let input = (0..<256).map { _ -> Float in
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                return Float(Int32(truncatingIfNeeded: seed >> 33)) / Float(Int32.max) * 0.3
            }
            let before = channel.delivered
            let output = driver.run(input)[0]
            let delivered = channel.delivered > before
            if !delivered {
                fallbackBlocks += 1
                if output == input { fallbackExact += 1 }
            }
            cycle += 1
            let next = start.addingTimeInterval(Double(cycle) * period)
            if next > Date() { Thread.sleep(until: next) }
            return (input, output, delivered)
        }
        func run(until condition: () -> Bool, within seconds: Double, _ what: String) throws -> Double {
            let from = Date()
            while !condition() {
                guard Date().timeIntervalSince(from) < seconds else { throw CycleTimeout(what: what, seconds: seconds) }
                _ = step()
            }
            return Date().timeIntervalSince(from)
        }
        _ = try run(until: { process.phase == .running && channel.delivered > 20 }, within: 10, "the sandbox plays")
        var comebacks: [Double] = []
        for fault in 1...3 {
            let pid = try XCTUnwrap(process.processIdentifier)
            kill(pid, SIGSEGV)
            if fault < 3 {
                comebacks.append(try run(until: { process.restarts == fault && process.phase == .running && !unit.isFaulted }, within: 2, "back after fault \(fault)"))
            } else {
                _ = try run(until: { process.phase == .faulted }, within: 2, "left bypassed after the third fault")
            }
        }
        XCTAssertTrue(unit.isFaulted)
        // Half a second left bypassed: every block is its input, bit for bit, and no block reaches the sandbox.
        let delivered = channel.delivered
        fallbackBlocks = 0
        fallbackExact = 0
        for _ in 0..<94 { _ = step() }
        XCTAssertEqual(channel.delivered, delivered)
        XCTAssertEqual(fallbackBlocks, 94)
        XCTAssertEqual(fallbackExact, 94, "on_fault = bypass passes the input through bit for bit")
        XCTAssertEqual(process.phase, .faulted, "still bypassed after 0.5 s")

        // Re-enabled: back within 1 s, then (past the 20 ms fade) as loud as the same plugin in Foldback's own process.
        XCTAssertTrue(unit.reenable())
        XCTAssertFalse(unit.reenable(), "already restarting")
        let back = try run(until: { process.phase == .running && !unit.isFaulted }, within: 2, "back after re-enabling")
        let local = try LV2Unit(uri: uri, controls: controls, hosting: .offline(block: 256))
        let reference = SlotDriver(try local.prepare(channels: 1, sampleRate: 48_000, maxFrames: 256), maxFrames: 256)
        var sandboxEnergy: Float = 0, localEnergy: Float = 0, inputEnergy: Float = 0
        // 96 blocks in a row that the sandbox delivered, after 20 more (the fade back in, 960 frames, and the plugin
        // settling): a late block on a loaded machine is its input passed through, and the plugin skips the block after
        // it (its sandbox still busy), so its filters' history parts from the reference's until they ring out. A gap
        // starts the measurement again (counted, and bounded: 3,000 blocks, 16 s).
        var played = 0, inARow = 0, gaps = 0, blocks = 0
        while played < 96 {
            let (input, output, wasDelivered) = step()
            let expected = reference.run(input)[0]
            blocks += 1
            guard blocks < 3_000 else { throw CycleTimeout(what: "96 delivered blocks in a row (\(gaps) gaps)", seconds: 16) }
            guard wasDelivered else {
                if inARow > 0 { gaps += 1 }
                (played, inARow, sandboxEnergy, localEnergy, inputEnergy) = (0, 0, 0, 0, 0)
                continue
            }
            inARow += 1
            if inARow <= 20 { continue }
            played += 1
            sandboxEnergy += output.reduce(0) { $0 + $1 * $1 }
            localEnergy += expected.reduce(0) { $0 + $1 * $1 }
            inputEnergy += input.reduce(0) { $0 + $1 * $1 }
        }
        let gainDB = 10 * log10(sandboxEnergy / inputEnergy), expectedDB = 10 * log10(localEnergy / inputEnergy)
        print("fil4 sandbox: back \(comebacks.map { Int($0 * 1000) }) ms after two crashes; left bypassed after the third; "
              + "back \(Int(back * 1000)) ms after re-enabling; gain \(gainDB) dB (in process \(expectedDB) dB; \(gaps) late blocks restarted the measurement)"
              + (realtime ? "" : " (no SCHED_FIFO)"))
        XCTAssertEqual(comebacks.count, 2)
        XCTAssertLessThan(comebacks.max() ?? 9, 1, "each one-off crash: back within 1 s")
        XCTAssertLessThan(back, 1, "back within 1 s of re-enabling")
        XCTAssertEqual(gainDB, expectedDB, accuracy: 0.1, "as the same plugin in Foldback's own process")
        XCTAssertEqual(process.restarts, 3)
    }
}

/// Cycles run for `seconds` without `what` happening.
private struct CycleTimeout: Error, CustomStringConvertible {
    let what: String
    let seconds: Double
    var description: String { "\(seconds) s of cycles without \(what)" }
}

