// Issue 24's first test: every parameter of two shipped presets (and a show's host-side ones) set through OSC, a MIDI map, the engineer's web socket and a save/reload, read back from the engine. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine
import FoldbackGraph
import FoldbackPresets
import FoldbackTestSupport
@testable import FoldbackWeb
import Foundation
import Synchronization
import XCTest

/// Host-side settings as a live show keeps them (file sources' stretchers, the take's input switches), recorded.
private final class RecordedHostSettings: HostParameterApplier, @unchecked Sendable {
    private let values = Mutex<[HostParameter: Float]>([:])
    func apply(_ parameter: HostParameter, value: Float) throws(EngineError) { values.withLock { $0[parameter] = value } }
    func value(of parameter: HostParameter) -> Float? { values.withLock { $0[parameter] } }
}

/// A preset file playing on an offline engine (no JACK); saving writes it with every live value, as `preset/save` does.
private final class PresetFileTarget: LiveControlTarget, @unchecked Sendable {
    let engine = Engine(configuration: EngineConfiguration(maxFrames: 256))
    let currentPreset: Preset
    let host = RecordedHostSettings()

    init(path: String) throws {
        currentPreset = try PresetLoader.load(path: path)
        try engine.install(PresetGraphBuilder.graph(for: currentPreset, sampleRate: 48000, maxFrames: 256), crossfade: .none)
        engine.setHostApplier(host)
    }

    func switchPreset(toPath path: String) throws(ControlError) -> String { throw .failed("no preset switches in this test") }

    func saveChain(toPath path: String) throws(ControlError) -> String {
        guard let graph = engine.graph else { throw .failed("no graph") }
        let saved = currentPreset.applying(engine.changedValues, graph: graph).preset
        do { try PresetWriter.write(saved, to: path) } catch { throw .failed("\(error)") }
        return "wrote \(path)"
    }

    /// The live value of `node` (the preset's until set), as every surface reads it.
    func value(_ node: ParameterNode) -> Float {
        engine.value(at: node.address) ?? node.presetValue
    }
}

final class ParameterTreeSurfacesTests: XCTestCase {
    private static let presets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("presets")

    func testEveryParameterOfTheMonitorConsoleSetsAlikeOnEverySurface() throws {
        try walk("monitor-console.toml")
    }

    /// A binaural in-ear bus: the sends' positions (azimuth, elevation, distance) set alike over OSC, MIDI, the web
    /// socket and a save.
    func testEveryParameterOfTheBinauralIEMSetsAlikeOnEverySurface() throws {
        try walk("binaural-iem.toml")
    }

    func testEveryParameterOfTheLV2VocalSetsAlikeOnEverySurface() throws {
        let path = Self.presets.appendingPathComponent("lv2-vocal.toml").path
        do { _ = try PresetFileTarget(path: path) } catch { throw XCTSkip("lv2-vocal.toml needs x42-plugins and swh-lv2: \(error)") }
        try walk("lv2-vocal.toml")
    }

    /// Host-side nodes (a file source's tempo and key, the take's input switches) set like any other, and a
    /// live tempo or key move saved into the source.
    func testHostSideParametersSetAlikeOnEverySurface() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tree-host-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("backing.wav"))   // the loader asks only that it exists (absolute: saved elsewhere)
        let show = folder.appendingPathComponent("host.toml")
        try """
            [[bus]]
            name = "main"
            [[strip]]
            name = "backing"
            source = { file = "\(folder.path)/backing.wav", tempo = 0.9, pitch_semitones = -2 }
            send = [{ bus = "main" }]
            [[strip]]
            name = "vox"
            send = [{ bus = "main" }]
            """.write(to: show, atomically: true, encoding: .utf8)
        let tree = try XCTUnwrap(ControlRouter(target: try PresetFileTarget(path: show.path)).parameterTree)
        XCTAssertEqual(tree.nodes.filter(\.isHostSide).map(\.path), [
            "strip/backing/source/tempo", "strip/backing/source/pitch_semitones", "strip/backing/source/cents", "strip/vox/input", "soundcheck/input",
        ])
        XCTAssertEqual(tree.node(at: "strip/backing/source/tempo")?.presetValue, 0.9)
        XCTAssertEqual(tree.node(at: "strip/vox/input")?.descriptor.choices.map(\.name), ["live", "take"])
        try walk(path: show.path, minimumNodes: 10)
    }

    /// The parameters each surface sets: every one but presses (`cue/clear`).
    private func settable(_ tree: ParameterTree) -> [ParameterNode] {
        tree.nodes.filter { $0.descriptor.type != .trigger }
    }

    private func walk(_ file: String) throws {
        try walk(path: Self.presets.appendingPathComponent(file).path, minimumNodes: 20)
    }

    private func walk(path: String, minimumNodes: Int) throws {
        let file = URL(fileURLWithPath: path).lastPathComponent
        let target = try PresetFileTarget(path: path)
        let router = ControlRouter(target: target)
        let tree = try XCTUnwrap(router.parameterTree)
        let nodes = settable(tree)
        XCTAssertGreaterThan(nodes.count, minimumNodes, "\(file): a real show has many parameters")
        XCTAssertTrue(nodes.allSatisfy { tree.node(for: $0.address)?.path == $0.path }, "one node per engine address")
        try throughOSC(nodes, router: router, target: target, round: 0)
        try throughMIDI(nodes, target: target, file: file)
        try throughWebSocket(nodes, router: router, target: target)
        try throughSaveAndReload(nodes, router: router, target: target, file: file)
    }

    // MARK: The surfaces

    private func throughOSC(_ nodes: [ParameterNode], router: ControlRouter, target: PresetFileTarget, round: Int) throws {
        for node in nodes {
            let value = Self.testValue(node, round: round)
            XCTAssertEqual(router.handle(Self.oscSet(node, value), from: Self.peer), [], "OSC \(node.path) = \(value)")
            XCTAssertEqual(target.value(node), value, accuracy: node.descriptor.resolution, "OSC \(node.path)")
            guard let bad = Self.outOfRange(node) else { continue }
            let before = target.engine.changedValues
            XCTAssertEqual(router.handle(Self.oscSet(node, bad), from: Self.peer).first?.path, OSCServer.errorPath, "OSC \(node.path) = \(bad)")
            XCTAssertEqual(target.engine.changedValues, before, "OSC \(node.path) = \(bad) changed nothing")
        }
    }

    private func throughMIDI(_ nodes: [ParameterNode], target: PresetFileTarget, file: String) throws {
        var preset = target.currentPreset
        var controls: [(ParameterNode, MIDIControlSpec)] = []
        for (index, node) in nodes.enumerated() {
            let midiTarget = try XCTUnwrap(MIDITarget(parsing: node.dottedPath), node.dottedPath)
            let info = try midiTarget.info(in: preset).get()
            let ends = Self.testEnds(node)
            let control = MIDIControlSpec(
                channel: 1 + index / 128, controller: index % 128, target: midiTarget,
                minimum: info.isSwitch ? 0 : ends.lowerBound, maximum: info.isSwitch ? 1 : ends.upperBound)
            preset.midi.bind(control)
            controls.append((node, control))
        }
        let midi = MIDIController(preset: preset, engine: target.engine)
        for (node, control) in controls {
            let info = try control.target.info(in: preset).get()
            // Switches follow the controller's half; other parameters land where the mapping puts controller value 90.
            let isOn = target.value(node) < 0.5
            let controllerValue = info.isSwitch ? (isOn ? 127 : 0) : 90
            let expected = info.isSwitch ? (isOn ? 1 : 0) : info.stepped(control.parameterValue(forControllerValue: controllerValue))
            midi.handle(.controlChange(channel: control.channel, controller: control.controller, value: controllerValue))
            XCTAssertEqual(target.value(node), expected, accuracy: node.descriptor.resolution, "MIDI \(control.target)")
        }
        // A map reaching past a parameter's range is refused when the preset loads, naming the file, line and target.
        let text = try String(contentsOfFile: target.currentPreset.path, encoding: .utf8)
        let bad = nodes.compactMap { node in Self.outOfRange(node).map { (node, $0) } }
        let entries = bad.enumerated().map { index, entry in
            "\n[[midi.cc]]\nchannel = \(1 + index / 128)\ncc = \(index % 128)\ntarget = \"\(entry.0.dottedPath)\"\nmin = \(Self.testValue(entry.0, round: 0))\nmax = \(entry.1)\n"
        }
        XCTAssertThrowsError(try PresetLoader.parse(text + entries.joined(), path: target.currentPreset.path)) { error in
            let lines = "\(error)".split(separator: "\n")
            let messages = lines.filter { $0.contains("error:") && $0.contains("'max'") }
            // The loader shows the first errors and counts the rest ("too many errors; 42 more not shown").
            let unshown = lines.compactMap { line in line.range(of: "too many errors; ").flatMap { Int(line[$0.upperBound...].prefix { $0.isNumber }) } }.first ?? 0
            XCTAssertEqual(messages.count + unshown, bad.count, "\(file): every out-of-range mapping refused with file:line; also: \(lines.filter { !$0.contains("'max'") }.prefix(3))")
        }
    }

    private func throughWebSocket(_ nodes: [ParameterNode], router: ControlRouter, target: PresetFileTarget) throws {
        let access = try XCTUnwrap(WebAccess(engineerToken: "engineer-0123456789", busTokens: []))
        let server = try WebServer(target: target, router: router, setlist: nil, access: access, host: "127.0.0.1", port: 0, status: { (0, 0) })
        try server.start()
        defer { server.stop() }
        let page = try WebSocketTestClient(port: server.port, token: access.engineerToken)
        let tree = try page.expect("tree")
        let carried = (tree["parameters"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
        XCTAssertEqual(carried, router.parameterTree?.nodes.map(\.path), "the page is sent the tree")
        let state = try page.expect("state")
        XCTAssertEqual((state["values"] as? [Any])?.count, carried.count, "and the state a value per node")
        XCTAssertEqual(state["tree"] as? Int, tree["version"] as? Int)
        for node in nodes {
            let value = Self.testValue(node, round: 2)
            page.send(#"{"path":"/foldback/\#(node.path)","value":\#(value)}"#)
            try waitFor("web \(node.path) = \(value)", timeout: 5) { abs(target.value(node) - value) <= node.descriptor.resolution }
            guard let bad = Self.outOfRange(node) else { continue }
            page.send(#"{"path":"/foldback/\#(node.path)","value":\#(bad)}"#)
            XCTAssertNotNil(page.next("error", timeout: 5), "web \(node.path) = \(bad) refused")
            XCTAssertEqual(target.value(node), value, accuracy: node.descriptor.resolution, "web \(node.path) = \(bad) changed nothing")
        }
    }

    private func throughSaveAndReload(_ nodes: [ParameterNode], router: ControlRouter, target: PresetFileTarget, file: String) throws {
        let kept = nodes.filter(Self.isKeptByPresets)
        try throughOSC(kept, router: router, target: target, round: 3)
        for node in nodes where Self.strip(of: node.address) != nil {
            try target.engine.set(node.address, to: 0)   // compensation folds into the send levels when saved
        }
        let saved = FileManager.default.temporaryDirectory.appendingPathComponent("tree-\(UUID().uuidString)-\(file)").path
        defer { try? FileManager.default.removeItem(atPath: saved) }
        _ = try target.saveChain(toPath: saved)   // what /foldback/preset/save runs (which only writes into the preset's folder)
        let reloaded = try PresetFileTarget(path: saved)
        let tree = ParameterTree(preset: reloaded.currentPreset, graph: try XCTUnwrap(reloaded.engine.graph))
        for node in kept {
            let found = try XCTUnwrap(tree.node(at: node.path), "\(node.path) after reload")
            XCTAssertEqual(reloaded.value(found), Self.testValue(node, round: 3), accuracy: node.descriptor.resolution, "saved and reloaded \(node.path)")
        }
        // A value past a parameter's range in a preset file is refused when it loads. (A file holds a switch as
        // true/false and a choice by its name, so only numbers can be written out of range.)
        let graph = try XCTUnwrap(target.engine.graph)
        for node in kept where node.descriptor.type == .number || node.descriptor.type == .integer {
            guard let bad = Self.outOfRange(node) else { continue }
            let broken = target.currentPreset.applying([node.address: bad], graph: graph).preset
            // A send's position is kept as a position, which holds itself to its ranges: nothing out of range to write.
            guard ParameterTree(preset: broken).node(at: node.path)?.presetValue == bad else { continue }
            let file = saved + ".bad.toml"
            try PresetWriter.write(broken, to: file)
            defer { try? FileManager.default.removeItem(atPath: file) }
            XCTAssertThrowsError(try PresetLoader.load(path: file), "a preset with \(node.path) = \(bad)")
        }
    }

    // MARK: Values

    private static let peer = OSCPeer(host: "127.0.0.1", port: 9)!

    private static func oscSet(_ node: ParameterNode, _ value: Float) -> OSCMessage {
        OSCMessage("/foldback/" + node.path, [node.isSwitch ? .int(Int32(value)) : .float(value)])
    }

    /// The span a test moves a number in: the range, a level's from −60 dB, a plugin's unbounded one ±100.
    private static func testEnds(_ node: ParameterNode) -> ClosedRange<Float> {
        let range = node.range
        let high = range.upperBound > 1e6 ? 100 : range.upperBound
        let low = range.lowerBound.isFinite ? (range.lowerBound < -1e6 ? -100 : range.lowerBound) : high - 60
        return low...high
    }

    /// The value round `round` sets: inside the range away from both ends, different each round; a switch flips.
    private static func testValue(_ node: ParameterNode, round: Int) -> Float {
        let descriptor = node.descriptor
        switch descriptor.type {
        case .toggle, .trigger:
            let start: Float = node.presetValue >= 0.5 ? 0 : 1
            return round % 2 == 0 ? start : 1 - start
        case .choice:
            let values = descriptor.choices.map(\.value)
            let index = values.firstIndex(of: node.presetValue) ?? 0
            return values[(index + 1 + round) % values.count]
        case .number, .integer:
            let ends = testEnds(node), fraction: Float = [0.2, 0.45, 0.7, 0.35][round % 4]
            let value = ends.lowerBound + (ends.upperBound - ends.lowerBound) * fraction
            return descriptor.type == .integer ? value.rounded() : value
        }
    }

    /// A value the parameter refuses, or nil when it takes any (an unbounded plugin control).
    private static func outOfRange(_ node: ParameterNode) -> Float? {
        let range = node.range
        guard range.upperBound < 1e6 else { return nil }
        switch node.descriptor.type {
        case .toggle, .trigger: return 2
        case .choice: return (node.descriptor.choices.map(\.value).max() ?? 0) + 1
        case .number, .integer: return range.upperBound + max(1, (range.upperBound - range.lowerBound).isFinite ? (range.upperBound - range.lowerBound) / 2 : 1)
        }
    }

    /// Whether a preset file holds the parameter: presses, cue selections and trim compensation are live only.
    private static func isKeptByPresets(_ node: ParameterNode) -> Bool {
        switch node.address {
        case .talkback, .cueBus, .cuePFL, .cueAFL, .cueClear, .stripTrimCompensation: return false
        case let .host(parameter): return !parameter.isInputSwitch
        default: return true
        }
    }

    private static func strip(of address: ParameterAddress) -> Int? {
        if case let .stripTrimCompensation(strip) = address { return strip }
        return nil
    }
}
