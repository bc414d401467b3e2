// A `foldback run` subprocess for end-to-end tests: its standard error captured, its start awaited. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackTestSupport
import XCTest

/// Runs the built `foldback` binary with standard error going to a file the test can poll.
final class FoldbackRun {
    let process = Process()
    private let errorFile: URL

    /// Starts `foldback arguments…` from the products directory next to the test bundle
    /// (standard output to `standardOutput` and standard input from `standardInput` if given, else inherited).
    /// `environment` entries are added to (or replace) the test's own environment.
    /// With a `prefix` (say `nsenter -t PID -n`), runs `prefix… foldback arguments…` instead.
    init(
        _ arguments: [String], testBundle: Bundle, environment: [String: String] = [:], standardOutput: FileHandle? = nil,
        standardInput: FileHandle? = nil, prefix: [String] = []
    ) throws {
        let products = Self.productsDirectory(testBundle: testBundle)
        errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-run-\(getpid())-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
            throw Failure("cannot create \(errorFile.path)")
        }
        let foldback = products.appendingPathComponent("foldback")
        process.executableURL = prefix.isEmpty ? foldback : URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = prefix.isEmpty ? arguments : prefix + [foldback.path] + arguments
        // The web tokens a show keeps between runs go to this test process's own state folder, not the user's.
        let state = ["XDG_STATE_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("foldback-state-\(getpid())").path]
        process.environment = ProcessInfo.processInfo.environment.merging(state.merging(environment) { _, added in added }) { _, added in added }
        process.standardError = try FileHandle(forWritingTo: errorFile)
        if let standardOutput { process.standardOutput = standardOutput }
        if let standardInput { process.standardInput = standardInput }
        try process.run()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: errorFile)
    }

    /// What foldback has written to standard error so far.
    var standardError: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// Waits until foldback says it is running (after `jack_activate` and its connections), failing early if it exits.
    func waitUntilRunning(timeout: Double = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !standardError.contains("foldback: running") {
            guard process.isRunning else { throw Failure("foldback exited before running:\n\(standardError)") }
            guard Date() < deadline else { throw Failure("foldback did not start within \(timeout) s:\n\(standardError)") }
            usleep(20_000)
        }
    }

    /// The UDP port foldback said its OSC server listens on (`OSC on 127.0.0.1:PORT`, with `--osc-port 0`).
    func announcedOSCPort() throws -> UInt16 {
        let text = standardError
        guard let range = text.range(of: #"OSC on 127\.0\.0\.1:(\d+)"#, options: .regularExpression),
              let port = UInt16(text[range].split(separator: ":").last ?? "") else {
            throw Failure("foldback did not say its OSC port:\n\(text)")
        }
        return port
    }

    /// The products directory (where `foldback` and `libFoldbackAllocCounter.so` are built).
    static func productsDirectory(testBundle: Bundle) -> URL {
        var products = testBundle.bundleURL
        while products.pathExtension == "xctest" { products.deleteLastPathComponent() }
        return products
    }

    /// Stops it with SIGINT (as Ctrl-C) and waits up to 20 s; a run still going then is killed and the test fails.
    func stop() {
        guard process.isRunning else { return }
        if !process.stop(within: 20) { XCTFail("foldback did not end within 20 s of SIGINT and was killed") }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
