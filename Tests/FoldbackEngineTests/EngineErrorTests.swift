// Typed errors: graphs the engine cannot build, parameter changes it refuses, bad installs — and that nothing playing is disturbed.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import XCTest

final class EngineErrorTests: XCTestCase {
    /// The error `body` throws, or a failure when it throws none.
    private func engineError(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> EngineError? {
        do {
            try body()
            XCTFail("expected an EngineError", file: file, line: line)
            return nil
        } catch let error as EngineError {
            return error
        } catch {
            XCTFail("expected an EngineError, got \(error)", file: file, line: line)
            return nil
        }
    }

    private func mono(_ name: String = "vox", channels: Int = 1, sends: [SendDescription] = [SendDescription(bus: 0)]) -> StripDescription {
        StripDescription(name: name, channels: channels, sends: sends)
    }

    // MARK: Building graphs

    func testGraphRejectsAThreeChannelStrip() {
        let description = GraphDescription(strips: [mono("choir", channels: 3)], buses: [BusDescription(name: "main", channels: 2)])
        let error = engineError { _ = try EngineGraph(description, sampleRate: 48000, maxFrames: 256) }
        XCTAssertEqual(error, .unsupportedChannelCount(name: "choir", channels: 3))
        XCTAssertTrue(error.map(String.init(describing:))?.contains("'choir' has 3 channels") ?? false, "the message names the strip and the count")
    }

    func testGraphRejectsThreeChannelAndZeroChannelBusesAndStrips() {
        for channels in [0, 3, -1] {
            let bus = GraphDescription(strips: [], buses: [BusDescription(name: "surround", channels: channels)])
            XCTAssertEqual(engineError { _ = try EngineGraph(bus, sampleRate: 48000, maxFrames: 256) },
                           .unsupportedChannelCount(name: "surround", channels: channels))
            let strip = GraphDescription(strips: [mono("odd", channels: channels)], buses: [BusDescription(name: "main", channels: 1)])
            XCTAssertEqual(engineError { _ = try EngineGraph(strip, sampleRate: 48000, maxFrames: 256) },
                           .unsupportedChannelCount(name: "odd", channels: channels))
        }
    }

    func testGraphRejectsASendToAMissingBus() {
        let description = GraphDescription(
            strips: [mono("vox", sends: [SendDescription(bus: 0), SendDescription(bus: 2)])],
            buses: [BusDescription(name: "main", channels: 2), BusDescription(name: "ears", channels: 2)])
        let error = engineError { _ = try EngineGraph(description, sampleRate: 48000, maxFrames: 256) }
        XCTAssertEqual(error, .unknownBus(strip: "vox", bus: 2))
        XCTAssertTrue(error.map(String.init(describing:))?.contains("bus #2") ?? false)
        let negative = GraphDescription(strips: [mono(sends: [SendDescription(bus: -1)])], buses: [BusDescription(name: "main", channels: 1)])
        XCTAssertEqual(engineError { _ = try EngineGraph(negative, sampleRate: 48000, maxFrames: 256) }, .unknownBus(strip: "vox", bus: -1))
    }

    func testGraphRejectsImpossibleFormats() {
        let description = GraphDescription(strips: [mono()], buses: [BusDescription(name: "main", channels: 1)])
        for (sampleRate, maxFrames) in [(48000.0, 0), (48000, -64), (48000, EngineGraph.maxFramesLimit + 1), (0, 256), (.nan, 256), (1e9, 256)] {
            let error = engineError { _ = try EngineGraph(description, sampleRate: sampleRate, maxFrames: maxFrames) }
            guard case let .invalidFormat(reportedRate, reportedFrames)? = error else {
                XCTFail("\(sampleRate) Hz / \(maxFrames) frames: expected invalidFormat, got \(String(describing: error))")
                continue
            }
            XCTAssertTrue(reportedRate == sampleRate || (reportedRate.isNaN && sampleRate.isNaN))
            XCTAssertEqual(reportedFrames, maxFrames)
        }
        XCTAssertNoThrow(try EngineGraph(description, sampleRate: 48000, maxFrames: EngineGraph.maxFramesLimit))
        XCTAssertNoThrow(try EngineGraph(GraphDescription(strips: [mono()], buses: [BusDescription(name: "main", channels: 1)]),
                                         sampleRate: 8000, maxFrames: 1))
    }

    func testAUnitCannotBeSharedBetweenGraphs() throws {
        let unit = GainUnit(gainDB: -3)
        let description = GraphDescription(strips: [StripDescription(name: "vox", channels: 1, units: [unit], unitIDs: ["trim"],
                                                                    sends: [SendDescription(bus: 0)])],
                                           buses: [BusDescription(name: "main", channels: 1)])
        _ = try EngineGraph(description, sampleRate: 48000, maxFrames: 256)
        guard case .unitSetupFailed(let name, _)? = engineError({ _ = try EngineGraph(description, sampleRate: 48000, maxFrames: 256) }) else {
            return XCTFail("reusing a prepared unit must fail")
        }
        XCTAssertEqual(name, "gain")
    }

    // MARK: Installing

    func testInstallingTheSameGraphTwiceIsRefused() throws {
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 256))
        let graph = try EngineGraph(GraphDescription(strips: [mono()], buses: [BusDescription(name: "main", channels: 1)]),
                                    sampleRate: 48000, maxFrames: 256)
        try engine.install(graph)
        XCTAssertEqual(engineError { try engine.install(graph) }, .graphAlreadyInstalled)
        XCTAssertEqual(engine.liveGraphCount, 1, "the refused install holds nothing extra")
    }

    func testInstallingMoreChannelsThanTheEngineHoldsIsRefused() throws {
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 256, inputCapacity: 2, outputCapacity: 2))
        let wideIn = try EngineGraph(GraphDescription(strips: [mono("a", channels: 2), mono("b")], buses: [BusDescription(name: "main", channels: 2)]),
                                     sampleRate: 48000, maxFrames: 256)
        XCTAssertEqual(engineError { try engine.install(wideIn) }, .tooManyChannels(needed: 3, capacity: 2))
        let wideOut = try EngineGraph(GraphDescription(strips: [mono()], buses: [BusDescription(name: "a", channels: 2), BusDescription(name: "b", channels: 1)]),
                                      sampleRate: 48000, maxFrames: 256)
        XCTAssertEqual(engineError { try engine.install(wideOut) }, .tooManyChannels(needed: 3, capacity: 2))
        XCTAssertEqual(engine.liveGraphCount, 0)
        XCTAssertEqual(engineError { try engine.set(.stripGain(strip: 0), to: 0) }, .noGraph, "refused installs leave no graph")
    }

    // MARK: Setting parameters

    func testSetBeforeAnyGraphIsNoGraph() {
        let engine = Engine(configuration: EngineConfiguration(maxFrames: 256))
        XCTAssertEqual(engineError { try engine.set(.stripGain(strip: 0), to: -6) }, .noGraph)
        XCTAssertEqual(engineError { try engine.set(.busMute(bus: 0), to: 1) }, .noGraph)
    }

    private func installedHost() throws -> OfflineEngine {
        let host = OfflineEngine(maxFrames: 1024, inputs: 1, outputs: 2)
        try host.install(GraphDescription(
            strips: [StripDescription(name: "vox", channels: 1, units: [GainUnit()], unitIDs: ["trim"], sends: [SendDescription(bus: 0)])],
            buses: [BusDescription(name: "main", channels: 2)]), sampleRate: 48000)
        return host
    }

    func testSetRejectsPanOutsideMinusOneToOne() throws {
        let engine = try installedHost().engine
        XCTAssertEqual(engineError { try engine.set(.stripPan(strip: 0), to: 2) }, .valueOutOfRange(parameter: "vox/pan", value: 2, range: -1...1))
        XCTAssertEqual(engineError { try engine.set(.stripPan(strip: 0), to: -1.0001) }, .valueOutOfRange(parameter: "vox/pan", value: -1.0001, range: -1...1))
        XCTAssertEqual(engineError { try engine.set(.stripPan(strip: 0), to: .infinity) }, .valueOutOfRange(parameter: "vox/pan", value: .infinity, range: -1...1))
        XCTAssertNoThrow(try engine.set(.stripPan(strip: 0), to: -1))
        XCTAssertNoThrow(try engine.set(.stripPan(strip: 0), to: 1))
    }

    func testSetRejectsGainsAbovePlus24dBButAcceptsMinusInfinity() throws {
        let engine = try installedHost().engine
        let error = engineError { try engine.set(.stripGain(strip: 0), to: 30) }
        XCTAssertEqual(error, .valueOutOfRange(parameter: "vox/gain_db", value: 30, range: -.infinity...EngineGraph.maxGainDB))
        XCTAssertTrue(error.map(String.init(describing:))?.contains("vox/gain_db = 30") ?? false, "the message names the parameter and value")
        XCTAssertEqual(engineError { try engine.set(.busGain(bus: 0), to: 24.5) },
                       .valueOutOfRange(parameter: "main/gain_db", value: 24.5, range: -.infinity...24))
        XCTAssertEqual(engineError { try engine.set(.sendGain(strip: 0, send: 0), to: .infinity) },
                       .valueOutOfRange(parameter: "vox/send/0/gain_db", value: .infinity, range: -.infinity...24))
        XCTAssertNoThrow(try engine.set(.stripGain(strip: 0), to: 24))
        XCTAssertNoThrow(try engine.set(.stripGain(strip: 0), to: -.infinity))
    }

    func testSetRejectsNaNForEveryKindOfParameter() throws {
        let engine = try installedHost().engine
        let addresses: [ParameterAddress] = [
            .stripGain(strip: 0), .stripPan(strip: 0), .stripMute(strip: 0), .stripSolo(strip: 0), .stripEnabled(strip: 0),
            .sendGain(strip: 0, send: 0), .busGain(bus: 0), .busMute(bus: 0),
            .unitParameter(strip: 0, unit: 0, parameter: 0), .unitBypass(strip: 0, unit: 0),
        ]
        for address in addresses {
            guard case .valueOutOfRange(_, let value, _)? = engineError({ try engine.set(address, to: .nan) }) else {
                XCTFail("\(address): NaN must be refused as out of range")
                continue
            }
            XCTAssertTrue(value.isNaN)
        }
    }

    func testSetRejectsUnknownStripsBusesSendsUnitsAndParameters() throws {
        let engine = try installedHost().engine
        let addresses: [ParameterAddress] = [
            .stripGain(strip: 1), .stripGain(strip: -1), .stripPan(strip: 5), .stripMute(strip: 1), .stripSolo(strip: 9), .stripEnabled(strip: 1),
            .sendGain(strip: 0, send: 1), .sendGain(strip: 3, send: 0), .busGain(bus: 1), .busMute(bus: -1),
            .unitParameter(strip: 0, unit: 1, parameter: 0), .unitParameter(strip: 0, unit: 0, parameter: 2), .unitBypass(strip: 0, unit: 1),
        ]
        for address in addresses {
            guard case .unknownParameter(let message)? = engineError({ try engine.set(address, to: 0) }) else {
                XCTFail("\(address): expected unknownParameter")
                continue
            }
            XCTAssertFalse(message.isEmpty)
        }
    }

    func testSetChecksUnitParameterRanges() throws {
        let engine = try installedHost().engine
        XCTAssertEqual(engineError { try engine.set(.unitParameter(strip: 0, unit: 0, parameter: 0), to: 60) },
                       .valueOutOfRange(parameter: "vox/trim/gain_db", value: 60, range: -96...48))
        XCTAssertEqual(engineError { try engine.set(.unitParameter(strip: 0, unit: 0, parameter: 1), to: 2) },
                       .valueOutOfRange(parameter: "vox/trim/polarity", value: 2, range: 0...1))
        XCTAssertNoThrow(try engine.set(.unitParameter(strip: 0, unit: 0, parameter: 0), to: 48))
    }

    func testRefusedChangesLeaveThePlayingGraphUndisturbed() throws {
        let host = try installedHost()
        let input = TestSignal.noise(frames: 2048)
        let before = host.render([input], blockSize: 253)
        for (address, value) in [(ParameterAddress.stripGain(strip: 0), Float(30)), (.stripPan(strip: 0), 2), (.stripGain(strip: 4), 0), (.busGain(bus: 0), .nan)] {
            XCTAssertNotNil(engineError { try host.engine.set(address, to: value) })
        }
        let after = host.render([input], blockSize: 253)
        XCTAssertEqual(after, before, "output is bit-identical after refused changes")
        XCTAssertEqual(host.engine.droppedChangeCount, 0)
    }
}
