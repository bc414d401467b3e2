// Runs foldback-rtcheck with the allocation counter preloaded: zero mallocs and frees on the audio path.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import XCTest

final class RealtimeCheckTests: XCTestCase {
    /// The directory holding the built products (where the test bundle sits).
    private var productsDirectory: URL {
        var url = Bundle(for: Self.self).bundleURL
        while url.pathExtension == "xctest" || url.lastPathComponent.hasSuffix(".xctest") { url.deleteLastPathComponent() }
        return url
    }

    func testAudioPathMakesNoAllocationsOrFreesOver10000Cycles() throws {
        let (status, text) = try runChecker(["--cycles", "10000", "--frames", "128"])
        XCTAssertEqual(status, 0, text)
        XCTAssertTrue(text.contains("audio-path allocations 0, frees 0"), text)
        XCTAssertTrue(text.contains("10000 cycles"), text)
        XCTAssertTrue(text.contains("200 graph swaps"), "repeated crossfaded swaps, as 200 preset switches make: \(text)")
    }

    /// The check itself must catch an allocation on the audio path, or its zero means nothing.
    func testAnInjectedAudioPathAllocationIsCaught() throws {
        let (status, text) = try runChecker(["--cycles", "10000", "--frames", "64", "--pace", "0", "--swaps", "1", "--inject-fault"])
        XCTAssertEqual(status, 1, text)
        XCTAssertTrue(text.contains("audio-path allocations 1, frees 1"), text)
    }

    private func runChecker(_ arguments: [String]) throws -> (Int32, String) {
        let checker = productsDirectory.appendingPathComponent("foldback-rtcheck")
        let counter = productsDirectory.appendingPathComponent("libFoldbackAllocCounter.so")
        guard FileManager.default.fileExists(atPath: counter.path) else {
            throw XCTSkip("\(counter.path) is missing: build it with `swift build --product FoldbackAllocCounter` (make test does)")
        }
        let process = Process()
        process.executableURL = checker
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = counter.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
