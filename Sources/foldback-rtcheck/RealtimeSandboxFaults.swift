// The realtime check's sandbox faults (its process killed, then stopped as a hang) and what it proves of every sandbox of the run. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackSandbox
import Glibc

/// Strikes the running graph's sandboxed unit while the audio thread plays on: SIGKILL a third in (a crash), SIGSTOP two
/// thirds in (a hang: its unit waits each cycle until the deadline, then falls back, until the supervisor kills and
/// restarts it). Each must be detected and the plugin back (delivering again) within ``recoveryLimit``; meanwhile graph
/// swaps wait (``isUnderway``) so the faulted sandbox stays the running one. It also keeps every sandbox the run used,
/// to check at the end that none faulted by itself (a RealtimeSanitizer abort in the sandbox is an exit) and that the
/// sandboxes' own cycles allocated and freed nothing (the preloaded counter in the sandbox process, read from its channel).
final class RealtimeSandboxFaults {
    static let recoveryLimit: Duration = .seconds(10)

    private enum Fault: CaseIterable {
        case kill, stop

        var signal: Int32 { self == .kill ? SIGKILL : SIGSTOP }
        var expected: String { self == .kill ? "crashed" : "hang" }
    }

    private struct Underway {
        let fault: Fault
        let process: SandboxProcess
        let restartsBefore: Int
        let since: ContinuousClock.Instant
        /// The delivered count once the restart was noticed: the plugin is back when it moves.
        var deliveredAtRestart: Int?
    }

    private var next = 0
    private var underway: Underway?
    /// Every sandbox of the run (each graph's, as it ran), by identity.
    private var seen: [ObjectIdentifier: SandboxProcess] = [:]
    /// The highest allocation and free counts each sandbox process published (a restart starts a new count).
    private var sandboxAllocations = 0, sandboxFrees = 0
    private var countedSandboxes = 0
    private(set) var failures: [String] = []
    private var recoveries: [String] = []

    /// Whether a fault is being recovered from (swaps wait).
    var isUnderway: Bool { underway != nil }

    /// One step of the control loop.
    func service(engine: Engine, cyclesDone: Int, cycles: Int) {
        guard let process = Self.sandbox(of: engine.runningGraph) else { return }
        for other in Self.allSandboxes(of: engine.runningGraph) { observe(other) }
        if var current = underway {
            serviceUnderway(&current)
            return
        }
        guard next < Fault.allCases.count, cyclesDone >= (next + 1) * cycles / (Fault.allCases.count + 1),
              process.phase == .running, let pid = process.processIdentifier
        else { return }
        let fault = Fault.allCases[next]
        next += 1
        underway = Underway(fault: fault, process: process, restartsBefore: process.restarts, since: .now)
        kill(pid, fault.signal)
    }

    private func serviceUnderway(_ current: inout Underway) {
        let process = current.process
        if current.deliveredAtRestart == nil, process.restarts > current.restartsBefore {
            current.deliveredAtRestart = process.channel.delivered
        }
        if let delivered = current.deliveredAtRestart, process.phase == .running, process.channel.delivered > delivered {
            let fault = process.lastFault ?? "none"
            if !fault.hasPrefix(current.fault.expected) { failures.append("a \(current.fault) of the sandbox was taken for '\(fault)'") }
            recoveries.append("\(current.fault) (\(fault)) back after \(RealtimeSandboxFaults.milliseconds(ContinuousClock.now - current.since)) ms")
            underway = nil
        } else if ContinuousClock.now - current.since > Self.recoveryLimit {
            failures.append("the sandbox was not back within \(Self.recoveryLimit) of its \(current.fault) (phase \(process.phase), fault \(process.lastFault ?? "none"))")
            underway = nil
        } else {
            underway = current
        }
    }

    /// Keeps `process` and the highest counts it published.
    private func observe(_ process: SandboxProcess) {
        seen[ObjectIdentifier(process)] = process
        let channel = process.channel
        if channel.countsAllocations {
            sandboxAllocations = max(sandboxAllocations, channel.sandboxAllocations)
            sandboxFrees = max(sandboxFrees, channel.sandboxFrees)
        }
    }

    /// The end of the run: every fault recovered, no sandbox faulted by itself, the sandboxes' cycles allocation-free.
    func finish(engine: Engine, countingAllocations: Bool) {
        for process in Self.allSandboxes(of: engine.runningGraph) { observe(process) }
        countedSandboxes = seen.values.filter(\.channel.countsAllocations).count
        if next < Fault.allCases.count || underway != nil { failures.append("only \(recoveries.count) of \(Fault.allCases.count) sandbox faults were recovered") }
        let deliberate = Fault.allCases.count
        let restarts = seen.values.reduce(0) { $0 + $1.restarts }
        let unexpected = seen.values.compactMap { process in process.lastFault.map { (process.restarts, $0) } }
            .filter { !$0.1.hasPrefix("crashed: signal 9") && !$0.1.hasPrefix("hang") }
        if restarts < deliberate { failures.append("\(restarts) sandbox restarts, expected at least \(deliberate)") }
        if seen.values.allSatisfy({ $0.channel.postedCycles == 0 }) { failures.append("no sandbox cycle was posted at the start of a chunk") }
        for (_, fault) in unexpected { failures.append("a sandbox faulted by itself: \(fault)") }
        if countingAllocations {
            if countedSandboxes == 0 { failures.append("no sandbox counted its allocations (the counter is not preloaded in it)") }
            if sandboxAllocations != 0 || sandboxFrees != 0 {
                failures.append("a sandbox's cycles allocated \(sandboxAllocations)× and freed \(sandboxFrees)×")
            }
        }
    }

    var summary: String {
        let delivered = seen.values.reduce(0) { $0 + $1.channel.delivered }
        let late = seen.values.reduce(0) { $0 + $1.channel.lateTotal }
        let posted = seen.values.reduce(0) { $0 + $1.channel.postedCycles }
        return "\(seen.count) sandboxes (\(delivered) cycles delivered, \(posted) of them posted at the chunk's start, \(late) late; \(recoveries.joined(separator: ", ")))"
            + (countedSandboxes > 0 ? ", sandbox-side allocations \(sandboxAllocations), frees \(sandboxFrees)" : "")
    }

    /// The sandboxed unit of `graph`, if it has one.
    private static func sandbox(of graph: EngineGraph?) -> SandboxProcess? {
        guard let strips = graph?.description.strips, strips.indices.contains(RealtimeScenario.sandboxedStrip) else { return nil }
        let units = strips[RealtimeScenario.sandboxedStrip].units
        guard units.indices.contains(RealtimeScenario.sandboxedIndex) else { return nil }
        return (units[RealtimeScenario.sandboxedIndex] as? SandboxedUnit)?.process
    }

    /// Every sandbox `graph` runs (the unit's own and the strip group's).
    private static func allSandboxes(of graph: EngineGraph?) -> [SandboxProcess] {
        (graph?.description.strips ?? []).flatMap(\.units).compactMap { ($0 as? SandboxedUnit)?.process }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
