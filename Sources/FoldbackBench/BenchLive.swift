// `foldback bench --live`: the most reference-chain strips a private dummy jackd at 48 kHz / 64 frames carries. Non-realtime driver.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import Foundation
import FoldbackEngine
import FoldbackJACK
import FoldbackLive
import FoldbackJACKTesting
import FoldbackPresets

/// Runs N strips of the reference vocal chain live, each fed noise by a test player, and times
/// Foldback's own process callback inside the callback (monotonic clock, 1 µs histogram). Finds the
/// largest N whose callback time (max, or p99 with `byP99`) stays under half the period.
package struct BenchLive {
    package let seconds: Double
    package let byP99: Bool
    /// Threads rendering each cycle (the process callback's and JACK-created workers).
    package let threads: Int

    /// The largest count tried.
    package let maximumStrips: Int
    /// Each strip's units (TOML): the reference vocal chain of built-in units, or ``BenchCases/lv2Chain(isolation:)``.
    package let chain: String
    /// What the chain is, in the heading.
    package let chainName: String
    /// Whether the chain's plugins run in sandboxes: a trial then also counts the sandbox cycles that missed their
    /// deadline (their units played their fallback, which costs less than the plugins) and fits only when at most
    /// ``lateShareLimit`` of them did.
    package let isSandboxed: Bool
    package static let lateShareLimit = 0.001

    /// A search with trials of `seconds` each, judged by p99 (`byP99`) or by the maximum, on `threads` render
    /// threads, up to `maximumStrips` strips (clamped to ``strips``).
    /// With `lv2Isolation`, each strip runs the chain as LV2 plugins at that isolation.
    package init(seconds: Double, byP99: Bool, threads: Int = 1, maximumStrips: Int = BenchLive.strips.upperBound, lv2Isolation: String? = nil) {
        (self.seconds, self.byP99, self.threads) = (seconds, byP99, threads)
        chain = lv2Isolation.map { BenchCases.lv2Chain(isolation: $0) } ?? BenchCases.referenceChain
        chainName = lv2Isolation.map { "the LV2 vocal chain (fil4 → darc → plate), isolation \"\($0)\"" } ?? "the reference vocal chain"
        isSandboxed = lv2Isolation.map { $0 != "none" } ?? false
        self.maximumStrips = min(max(maximumStrips, Self.strips.lowerBound), Self.strips.upperBound)
    }
    package static let sampleRate = 48_000
    package static let period = 64
    /// The search's widest range (each trial's engine is sized to its preset, so any count runs).
    package static let strips = 1...4_096

    /// One measured strip count.
    package struct Trial {
        package var strips: Int
        package var maxMicroseconds: Double
        package var p99Microseconds: Double
        package var cycles: Int
        /// Under half the period by the chosen statistic.
        package var fits: Bool
    }

    /// The budget: half of one period, in microseconds.
    package static var budgetMicroseconds: Double { 0.5 * Double(period) / Double(sampleRate) * 1e6 }

    /// The largest fits found: on ``threads`` threads and, when that is more than one, on one thread too.
    package struct Outcome {
        package var best: Trial?
        package var oneThread: Trial?
    }

    /// Doubles the strip count until a count misses the budget (in two trials), then bisects, then looks at
    /// the answer once more (``StripCountSearch``); prints each trial.
    /// With more than one thread, a one-thread search takes turns with it, count by count, so both see the
    /// same machine (its load moves the absolute counts) and the gain compares like with like.
    package func run() throws -> Outcome {
        let isPaired = threads > 1
        print(String(format: "foldback bench --live: %@ per strip; private dummy jackd, %d Hz / %d frames; budget %.0f µs (50 %% of %.0f µs) by %@; %.1f s per trial; %d render thread%@",
                     chainName, Self.sampleRate, Self.period, Self.budgetMicroseconds, 2 * Self.budgetMicroseconds, byP99 ? "p99" : "max", seconds,
                     threads, isPaired ? "s, taking turns with a one-thread search" : ""))
        print("strips      max µs      p99 µs   cycles" + (isPaired ? "   worker share  wakes/cycle  threads" : "") + (isSandboxed ? "   late %" : ""))
        var searches = [(threads: threads, search: StripCountSearch(limit: maximumStrips))]
        if isPaired { searches.append((1, StripCountSearch(limit: maximumStrips))) }
        while searches.contains(where: { $0.search.nextCount != nil }) {
            for index in searches.indices {
                guard let strips = searches[index].search.nextCount else { continue }
                searches[index].search.record(try judge(strips: strips, threads: searches[index].threads, isPaired: isPaired))
            }
        }
        return Outcome(best: searches[0].search.best, oneThread: isPaired ? searches[1].search.best : nil)
    }

    /// A trial of `strips` strips and, when it misses the budget, one more: the count fits when either does
    /// (a burst of other load on a shared machine can push one trial's p99 over; both are printed).
    private func judge(strips: Int, threads: Int, isPaired: Bool) throws -> Trial {
        let first = try measure(strips: strips, threads: threads, isPaired: isPaired)
        return first.fits ? first : try measure(strips: strips, threads: threads, isPaired: isPaired)
    }

    /// Runs `strips` strips live for ``seconds`` of cycles on a fresh private server and reads the
    /// callback histogram. The server is stopped before the clients close: on a loaded machine a
    /// 64-frame dummy jackd can stop answering `jack_client_close`, and a dead server never blocks it.
    private func measure(strips: Int, threads: Int, isPaired: Bool) throws -> Trial {
        let preset = try PresetLoader.parse(BenchCases.vocalChains(strips: strips, chain: chain), path: "<bench --live \(strips) strips>")
        let launcher = try JACKServerLauncher(
            serverName: JACKServerLauncher.uniqueServerName(prefix: "fbbench"), sampleRate: Self.sampleRate,
            period: Self.period, timeout: 20)
        defer { launcher.stop() }
        let server = launcher.serverName
        let session = try LiveSession(preset: preset, clientName: "fb-bench", serverName: server, renderThreads: threads)
        let player = try JACKTestPlayer(
            name: "fb-bench-noise", serverName: server,
            signals: (0..<strips).map { .noise(seed: UInt32($0 + 1), level: -12) })
        defer {
            launcher.stop()
            player.close()
            session.close()
        }
        for (channel, port) in session.host.layout.inputPorts.enumerated() {
            if let warning = player.connect(channel: channel, to: "\(session.host.actualName):\(port.name)") { throw BenchLiveError(warning.description) }
        }
        let cycles = Int(seconds * Double(Self.sampleRate) / Double(Self.period))
        let sandboxes = BenchSandbox.sandboxes(of: session.engine.runningGraph)
        let before = sandboxes.map { ($0.channel.lateTotal, $0.channel.delivered) }
        fb_callback_timing_reset()
        fb_callback_timing_enable(1)
        defer { fb_callback_timing_enable(0) }
        let deadline = Date().addingTimeInterval(seconds * 4 + 10)
        while fb_callback_timing_count() < UInt64(cycles) {
            guard Date() < deadline else { throw BenchLiveError("only \(fb_callback_timing_count()) of \(cycles) cycles ran in time") }
            usleep(10_000)
            session.engine.collectGarbage()
        }
        fb_callback_timing_enable(0)
        let maximum = Double(fb_callback_timing_max_ns()) / 1000
        let p99 = Double(fb_callback_timing_percentile_ns(0.99)) / 1000
        let late = zip(sandboxes, before).reduce(0) { $0 + $1.0.channel.lateTotal - $1.1.0 }
        let served = late + zip(sandboxes, before).reduce(0) { $0 + $1.0.channel.delivered - $1.1.1 }
        let lateShare = Double(late) / Double(max(1, served))
        let trial = Trial(strips: strips, maxMicroseconds: maximum, p99Microseconds: p99, cycles: Int(fb_callback_timing_count()),
                          fits: (byP99 ? p99 : maximum) < Self.budgetMicroseconds && lateShare <= Self.lateShareLimit)
        var columns = isPaired ? (session.engine.renderTeamStatistics.map(Self.share) ?? Self.noShare) + String(format: " %8d", threads) : ""
        if isSandboxed { columns += String(format: " %8.2f", 100 * lateShare) }
        print(String(format: "%6d %11.1f %11.1f %8d", strips, maximum, p99, trial.cycles) + columns + "   " + (trial.fits ? "fits" : "over budget"))
        return trial
    }
}

extension BenchLive {
    /// The share columns of a one-thread row (no workers).
    static let noShare = String(repeating: " ", count: 12) + "- %" + String(repeating: " ", count: 12) + "-"

    /// The workers' share of the work items and the futex wakes per cycle, as bench columns.
    static func share(_ statistics: RenderTeamStatistics) -> String {
        let total = max(1, statistics.itemsByLane.reduce(0, +))
        let workers = statistics.itemsByLane.dropFirst().reduce(0, +)
        return String(format: "   %10.0f %%  %11.2f", 100 * Double(workers) / Double(total), Double(statistics.wakes) / Double(max(1, statistics.cycles)))
    }
}

/// A live benchmark that could not run.
package struct BenchLiveError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
