// A `feedback` unit on a wedge bus (`[[bus.unit]]`), loaded from a preset and run in the loop: live suppression, ring-out saved as `[[bus.unit.band]]`. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine
import FoldbackFeedback
import FoldbackFeedbackTesting
import FoldbackPresets
import FoldbackGraph
import XCTest

final class BusFeedbackTests: XCTestCase {
    private func feedbackUnit(_ keys: String) -> String {
        "\n  [[bus.unit]]\n  type = \"feedback\"\n  id = \"fb\"\n" + keys
    }

    /// Live mode on the wedge bus: the loop gain steps 3 dB past the maximum stable gain at 1 s. Without the
    /// unit (bypassed in the preset) the loop howls; with it the first notch comes within 100 ms of the ring
    /// becoming audible and from 200 ms on the wedge stays 20 dB under the howl. Awkward block sizes, three rates.
    func testLiveModeOnABusPullsTheHowlDown() throws {
        for (sampleRate, blockSize) in [(48_000.0, 253), (44_100, 7), (96_000, 1024)] {
            let room = RoomModel()
            let msg = room.maximumStableGain(sampleRate: sampleRate).gainDB
            let step = { (frame: Int) in frame < Int(sampleRate) ? msg - 6 : msg + 3 }
            let open = try BusLoopRig(BusLoopRig.preset(busUnits: feedbackUnit("  bypass = true\n")), sampleRate: sampleRate, blockSize: blockSize)
            let howling = open.run(seconds: 3, loopGainDB: step)
            let rig = try BusLoopRig(BusLoopRig.preset(busUnits: feedbackUnit("  mode = \"live\"\n")), sampleRate: sampleRate, blockSize: blockSize)
            let unit = try XCTUnwrap(rig.busUnit("fb"))
            XCTAssertEqual(unit.label, "feedback unit 'fb' on bus 'wedge'", "the log names the bus")
            let tamed = rig.run(seconds: 3, loopGainDB: step)
            let howl = StageMeasurements.levelDB(howling, howling.count - Int(sampleRate)..<howling.count)
            let quiet = StageMeasurements.levelDB(howling, Int(0.5 * sampleRate)..<Int(sampleRate))
            let onset = try XCTUnwrap(StageMeasurements.firstTime(howling, sampleRate: sampleRate, from: 1, reaching: quiet + 6))
            let first = unit.events.first.map { $0.time - onset } ?? .infinity
            let after = StageMeasurements.maxLevelDB(tamed, sampleRate: sampleRate, from: onset + 0.2, to: 3)
            print("bus feedback \(Int(sampleRate)) Hz block \(blockSize): howl \(fmt(howl)) dBFS; first notch \(fmt(first * 1000)) ms after onset;"
                  + " from 200 ms on max \(fmt(after)) dBFS (\(fmt(after - howl)) dB);", unit.notches.map { "\(Int($0.frequency)) Hz \($0.depthDB) dB" })
            XCTAssertGreaterThan(howl, -10, "the bypassed unit lets the loop howl")
            XCTAssertLessThan(first, 0.1)
            XCTAssertLessThan(after - howl, -20)
            let readings = rig.graph.meters().units.first { $0.strip == "bus/wedge" && $0.unit == "fb" }?.readings ?? []
            XCTAssertEqual(readings.first { $0.key == "notches_active" }?.value, Float(unit.notches.filter { $0.depthDB < 0 }.count))
        }
    }

    /// Ring-out on the wedge bus: the gain raised to MSG + 4 dB; the notches found are saved as the bus unit's
    /// `[[bus.unit.band]]` peaks, read back as fixed notches that hold MSG + 3 dB with nothing new to find.
    func testRingOutOnABusSavesItsNotchesAsBusBands() throws {
        let sampleRate = 48_000.0
        let msg = RoomModel().maximumStableGain(sampleRate: sampleRate).gainDB
        let soundCheck = try BusLoopRig(BusLoopRig.preset(busUnits: feedbackUnit("  mode = \"ringout\"\n")), sampleRate: sampleRate, blockSize: 128)
        let output = soundCheck.run(seconds: 8, loopGainDB: { msg - 6 + 10 * min(Double($0) / (6 * sampleRate), 1) })
        let unit = try XCTUnwrap(soundCheck.busUnit("fb"))
        XCTAssertGreaterThanOrEqual(unit.notchBands.count, 1)
        XCTAssertLessThan(StageMeasurements.maxLevelDB(output, sampleRate: sampleRate, from: 6, to: 8), -20)

        var saved = soundCheck.preset
        XCTAssertEqual(FeedbackNotchCapture.saveNotches(of: soundCheck.graph, into: &saved), unit.notchBands.count)
        let text = PresetWriter.text(for: saved)
        XCTAssertTrue(text.contains("[[bus.unit.band]]"), text)
        XCTAssertFalse(text.contains("[[strip.unit.band]]"), text)
        let show = try BusLoopRig(text, sampleRate: sampleRate, blockSize: 128)
        let reloaded = try XCTUnwrap(show.busUnit("fb"))
        XCTAssertEqual(reloaded.notches.count, unit.notchBands.count)
        for (loaded, found) in zip(reloaded.notches, unit.notchBands) {
            XCTAssertEqual(loaded.frequency, found.frequency, accuracy: 0.01, "written as a Float")
            XCTAssertEqual(loaded.depthDB, found.gainDB)
        }
        let held = show.run(seconds: 3, loopGainDB: { _ in msg + 3 })
        let worst = StageMeasurements.maxLevelDB(held, sampleRate: sampleRate, from: 0, to: 3)
        print("bus ring-out: \(unit.notchBands.count) notches saved", unit.notchBands.map { "\(Int($0.frequency)) Hz \($0.gainDB) dB" },
              "reloaded at MSG + 3 dB: loudest 50 ms \(fmt(worst)) dBFS")
        XCTAssertLessThan(worst, -20)
        XCTAssertEqual(reloaded.events.count, 0)
    }

    /// Bus feedback units in presets: a band table's error names `[[bus.unit.band]]`; a preset switch keeping the
    /// bus unit carries its notches over.
    func testBusUnitBandsAndPresetSwitch() throws {
        let bad = BusLoopRig.preset(busUnits: feedbackUnit("    [[bus.unit.band]]\n    type = \"peak\"\n    freq_hz = 900\n    gian_db = -6\n"))
        XCTAssertThrowsError(try PresetLoader.parse(bad, path: "bad.toml")) { error in
            XCTAssertTrue("\(error)".contains("unknown key 'gian_db' in [[bus.unit.band]]"), "\(error)")
        }
        let band = "    [[bus.unit.band]]\n    type = \"peak\"\n    freq_hz = 2512\n    gain_db = -9\n    q = 16\n"
        let first = try BusLoopRig(BusLoopRig.preset(busUnits: feedbackUnit("  mode = \"ringout\"\n" + band)), sampleRate: 48_000, blockSize: 64)
        first.engine.renderCycle(frames: 64)
        let live = try PresetLoader.parse(BusLoopRig.preset(busUnits: feedbackUnit("  mode = \"live\"\n" + band)), path: "b.toml")
        let next = try PresetGraphBuilder.graph(for: live, sampleRate: 48_000, maxFrames: 64, continuing: first.engine.runningGraph)
        XCTAssertEqual(next.continuedUnits.map { "\($0.strip)/\($0.unit)" }, ["wedge/fb"])
        let unit = try XCTUnwrap(next.description.buses[0].units.first as? FeedbackUnit)
        XCTAssertEqual(unit.notches.map(\.frequency), [2512])
    }
}
