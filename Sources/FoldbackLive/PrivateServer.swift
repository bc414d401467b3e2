// The private JACK server `--start-server` starts (dummy, or a netjack2 slave kept running), stopped on exit. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import FoldbackEngine
package import FoldbackJACK
import Foundation

/// A `jackd` this process started. A dummy server that dies is waited for like any other server; a
/// netjack2 slave that exits is started again (checked twice a second), so Foldback rejoins it once its
/// master is back.
package final class PrivateServer: @unchecked Sendable {
    /// The name clients use to reach it.
    package let serverName: String
    private let lock = NSLock()
    private var launcher: JACKServerLauncher
    private var keeper: PeriodicWorker?
    /// When the keeper found the slave's jackd gone (only the keeper's thread touches it).
    private var exitSeen: Date?

    /// Starts `jackd -d dummy` at `options`' rate and period.
    package init(dummyNamed serverName: String, options: ShowOptions) throws(ShowError) {
        self.serverName = serverName
        do {
            launcher = try JACKServerLauncher(serverName: serverName, sampleRate: options.sampleRate, period: options.period)
        } catch {
            throw .failed("\(error)")
        }
        StandardError.writeLine("foldback: started a private JACK server '\(serverName)' (dummy driver, \(options.sampleRate) Hz, \(options.period) frames)")
    }

    /// Starts `jackd -d net` as `slave` and waits for its master (until a stop signal), then keeps it running.
    /// - Throws: ``ShowError/failed(_:)`` when jackd does not start, or exits before finding its master.
    package init(slave: JACKNetSlave, serverName: String) throws(ShowError) {
        self.serverName = serverName
        do {
            launcher = try slave.launch(serverName: serverName)
        } catch {
            throw .failed("\(error)")
        }
        StandardError.writeLine(
            "foldback: started a private netjack2 slave '\(serverName)' of the master at \(slave.masterAddress) port \(slave.port) "
                + "(on the master: '\(slave.name)', \(slave.captureChannels) in, \(slave.playbackChannels) out, "
                + "network latency \(slave.latencyCycles) cycle\(slave.latencyCycles == 1 ? "" : "s")); waiting for the master (Ctrl-C quits)")
        let launcher = launcher
        guard launcher.waitForMaster(until: { fb_stop_signal() != 0 }) || launcher.isRunning else {
            launcher.stop()
            throw .failed("the netjack2 slave '\(serverName)' exited before finding its master (see \(launcher.logURL.path))")
        }
        keeper = PeriodicWorker(name: "fb-netslave", period: .milliseconds(250)) { [weak self] in self?.restartIfExited(slave) }
        keeper?.start()
    }

    /// How long after its jackd exited the slave starts again, seconds: the master's netmanager first drops the
    /// dead slave (else the new one joins it under another name, `NAME-01`, and the two fight).
    static let restartDelay = 1.5

    /// Starts the slave again ``restartDelay`` after its jackd exited (not if ``stop()`` stopped it).
    private func restartIfExited(_ slave: JACKNetSlave) {
        guard !lock.withLock({ launcher.isRunning }) else { return }
        let now = Date()
        guard let seen = exitSeen else {
            exitSeen = now
            StandardError.writeLine(
                "foldback: the netjack2 slave '\(serverName)' exited; starting it again in \(Self.restartDelay) s (log: \(launcher.logURL.path))")
            return
        }
        guard now.timeIntervalSince(seen) >= Self.restartDelay else { return }
        exitSeen = nil
        do {
            let fresh = try slave.launch(serverName: serverName)
            lock.withLock { launcher = fresh }
        } catch {
            StandardError.writeLine("foldback: cannot start the netjack2 slave again yet: \(error)")
        }
    }

    /// Stops keeping it, then stops jackd. Safe to call twice.
    package func stop() {
        keeper?.stop()
        lock.withLock { launcher }.stop()
    }
}
