// Foldback on a netjack2 slave losing 1 % and 10 % of its packets, inside a network namespace of the test's own (loopback only). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackJACK
import FoldbackTestSupport
import XCTest

final class NetJACKLossTests: XCTestCase {
    /// The master, its netmanager and a Foldback slave run inside a fresh network namespace whose loopback drops
    /// packets at random (`tc qdisc … netem loss`); the test client on the master reaches jackd through its
    /// Unix socket, which no network namespace separates. At 1 % and then 10 % loss Foldback keeps running,
    /// most periods still carry the tone back to the master, and Foldback counts the xruns it saw.
    /// Skipped (with the reason) where the test cannot make a namespace or the kernel has no netem.
    func testPacketLossKeepsFoldbackRunningAndAudioFlowing() throws {
        guard JACKServerLauncher.jackdPath() != nil else { throw XCTSkip("jackd is not installed") }
        let namespace = try LossyLoopback()
        defer { namespace.close() }
        let name = "lossy\(getpid())"
        let rig = try NetJACKRig(slaveNames: [name], prefix: namespace.prefix, testBundle: Bundle(for: Self.self))
        let run = rig.slaves[0]
        let client = try XCTUnwrap(rig.client)
        for loss in [1, 10] {
            try namespace.setLoss(percent: loss)
            let take = try client.record(frames: 48_000, settleFrames: 4_800, attempts: 1, timeout: 10, requiresContinuity: false)
            let blocks = stride(from: 0, to: take.frameCount - 127, by: 128).map { start in
                take.channels[0][start..<start + 128].reduce(0) { $0 + Double($1 * $1) } / 128
            }
            let carrying = Double(blocks.filter { 10 * log10(max($0, 1e-20)) > -40 }.count) / Double(blocks.count)
            print("\(loss) % loss: \(String(format: "%.1f", carrying * 100)) % of periods carry the signal back to the master; "
                + "master client xruns \(client.recorder.xrunCount), gaps \(client.recorder.lastTakeGaps)")
            XCTAssertTrue(run.process.isRunning, "\(loss) % loss: foldback keeps running")
            XCTAssertGreaterThan(carrying, loss == 1 ? 0.9 : 0.5, "\(loss) % loss: the audio continues")
        }
        run.stop()
        XCTAssertEqual(run.process.terminationStatus, 0, run.standardError)
        let xruns = run.standardError.split(separator: "\n").first { $0.hasSuffix("xrun(s) while running") }
        XCTAssertNotNil(xruns, "foldback counts the xruns it saw:\n\(run.standardError)")
        print("foldback on the lossy slave: \(xruns ?? "no count")")
    }
}

/// A network namespace of the test's own with its loopback up and a `netem` queue on it, held by a
/// `sleep` inside it; ``prefix`` runs a command there. Throws `XCTSkip` (with the reason) where namespaces
/// or netem are not allowed: not root, no `unshare`/`tc`, or a kernel without `sch_netem`.
final class LossyLoopback {
    private let holder = Process()
    private let pid: Int32

    init() throws {
        guard getuid() == 0 else {
            throw XCTSkip("packet-loss test needs root: the master, its slave and their test client share a network namespace entered with nsenter")
        }
        for tool in ["unshare", "nsenter", "tc", "ip"] where Self.which(tool) == nil {
            throw XCTSkip("packet-loss test needs \(tool) (util-linux, iproute2)")
        }
        let errors = Pipe()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["unshare", "-n", "sh", "-c", "ip link set lo up && tc qdisc add dev lo root netem loss 0% && exec sleep 600"]
        holder.standardError = errors
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        pid = holder.processIdentifier
        // Ready once the netem queue shows inside the namespace; a failure ends the holder with tc's reason.
        let deadline = Date().addingTimeInterval(5)
        while !((try? Self.output(["nsenter", "-t", String(pid), "-n", "tc", "qdisc", "show", "dev", "lo"])) ?? "").contains("netem") {
            guard holder.isRunning else {
                let reason = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                throw XCTSkip("packet-loss test cannot make a lossy loopback here (unshare -n; tc qdisc add dev lo root netem): \(reason)")
            }
            guard Date() < deadline else {
                close()
                throw XCTSkip("packet-loss test: the namespace's netem queue did not appear within 5 s")
            }
            usleep(20_000)
        }
    }

    /// Runs a command inside the namespace.
    var prefix: [String] { ["nsenter", "-t", String(pid), "-n"] }

    /// Drops `percent` % of the loopback's packets at random from now on.
    func setLoss(percent: Int) throws {
        _ = try Self.output(prefix + ["tc", "qdisc", "change", "dev", "lo", "root", "netem", "loss", "\(percent)%"])
    }

    /// Ends the holder; the namespace goes with its last process.
    func close() {
        guard holder.isRunning else { return }
        holder.terminate()
        _ = holder.waitUntilExit(within: 5)
    }

    private static func which(_ tool: String) -> String? {
        ["/usr/sbin", "/usr/bin", "/sbin", "/bin"].map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The standard output of the command line `arguments` (no JACK server involved).
    private static func output(_ arguments: [String]) throws -> String {
        try JACKTools.run(arguments, server: "")
    }
}
