// PipeWirePresence: finding a user's PipeWire daemon by its socket, and the first-contact hint `foldback run` prints. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackJACK
import XCTest

final class PipeWirePresenceTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = URL(fileURLWithPath: "/tmp/fb-pwp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
        try super.tearDownWithError()
    }

    /// The daemon's socket is `$XDG_RUNTIME_DIR/pipewire-0`, or `$PIPEWIRE_REMOTE` there; a plain file of that name is no daemon.
    func testTheSocketInTheRuntimeDirectoryIsFound() throws {
        let environment = ["XDG_RUNTIME_DIR": directory.path]
        XCTAssertNil(PipeWirePresence.detect(environment: environment, scansProcesses: false), "no socket yet")
        XCTAssertTrue(FileManager.default.createFile(atPath: directory.appendingPathComponent("pipewire-0").path, contents: Data()))
        XCTAssertNil(PipeWirePresence.detect(environment: environment, scansProcesses: false), "a plain file is not a daemon")
        try FileManager.default.removeItem(at: directory.appendingPathComponent("pipewire-0"))
        let socket = try Self.listeningSocket(at: directory.appendingPathComponent("pipewire-0").path)
        defer { close(socket) }
        XCTAssertEqual(PipeWirePresence.detect(environment: environment, scansProcesses: false)?.evidence,
                       "its socket \(directory.path)/pipewire-0")
        XCTAssertNil(PipeWirePresence.detect(environment: environment.merging(["PIPEWIRE_REMOTE": "studio"]) { $1 }, scansProcesses: false))
    }

    /// No JACK server but PipeWire's socket: the hint names the socket and, under jackd's libjack, the `pw-jack`
    /// command with the user's own arguments (quoted for the shell); any other error gets no hint.
    func testNoJACKServerButPipeWireGivesTheCommandThatWorks() throws {
        let socket = try Self.listeningSocket(at: directory.appendingPathComponent("pipewire-0").path)
        defer { close(socket) }
        let environment = ["XDG_RUNTIME_DIR": directory.path]
        let arguments = ["foldback", "run", "my show.toml", "--no-connect"]
        let hint = try XCTUnwrap(PipeWirePresence.hint(
            after: JACKError.serverNotRunning(serverName: "default"), arguments: arguments, environment: environment))
        XCTAssertTrue(hint.contains("its socket \(directory.path)/pipewire-0"), hint)
        if PipeWirePresence.isLibjackPipeWires {
            XCTAssertTrue(hint.contains("no remote named 'default'"), hint)
        } else {
            XCTAssertTrue(hint.hasSuffix("\n    pw-jack foldback run 'my show.toml' --no-connect"), hint)
        }
        XCTAssertNil(PipeWirePresence.hint(after: JACKError.portNotFound(port: "x:y"), arguments: arguments, environment: environment))
    }

    /// A Unix stream socket bound and listening at `path`, as a daemon's.
    private static func listeningSocket(at path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 1) == 0 else {
            close(descriptor)
            throw XCTSkip("cannot create a Unix socket at \(path)")
        }
        return descriptor
    }
}
