// The compressor editor's curve (`GET /curve`): the live settings' static gain as the kernel measures it on steady levels, knee and expander included. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackDSP
import FoldbackEngine
@testable import FoldbackWeb
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

final class WebCompressorCurveTests: XCTestCase {
    /// The gain in dB a kernel with `settings` settles on for a steady (DC) input at `level` dBFS: 2 s of it.
    private func measuredGain(_ settings: CompressorSettings, level: Float) -> Double {
        var kernel = CompressorKernel(settings: settings, channels: 1, sampleRate: 48000)
        defer { kernel.deallocate() }
        let amplitude = pow(10, level / 20)
        let input = UnsafeMutablePointer<Float>.allocate(capacity: 256), output = UnsafeMutablePointer<Float>.allocate(capacity: 256)
        defer { input.deallocate(); output.deallocate() }
        input.initialize(repeating: amplitude, count: 256)
        var inputs = [UnsafePointer(input)], outputs = [output]
        for _ in 0..<375 { kernel.process(inputs: &inputs, outputs: &outputs, channels: 1, frames: 256) }
        return 20 * log10(Double(output[255]) / Double(amplitude))
    }

    func testTheCurveIsTheKernelsStaticGainOfTheLiveSettings() async throws {
        let target = try WebTestTarget()
        // Live moves: threshold −30, 3:1, a 12 dB knee, 2 dB makeup, 50 ms release, expander below −55 at 2.5:1.
        for (parameter, value) in [(0, -30), (1, 3), (2, 12), (4, 50), (5, 2), (9, -55), (10, 2.5)] as [(Int, Float)] {
            try target.engine.set(.unitParameter(strip: 0, unit: 0, parameter: parameter), to: value)
        }
        let server = try WebServer(target: target, router: ControlRouter(target: target), setlist: nil, access: WebTestTarget.access,
                                   host: "127.0.0.1", port: 0, status: { (0, 0) })
        try server.start()
        defer { server.stop() }
        func get(_ query: String) async throws -> (status: Int, data: Data) {
            let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(server.port)/curve?\(query)"))
            let (data, response) = try await URLSession(configuration: .ephemeral).data(from: url)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
        }
        let token = WebTestTarget.access.engineerToken
        let answer = try await get("token=\(token)&unit=strip/vox/unit/comp")
        XCTAssertEqual(answer.status, 200)
        let curve = try XCTUnwrap(try JSONSerialization.jsonObject(with: answer.data) as? [String: [Double]])
        let levels = try XCTUnwrap(curve["in"]), gains = try XCTUnwrap(curve["gain"]), outs = try XCTUnwrap(curve["out"])
        XCTAssertEqual(levels.first, Double(WebCompressorCurve.lowestLevel))
        XCTAssertEqual(levels.last, 0)
        var settings = CompressorSettings()
        (settings.thresholdDB, settings.ratio, settings.kneeDB, settings.releaseMs, settings.makeupDB) = (-30, 3, 12, 50, 2)
        (settings.expanderThresholdDB, settings.expanderRatio) = (-55, 2.5)
        // Below and in the expander's knee, between, in the compressor's knee (−36…−24) and above it.
        for level in [-85, -62, -58, -55, -50, -40, -34, -30, -26, -20, -6, 0] {
            let index = try XCTUnwrap(levels.firstIndex(of: Double(level)))
            let measured = measuredGain(settings, level: Float(level))
            XCTAssertEqual(gains[index], measured, accuracy: 0.01, "\(level) dBFS")
            XCTAssertEqual(outs[index], Double(level) + gains[index], accuracy: 0.002)
        }
        XCTAssertEqual(gains[levels.firstIndex(of: -30)!], 2 - 1, accuracy: 0.01, "at the threshold: (1 − 1/R)·W/8 = 1 dB of compression, less the 2 dB makeup")
        let musician = WebTestTarget.access.busTokens[1].token
        let refused = try await get("token=\(musician)&unit=strip/vox/unit/comp")
        XCTAssertEqual(refused.status, 403)
        let missing = try await get("token=\(token)&unit=strip/gtr/unit/comp")
        XCTAssertEqual(missing.status, 404)
    }
}
