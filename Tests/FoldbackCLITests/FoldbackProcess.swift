// Runs the built `foldback` executable as a subprocess and captures its output, for the CLI tests. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import XCTest

/// The outcome of one `foldback` run.
struct FoldbackRun {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

enum FoldbackProcess {
    /// The repository root, found from this file's path.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `foldback` executable in the products directory holding the test bundle.
    static func executable() throws -> URL {
        var candidates = [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        candidates += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for start in candidates {
            var directory = start
            for _ in 0..<4 {  // the .xctest bundle may sit a few levels under the products directory
                let binary = directory.appendingPathComponent("foldback")
                if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw XCTSkip("foldback executable not found next to the test bundle (looked under \(candidates.map(\.path)))")
    }

    /// Runs `foldback` with `arguments` in the repository root and waits for it to exit;
    /// `environment` entries are added to the inherited environment.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> FoldbackRun {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.currentDirectoryURL = repositoryRoot
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes to the end before waiting, so a chatty child never blocks on a full pipe.
        let errorData = LockedData()
        let errorReader = Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
        errorReader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.isSet { usleep(1_000) }
        return FoldbackRun(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData.value, as: UTF8.self)
        )
    }

    /// Writes `text` to a fresh temporary `.toml` file and returns its path.
    static func temporaryPreset(_ text: String, name: String = "broken.toml") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}

/// Data handed from the stderr reader thread to the test thread.
private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?

    func set(_ newValue: Data) { lock.withLock { data = newValue } }
    var isSet: Bool { lock.withLock { data != nil } }
    var value: Data { lock.withLock { data ?? Data() } }
}
