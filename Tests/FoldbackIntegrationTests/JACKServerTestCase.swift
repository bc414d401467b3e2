// A test-case base class that runs one private `jackd -d dummy` (or PipeWire daemon) per test class. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackJACK
import XCTest

/// Starts `jackd -n fbtest-<pid>-<random> -d dummy` once per subclass (at ``sampleRate`` and
/// ``period``) and stops it after the class's last test. Tests are skipped only when `jackd` is not
/// installed; any other start failure fails them.
class JACKServerTestCase: XCTestCase {
    /// The server's sample rate, in hertz; override per class.
    class var sampleRate: Int { 48_000 }
    /// The server's period, in frames; override per class.
    class var period: Int { 256 }

    nonisolated(unsafe) private static var servers: [ObjectIdentifier: Result<any TestJACKServer, any Error>] = [:]
    private static let serversLock = NSLock()

    override class func setUp() {
        super.setUp()
        let result = Result {
            try TestJACKServers.start(
                serverName: JACKServerLauncher.uniqueServerName(prefix: "fbtest"), sampleRate: sampleRate, period: period)
        }
        serversLock.withLock { servers[ObjectIdentifier(self)] = result }
    }

    override class func tearDown() {
        let result = serversLock.withLock { servers.removeValue(forKey: ObjectIdentifier(self)) }
        if case .success(let server) = result { server.stop() }
        super.tearDown()
    }

    /// The running server for this class.
    var server: any TestJACKServer {
        get throws {
            let result = Self.serversLock.withLock { Self.servers[ObjectIdentifier(type(of: self))] }
            switch result {
            case .success(let server): return server
            case .failure(let error): throw error
            case nil: throw XCTSkip("The JACK server for this class was not started.")
            }
        }
    }

    /// The running server's name.
    var serverName: String {
        get throws { try server.serverName }
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        _ = try server
    }
}
