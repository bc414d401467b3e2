// Walks every documented X32 and X-Air address and checks each answer's type tag, against the documents' tables. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
@testable import FoldbackX32
import XCTest

final class X32TreeWalkTests: XCTestCase {
    /// Addresses and type tags as the protocol documents' tables give them (channels, buses, matrices, DCAs, main,
    /// config, FX, head amps, `-show`, `-prefs`, `-stat`), written out here independently of the console's table.
    static let documentedX32: [(String, Character)] = [
        ("/ch/01/config/name", "s"), ("/ch/32/config/color", "i"), ("/ch/01/config/source", "i"), ("/ch/01/preamp/trim", "f"),
        ("/ch/01/preamp/hpon", "i"), ("/ch/01/preamp/hpf", "f"), ("/ch/01/gate/thr", "f"), ("/ch/01/gate/mode", "i"),
        ("/ch/01/dyn/ratio", "i"), ("/ch/01/dyn/thr", "f"), ("/ch/01/eq/on", "i"), ("/ch/01/eq/4/type", "i"), ("/ch/01/eq/1/f", "f"),
        ("/ch/01/eq/1/g", "f"), ("/ch/01/eq/1/q", "f"), ("/ch/01/mix/on", "i"), ("/ch/01/mix/fader", "f"), ("/ch/01/mix/st", "i"),
        ("/ch/01/mix/pan", "f"), ("/ch/01/mix/mono", "i"), ("/ch/01/mix/mlevel", "f"), ("/ch/01/mix/16/level", "f"),
        ("/ch/01/mix/01/on", "i"), ("/ch/01/mix/01/type", "i"), ("/ch/01/grp/dca", "i"), ("/ch/01/grp/mute", "i"),
        ("/ch/01/insert/on", "i"), ("/ch/01/delay/time", "f"), ("/ch/01/automix/weight", "f"),
        ("/auxin/08/mix/fader", "f"), ("/auxin/01/config/name", "s"), ("/fxrtn/08/mix/on", "i"),
        ("/bus/16/mix/fader", "f"), ("/bus/01/mix/on", "i"), ("/bus/01/config/name", "s"), ("/bus/01/eq/6/g", "f"),
        ("/bus/01/mix/06/level", "f"), ("/bus/01/dyn/on", "i"), ("/mtx/06/mix/fader", "f"), ("/mtx/01/config/name", "s"),
        ("/main/st/mix/fader", "f"), ("/main/st/mix/on", "i"), ("/main/st/mix/pan", "f"), ("/main/st/config/name", "s"),
        ("/main/m/mix/fader", "f"), ("/main/st/mix/01/level", "f"), ("/dca/8/fader", "f"), ("/dca/1/on", "i"),
        ("/dca/1/config/name", "s"), ("/config/mute/6", "i"), ("/config/chlink/31-32", "i"), ("/config/buslink/1-2", "i"),
        ("/config/solo/level", "f"), ("/config/userrout/out/48", "i"), ("/fx/8/type", "i"), ("/fx/1/par/64", "f"),
        ("/fx/1/source/l", "i"), ("/headamp/000/gain", "f"), ("/headamp/127/phantom", "i"), ("/outputs/main/16/src", "i"),
        ("/-show/prepos/current", "i"), ("/-show/showfile/show/name", "s"), ("/-show/showfile/scene/099/name", "s"),
        ("/-prefs/name", "s"), ("/-prefs/remote/enable", "i"), ("/-prefs/card/USBmode", "i"), ("/-prefs/bright", "f"),
        ("/-prefs/ip/addr/3", "i"), ("/-stat/tape/state", "i"), ("/-stat/tape/file", "s"), ("/-stat/usbmounted", "i"),
        ("/-stat/solosw/80", "i"), ("/-stat/selidx", "i"), ("/-action/goscene", "i"), ("/-usb/path", "s"),
    ]

    static let documentedXAir: [(String, Character)] = [
        ("/ch/16/mix/fader", "f"), ("/ch/01/mix/06/level", "f"), ("/bus/6/mix/fader", "f"), ("/bus/1/config/name", "s"),
        ("/lr/mix/fader", "f"), ("/lr/mix/on", "i"), ("/lr/config/name", "s"), ("/dca/4/fader", "f"), ("/config/mute/4", "i"),
        ("/headamp/24/gain", "f"), ("/rtn/aux/mix/fader", "f"), ("/rtn/4/mix/on", "i"), ("/fxsend/4/mix/fader", "f"),
        ("/-snap/index", "i"), ("/fx/4/par/64", "f"), ("/-prefs/name", "s"),
    ]

    private let walker = OSCPeer(host: "127.0.0.1", port: 5003)!

    /// Every leaf of each console's table is answered by a query with exactly one value of the leaf's type, and
    /// the documents' own list is a subset of what is answered, with the same types.
    func testEveryDocumentedAddressAnswersWithItsType() throws {
        for (dialect, documented, expectedMinimum) in [(X32Dialect.x32, Self.documentedX32, 8_000), (.xair, Self.documentedXAir, 2_000)] {
            let target = try OfflineTarget(text: X32ConsoleTests.preset)
            let console = X32Console(dialect: dialect, target: target, router: ControlRouter(target: target), address: "127.0.0.1")
            let table = X32Documented.addresses(dialect)
            XCTAssertGreaterThan(table.count, expectedMinimum, "\(dialect): leaves walked")
            var types: [String: Character] = [:]
            for (address, value) in table {
                let replies = console.receive(OSCMessage(address), from: walker, now: 0)
                guard replies.count == 1, let reply = replies.first?.message, reply.path == address, reply.arguments.count == 1 else {
                    XCTFail("\(dialect) \(address): \(replies)")
                    continue
                }
                XCTAssertEqual(reply.arguments[0].typeTag, value.typeTag, "\(dialect) \(address)")
                types[address] = reply.arguments[0].typeTag
            }
            for (address, tag) in documented { XCTAssertEqual(types[address], tag, "\(dialect) \(address): the document's type") }
            XCTAssertEqual(console.refusals, 0)
            XCTAssertEqual(target.engine.parameterChangeCount, 0, "queries change nothing")
        }
    }
}
