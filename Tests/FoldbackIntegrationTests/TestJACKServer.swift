// The JACK server a test runs on: a private jackd, or a private PipeWire daemon under FOLDBACK_TEST_SERVER=pipewire. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackJACK
import XCTest

/// A private server the tests started and will stop, reached by ``serverName``.
protocol TestJACKServer: AnyObject {
    /// The name JACK clients pass to reach it.
    var serverName: String { get }
    /// Stops it in order (SIGTERM), as `systemctl --user restart pipewire` or a user quitting jackd.
    func stop()
    /// Kills it (SIGKILL), as a crash.
    func kill()
}

extension JACKServerLauncher: TestJACKServer {}

extension PipeWireDaemon: TestJACKServer {
    var serverName: String { name }
}

/// Which server the tests start: jackd (the default), or PipeWire with `FOLDBACK_TEST_SERVER=pipewire`, where
/// the test process and every JACK program it starts must load PipeWire's libjack (`scripts/pipewire-tests.sh`
/// sets `LD_LIBRARY_PATH` as `pw-jack` does).
enum TestJACKServers {
    /// Whether the tests run on PipeWire.
    static var isPipeWire: Bool { PipeWireDaemon.isSelectedForTests }

    /// Starts a private server of the selected kind named `serverName` at `sampleRate` and `period`.
    /// - Throws: `XCTSkip` when that server is not installed; an error when it cannot start, or when PipeWire
    ///   is selected but this process runs jackd's libjack.
    static func start(serverName: String, sampleRate: Int = 48_000, period: Int = 256, timeout: Double = 20) throws -> any TestJACKServer {
        guard isPipeWire else {
            guard JACKServerLauncher.jackdPath() != nil else { throw XCTSkip("jackd is not installed; install jackd2 to run JACK tests.") }
            return try JACKServerLauncher(serverName: serverName, sampleRate: sampleRate, period: period, timeout: timeout)
        }
        guard PipeWirePresence.isLibjackPipeWires else {
            throw PipeWireDaemon.StartFailure(
                description: "FOLDBACK_TEST_SERVER=pipewire but this test process runs jackd's libjack: "
                    + "run it through scripts/pipewire-tests.sh (or pw-jack)", isNotInstalled: false)
        }
        do {
            let daemon = try PipeWireDaemon(name: serverName, sampleRate: sampleRate, quantum: period, timeout: timeout)
            // Ready for JACK clients once one can open (the daemon loads its drivers after creating its socket).
            try waitFor("a JACK client on PipeWire '\(serverName)'", timeout: timeout) {
                guard let probe = try? JACKClient(name: "fb-launch-probe", serverName: serverName) else { return false }
                probe.close()
                return true
            }
            return daemon
        } catch let failure as PipeWireDaemon.StartFailure where failure.isNotInstalled {
            throw XCTSkip("PipeWire cannot start here: \(failure)")
        }
    }
}
