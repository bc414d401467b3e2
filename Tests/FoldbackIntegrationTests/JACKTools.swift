// Runs JACK's command-line tools (jack_lsp, jack_property) against a test server. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// JACK's own command-line tools, as an independent view of what the server holds.
enum JACKTools {
    /// Runs `tool arguments…` with `JACK_DEFAULT_SERVER=server` (and `PIPEWIRE_REMOTE=server`: PipeWire's libjack
    /// ignores the former) and returns its standard output.
    static func run(_ tool: String, _ arguments: String..., server: String) throws -> String {
        try run([tool] + arguments, server: server)
    }

    /// Runs the command line `arguments` (tool first) as ``run(_:_:server:)`` does.
    static func run(_ arguments: [String], server: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["JACK_DEFAULT_SERVER"] = server
        environment["PIPEWIRE_REMOTE"] = server
        environment["JACK_NO_START_SERVER"] = "1"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
