// The show tempo: its tree nodes, which source takes which tempo, taps, and the status text. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine
import FoldbackPresets
import XCTest

final class ShowTempoTests: XCTestCase {
    /// A preset with an echo has `tempo/bpm` (its echo's tempo, 20…300 BPM) and `tempo/source` (setlist, tap, midi_clock,
    /// jack_transport) as host-side nodes; one without an echo has neither.
    func testTheTreeHasTheShowTempoWhereAnEchoFollowsIt() throws {
        let text = SetlistTempoTests.echoPreset.replacingOccurrences(of: "sync = \"1/4\"", with: "tempo_bpm = 96")
        let echo = try PresetLoader.parse(text, path: "echo.toml")
        let tree = ParameterTree(preset: echo)
        let bpm = try XCTUnwrap(tree.node(at: "tempo/bpm"))
        XCTAssertEqual(bpm.address, .host(.showTempo))
        XCTAssertEqual(bpm.presetValue, 96)
        XCTAssertEqual(bpm.descriptor.range, 20...300)
        let source = try XCTUnwrap(tree.node(at: "tempo/source"))
        XCTAssertEqual(source.descriptor.choices.map(\.name), ["setlist", "tap", "midi_clock", "jack_transport"])
        XCTAssertEqual(source.presetValue, 0)

        let dry = try PresetLoader.parse("[[bus]]\nname = \"main\"\n[[strip]]\nname = \"vox\"\nsend = [{ bus = \"main\" }]\n", path: "dry.toml")
        XCTAssertNil(ParameterTree(preset: dry).node(at: "tempo/bpm"))
        XCTAssertEqual(echo.settingTempo(72).echoTempo, 72)
    }

    /// Which origins each source takes: its own, taps always, a song's unless only taps count; clocks only as the source.
    func testEachSourceTakesItsOwnTapsAndSongsUnlessTapOnly() {
        let all = TempoSource.allCases
        XCTAssertEqual(all.filter { TempoSource.setlist.accepts($0) }, [.setlist, .tap])
        XCTAssertEqual(all.filter { TempoSource.tap.accepts($0) }, [.tap])
        XCTAssertEqual(all.filter { TempoSource.midiClock.accepts($0) }, [.setlist, .tap, .midiClock])
        XCTAssertEqual(all.filter { TempoSource.jackTransport.accepts($0) }, [.setlist, .tap, .jackTransport])

        let tempo = ShowTempo(bpm: 120)
        XCTAssertEqual(tempo.statusText, "♩ 120.0 BPM (preset)")
        XCTAssertNil(tempo.offer(96, from: .midiClock), "not the source")
        XCTAssertEqual(tempo.offer(72, from: .setlist), 72)
        XCTAssertNil(tempo.offer(72.004, from: .setlist), "within 0.01 BPM: nothing to retime")
        XCTAssertEqual(tempo.statusText, "♩ 72.0 BPM (setlist)")
        tempo.setSource(.tap)
        XCTAssertNil(tempo.offer(128, from: .setlist))
        XCTAssertEqual(tempo.offer(400, from: .tap), 300, "clamped to the echo's range")
        tempo.setSource(.midiClock)
        XCTAssertEqual(tempo.offer(96, from: .midiClock), 96)
        XCTAssertEqual(tempo.origin, .midiClock)
    }

    /// Taps 500 ms apart: a lone tap sets nothing, the second 120 BPM, steady ones (within 10 ms) nothing more;
    /// a tap run overrides a song's tempo under the default source.
    func testTapsSetTheShowTempo() {
        let tempo = ShowTempo(bpm: 72)
        XCTAssertEqual([10.0, 10.5, 11.0, 11.508].map { tempo.tap(at: $0) }, [nil, 120, nil, nil])
        XCTAssertEqual(tempo.bpm, 120)
        XCTAssertEqual(tempo.origin, .tap)
    }
}
