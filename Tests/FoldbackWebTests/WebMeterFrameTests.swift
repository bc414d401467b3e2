// Binary level frames: what a page is sent of the meters once it asks for a rate (its strips and bus, what changed, none while hidden). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
@testable import FoldbackEngine
@testable import FoldbackWeb
import FoldbackTestSupport
import Foundation
import XCTest

final class WebMeterFrameTests: XCTestCase {
    private func snapshot(vox: Float, gtr: Float, bus: Float) -> MeterSnapshot {
        MeterSnapshot(
            strips: [("vox", MeterReading(peak: vox, rms: vox / 2)), ("gtr", MeterReading(peak: gtr, rms: gtr / 2))],
            buses: [("main", MeterReading(peak: bus, rms: bus)), ("iem_vox", MeterReading(peak: bus / 4, rms: 0))])
    }

    /// The first frame carries every meter of the layout in tenths of a dB; the next only those that changed; none when nothing did.
    func testAFrameCarriesTheLevelsThatChangedInTenthsOfADecibel() throws {
        let first = WebLevels(snapshot(vox: 0.5, gtr: 1, bus: 0.1))
        XCTAssertEqual(first.keys, ["strip/vox", "strip/gtr", "bus/main", "bus/iem_vox"])
        let indices = [0, 1, 3]   // a musician of iem_vox: both strips and their bus
        var sent: [Int16] = []
        let full = try XCTUnwrap(WebMeterFrame.decode(try XCTUnwrap(WebMeterFrame.encode(layout: 7, indices: indices, levels: first, sent: &sent))))
        XCTAssertEqual(full.layout, 7)
        XCTAssertEqual(full.levels.count, 3, "every meter in the first frame")
        XCTAssertEqual(try XCTUnwrap(full.levels[0]).peak, -6.0, accuracy: 1e-6, "0.5 is −6.0 dBFS")
        XCTAssertEqual(try XCTUnwrap(full.levels[0]).rms, -12.0, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(full.levels[1]).peak, 0, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(full.levels[2]).peak, -32.0, accuracy: 1e-6, "0.025 is −32.0 dBFS")
        XCTAssertEqual(try XCTUnwrap(full.levels[2]).rms, MeterFeed.floorDB, "silence at the floor")
        XCTAssertNil(WebMeterFrame.encode(layout: 7, indices: indices, levels: first, sent: &sent), "nothing changed: no frame")
        let second = WebLevels(snapshot(vox: 0.5, gtr: 0.25, bus: 0.2))   // gtr and the buses move; main is not in the layout
        let changed = try XCTUnwrap(WebMeterFrame.decode(try XCTUnwrap(WebMeterFrame.encode(layout: 7, indices: indices, levels: second, sent: &sent))))
        XCTAssertEqual(Set(changed.levels.keys), [1, 2], "gtr and iem_vox alone")
        XCTAssertEqual(try XCTUnwrap(changed.levels[1]).peak, -12.0, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(changed.levels[2]).peak, -26.0, accuracy: 1e-6)
        let bytes = WebMeterFrame.headerBytes + 2 * WebMeterFrame.entryBytes
        XCTAssertEqual(WebMeterFrame.encode(layout: 7, indices: indices, levels: first, sent: &sent)?.count, bytes, "4 bytes and 6 per meter")
    }

    /// A musician's layout is the strips feeding their bus, then the bus; the engineer's everything.
    func testAMusiciansLayoutIsTheirStripsAndBus() throws {
        let target = try WebTestTarget()
        let full = WebState.read(target, setlist: nil)
        let levels = WebLevels(target.engine.meters())
        XCTAssertEqual(levels.layout(for: .musician(bus: "main"), seen: full.seen(by: .musician(bus: "main"))).keys, ["strip/vox", "bus/main"])
        XCTAssertEqual(levels.layout(for: .musician(bus: "iem_vox"), seen: full.seen(by: .musician(bus: "iem_vox"))).keys,
                       ["strip/vox", "strip/gtr", "bus/iem_vox"])
        XCTAssertEqual(levels.layout(for: .engineer, seen: full).keys, ["strip/vox", "strip/gtr", "bus/main", "bus/iem_vox", "bus/iem_gtr"])
    }

    /// Over the server: a page that asks gets its meter keys, a full frame at once, the rest of the meters without
    /// levels or load; asking for none (a hidden tab) stops them, asking again sends every level at once.
    func testAPageGetsFramesAtTheRateItAsksAndNoneWhileHidden() throws {
        let target = try WebTestTarget()
        let server = try WebServer(
            target: target, router: ControlRouter(target: target), setlist: nil, access: WebTestTarget.access, host: "127.0.0.1", port: 0,
            status: { (12.5, 3) })
        try server.start()
        defer { server.stop() }
        let page = try WebSocketTestClient(port: server.port, token: "vox-token-01234")
        XCTAssertEqual(try page.expect("hello")["meters"] as? Bool, true, "the server says it takes a meter rate")
        page.send(#"{"meters":25}"#)
        let keys = try page.expect("meterkeys")
        XCTAssertEqual(keys["keys"] as? [String], ["strip/vox", "strip/gtr", "bus/iem_vox"])
        let id = try XCTUnwrap((keys["id"] as? NSNumber)?.intValue)
        var frame: (layout: Int, levels: [Int: (peak: Float, rms: Float)])?
        var rest: [String: Any]?
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline, frame == nil || rest == nil, let message = page.receiveMessage(timeout: 1) {
            switch message {
            case let .binary(bytes): frame = WebMeterFrame.decode(Data(bytes))
            case let .text(text):
                if let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], object["type"] as? String == "meters" { rest = object }
            }
        }
        let levels = try XCTUnwrap(frame, "a binary frame")
        XCTAssertEqual(levels.layout, id)
        XCTAssertEqual(levels.levels.count, 3, "the first frame carries every meter the page shows")
        XCTAssertEqual(levels.levels[0]?.peak, MeterFeed.floorDB, "an offline engine is silent")
        let meters = try XCTUnwrap(rest, "the rest of the meters as JSON")
        XCTAssertEqual((meters["strips"] as? [String: Any])?.count, 0, "no levels in the JSON")
        XCTAssertEqual((meters["dsp"] as? NSNumber)?.doubleValue, 0, "a musician's page shows no load")

        page.send(#"{"meters":0}"#)
        _ = try page.expect("ok")
        while page.receiveMessage(timeout: 0.2) != nil {}   // a tick under way when the request came
        var after = 0
        let quiet = Date().addingTimeInterval(2.5)   // past a 2 s refresh, which a hidden page does not get either
        while Date() < quiet, let message = page.receiveMessage(timeout: max(0, quiet.timeIntervalSinceNow)) {
            if case .binary = message { after += 1 }
            if case let .text(text) = message, text.contains(#""type":"meters""#) { after += 1 }
        }
        XCTAssertEqual(after, 0, "no meters while hidden")
        page.send(#"{"meters":25}"#)
        var again: Int?
        let visible = Date().addingTimeInterval(1)
        while Date() < visible, again == nil, let message = page.receiveMessage(timeout: max(0, visible.timeIntervalSinceNow)) {
            if case let .binary(bytes) = message { again = WebMeterFrame.decode(Data(bytes))?.levels.count }
        }
        XCTAssertEqual(again, 3, "visible again: every level at once, though none changed")
    }
}
