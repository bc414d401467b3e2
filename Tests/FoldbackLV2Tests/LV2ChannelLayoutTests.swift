// How plugin audio ports map onto strip channels: dual mono, mono-to-stereo, ambiguous layouts named and resolved by explicit port lists. Non-realtime (test thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import XCTest
@testable import FoldbackLV2

final class LV2ChannelLayoutTests: XCTestCase {
    private func plugin(inputs: [String], outputs: [String]) -> LV2PluginInfo {
        let ports = (inputs.map { ($0, true) } + outputs.map { ($0, false) }).enumerated().map { index, port in
            LV2PortInfo(index: index, symbol: port.0, name: port.0, kind: .audio, isInput: port.1, range: nil, defaultValue: nil,
                        unit: nil, isToggled: false, isInteger: false, isEnabledDesignation: false, minimumSize: nil)
        }
        return LV2PluginInfo(
            summary: LV2PluginSummary(uri: "urn:test", name: "Test", className: "Plugin", audioInputs: inputs.count, audioOutputs: outputs.count),
            ports: ports, presets: [], requiredFeatures: [], optionalFeatures: [], latencyPortIndex: nil, isHardRTCapable: true, bundle: "")
    }

    func testMonoPluginOnStereoStripRunsTwice() throws {
        let layout = try LV2ChannelLayout.plan(plugin(inputs: ["in"], outputs: ["out"]), channels: 2, inputSymbols: nil, outputSymbols: nil)
        XCTAssertEqual(layout.inputs, [[.init(port: 0, channel: 0)], [.init(port: 0, channel: 1)]])
        XCTAssertEqual(layout.outputs, [[.init(port: 1, channel: 0)], [.init(port: 1, channel: 1)]])
        XCTAssertEqual([layout.slotInputs, layout.slotOutputs], [2, 2])
    }

    func testStereoPluginOnMonoStripMakesItStereo() throws {
        let layout = try LV2ChannelLayout.plan(plugin(inputs: ["l", "r"], outputs: ["ol", "or"]), channels: 1, inputSymbols: nil, outputSymbols: nil)
        XCTAssertEqual(layout.inputs.count, 1)
        XCTAssertEqual([layout.slotInputs, layout.slotOutputs], [2, 2], "the engine feeds the mono channel to both inputs")
    }

    func testThreeInputsAreAnErrorNamingThePortsUntilMapped() throws {
        let info = plugin(inputs: ["in_l", "in_r", "sidechain"], outputs: ["out_l", "out_r"])
        XCTAssertThrowsError(try LV2ChannelLayout.plan(info, channels: 2, inputSymbols: nil, outputSymbols: nil)) { error in
            XCTAssertTrue("\(error)".contains("3 audio inputs (in_l, in_r, sidechain)"), "\(error)")
            XCTAssertTrue("\(error)".contains("inputs = [\"in_l\", \"in_r\"]"), "\(error)")
        }
        let layout = try LV2ChannelLayout.plan(info, channels: 2, inputSymbols: ["in_r", "in_l"], outputSymbols: nil)
        XCTAssertEqual(layout.inputs, [[.init(port: 1, channel: 0), .init(port: 0, channel: 1)]], "unlisted sidechain reads silence")
        XCTAssertThrowsError(try LV2ChannelLayout.plan(info, channels: 2, inputSymbols: ["side"], outputSymbols: nil)) { error in
            XCTAssertTrue("\(error)".contains("'side', which is not one of its audio inputs"), "\(error)")
        }
    }

    func testMonoInStereoOutOnStereoStripIsExplained() {
        XCTAssertThrowsError(try LV2ChannelLayout.plan(plugin(inputs: ["in"], outputs: ["l", "r"]), channels: 2, inputSymbols: nil, outputSymbols: nil)) { error in
            XCTAssertTrue("\(error)".contains("put it on a mono strip"), "\(error)")
        }
    }
}
