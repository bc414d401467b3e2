// Test-only broken LV2 bundles written to a temp dir (missing binary, bad Turtle, unknown required feature) give clean errors, never a crash. Non-realtime (test thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
@testable import FoldbackLV2
import Foundation
import XCTest

final class LV2BrokenBundleTests: XCTestCase {
    private var root = ""
    private var world: LV2World!

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "foldback-broken-lv2-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try bundle("missing-binary", plugin: "urn:foldback:test:missing-binary", extra: "")
        try bundle("needs-feature", plugin: "urn:foldback:test:needs-feature",
                   extra: "lv2:requiredFeature <http://example.org/ns#unobtainium> ;")
        try FileManager.default.createDirectory(atPath: root + "/bad-ttl.lv2", withIntermediateDirectories: true)
        try "@prefix lv2: <http://lv2plug.in/ns/lv2core#> .\n<urn:foldback:test:bad-ttl> a lv2:Plugin ; lv2:binary <x.so> ; rdfs:seeAlso <plugin.ttl> ;;; oops ]]"
            .write(toFile: root + "/bad-ttl.lv2/manifest.ttl", atomically: true, encoding: .utf8)
        world = LV2World(path: root)
    }

    override func tearDownWithError() throws {
        world = nil
        try? FileManager.default.removeItem(atPath: root)
    }

    /// A bundle with one mono gain-like plugin whose binary does not exist.
    private func bundle(_ name: String, plugin: String, extra: String) throws {
        let directory = root + "/\(name).lv2"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let manifest = """
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            <\(plugin)> a lv2:Plugin ; lv2:binary <\(name).so> ; rdfs:seeAlso <plugin.ttl> .
            """
        let description = """
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix doap: <http://usefulinc.com/ns/doap#> .
            <\(plugin)> a lv2:Plugin , lv2:AmplifierPlugin ; doap:name "Broken \(name)" ; \(extra)
              lv2:port [ a lv2:InputPort , lv2:AudioPort ; lv2:index 0 ; lv2:symbol "in" ; lv2:name "In" ] ,
                       [ a lv2:OutputPort , lv2:AudioPort ; lv2:index 1 ; lv2:symbol "out" ; lv2:name "Out" ] .
            """
        try manifest.write(toFile: directory + "/manifest.ttl", atomically: true, encoding: .utf8)
        try description.write(toFile: directory + "/plugin.ttl", atomically: true, encoding: .utf8)
    }

    func testMissingBinaryIsACleanPrepareError() throws {
        let unit = try LV2Unit(uri: "urn:foldback:test:missing-binary", world: world)
        XCTAssertThrowsError(try unit.prepare(channels: 1, sampleRate: 48000, maxFrames: 64)) { error in
            XCTAssertTrue("\(error)".contains("missing-binary.so is missing"), "\(error)")
        }
    }

    func testUnsupportedRequiredFeatureNamesFeatureAndPlugin() {
        XCTAssertThrowsError(try LV2Unit(uri: "urn:foldback:test:needs-feature", world: world)) { error in
            XCTAssertEqual(error as? LV2Error, .unsupportedFeature(plugin: "urn:foldback:test:needs-feature", feature: "http://example.org/ns#unobtainium"))
            XCTAssertTrue("\(error)".contains("requires feature http://example.org/ns#unobtainium"), "\(error)")
        }
    }

    /// A bundle whose Turtle does not parse is skipped: its plugin is unknown, the others still load.
    func testBadTurtleLeavesThePluginOut() {
        XCTAssertThrowsError(try world.plugin(uri: "urn:foldback:test:bad-ttl")) { error in
            guard case .unknownPlugin = error as? LV2Error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(Set(world.plugins().map(\.uri)), ["urn:foldback:test:missing-binary", "urn:foldback:test:needs-feature"])
    }

    /// A URI without a scheme (a typo, a fuzzed preset) is an unknown plugin, refused before lilv sees it (whose
    /// store would print "attempt to map invalid URI" to the terminal); schemes with digits, `+`, `-` and `.` pass.
    func testAURIWithoutASchemeIsUnknownWithoutReachingLilv() {
        for uri in ["*ttp://gareus.org/oss/lv2/fil4#mono", ":x", "", "fil4#mono", "1urn:x", "ht tp://x"] {
            XCTAssertThrowsError(try world.plugin(uri: uri), uri) { error in
                guard case .unknownPlugin = error as? LV2Error else { return XCTFail("\(uri): \(error)") }
            }
        }
        for uri in ["urn:foldback:test:needs-feature", "http://x", "svn+ssh://x", "a-b.c:y"] {
            XCTAssertTrue(LV2World.hasScheme(uri), uri)
        }
        for uri in ["*ttp://x", ":x", "", "no-colon", "1urn:x", "ht tp://x"] {
            XCTAssertFalse(LV2World.hasScheme(uri), uri)
        }
    }
}
