// Tests that broken units, sends and connections fail with the exact position and a helpful message. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import XCTest
@testable import FoldbackPresets

final class BrokenChainTests: XCTestCase {
    /// A strip `vox` feeding bus `main`, followed by `extra` lines inside the strip (line 6 onwards).
    private func strip(_ extra: String) -> String { presetText(stripName: "vox", stripLines: extra) }

    /// A bus `main` and a strip `vox` with no sends yet, followed by `extra` (line 5 onwards).
    private func unsentStrip(_ extra: String) -> String { presetText(stripName: "vox", sendsToMain: false, stripLines: extra) }

    func testUnknownUnitTypeSuggestsAndListsKnownTypes() {
        assertSingleError(
            strip("  [[strip.unit]]\n  type = \"gian\"\n"),
            line: 7, column: 10, contains: ["unknown unit type 'gian'", "did you mean 'gain'?", "known types: gain"]
        )
    }

    func testUnknownUnitTypeWithNothingCloseStillListsKnownTypes() {
        let error = assertSingleError(
            strip("  [[strip.unit]]\n  type = \"flanger\"\n"), line: 7, column: 10,
            contains: ["'flanger'", "(known types: \(UnitSchema.knownTypes.joined(separator: ", ")))"]
        )
        XCTAssertFalse(error?.message.contains("did you mean") ?? true)
    }

    func testUnitWithoutTypeIsReportedAtItsTable() {
        assertSingleError(
            strip("  [[strip.unit]]\n  gain_db = 3\n"), line: 6, column: 3, contains: ["[[strip.unit]] is missing required key 'type'"]
        )
    }

    func testUnitKeyTypoIsCheckedAgainstItsTypesKeys() {
        assertSingleError(
            strip("  [[strip.unit]]\n  type = \"gain\"\n  polarty = \"inverted\"\n"),
            line: 8, column: 3, contains: ["unknown key 'polarty'", "a 'gain' unit", "did you mean 'polarity'?"]
        )
    }

    func testBadPolarityStringNamesTheChoices() {
        assertSingleError(
            strip("  [[strip.unit]]\n  type = \"gain\"\n  polarity = \"invert\"\n"),
            line: 8, column: 14, contains: ["'polarity' = \"invert\"", "\"normal\" or \"inverted\"", "did you mean \"inverted\"?"]
        )
    }

    func testUnitGainRangeIsTheUnitsOwn() {
        assertSingleError(
            strip("unit = [{ type = \"gain\", gain_db = 60 }]\n"),
            line: 6, column: 36, contains: ["'gain_db' = 60", "-96 to 48"]
        )
    }

    func testDuplicateUnitIDNamesBothLines() {
        assertSingleError(
            strip("  [[strip.unit]]\n  type = \"gain\"\n  id = \"trim\"\n  [[strip.unit]]\n  type = \"gain\"\n  id = \"trim\"\n"),
            line: 11, column: 8, contains: ["duplicate unit id 'trim' in strip 'vox'", "first used at line 8"]
        )
    }

    func testBadUnitIDCharacters() {
        assertSingleError(
            strip("unit = [{ type = \"gain\", id = \"my trim\" }]\n"),
            line: 6, column: 31, contains: ["unit id 'my trim' contains a space"]
        )
    }

    func testSendToAnUnknownBusSuggestsTheClosest() {
        assertSingleError(
            unsentStrip("  [[strip.send]]\n  bus = \"mian\"\n"),
            line: 6, column: 9, contains: ["send to unknown bus 'mian'", "did you mean 'main'?"]
        )
    }

    func testSendToAnUnknownBusListsTheBusesWhenNothingIsClose() {
        assertSingleError(
            unsentStrip("  [[strip.send]]\n  bus = \"wedge\"\n"),
            line: 6, column: 9, contains: ["send to unknown bus 'wedge'", "the buses are: main"]
        )
    }

    func testDuplicateSendToTheSameBus() {
        assertSingleError(
            unsentStrip("  [[strip.send]]\n  bus = \"main\"\n  [[strip.send]]\n  bus = \"main\"\n  pre_fader = true\n"),
            line: 8, column: 9, contains: ["duplicate send to bus 'main' from strip 'vox'", "first used at line 6, column 9"]
        )
    }

    func testSendWithoutBus() {
        assertSingleError(
            unsentStrip("  [[strip.send]]\n  gain_db = -3\n"),
            line: 5, column: 3, contains: ["[[strip.send]] is missing required key 'bus'"]
        )
    }

    func testTooManyConnectEntriesPointsAtTheFirstExtra() {
        assertSingleError(
            strip("connect = [\"system:capture_1\", \"system:capture_2\"]\n"),
            line: 6, column: 32,
            contains: ["'connect' has 2 entries but strip 'vox' has 1 channel", "entry 2 has no port"]
        )
    }

    func testConnectEntriesMustBePortNames() {
        assertSingleError(
            strip("connect = [[\"system:capture_1\", 7]]\n"),
            line: 6, column: 33, contains: ["'connect' entry: expected a port name, found an integer (7)"]
        )
        assertSingleError(
            strip("connect = [\"capture_1\"]\n"),
            line: 6, column: 12, contains: ["\"capture_1\" is not a full JACK port name", "client:port"]
        )
        assertSingleError(
            strip("connect = \"system:capture_1\"\n"),
            line: 6, column: 11, contains: ["'connect': expected an array with one entry per channel, found a string"]
        )
    }

    func testInvalidChannelsDoesNotAlsoBlameConnect() {
        assertSingleError(
            strip("channels = 2.5\nconnect = [\"a:1\", \"a:2\", \"a:3\"]\n"),
            line: 6, column: 12, contains: ["'channels' must be 1 (mono) or 2 (stereo), found 2.5"]
        )
    }
}
