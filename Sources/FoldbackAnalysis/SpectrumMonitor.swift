// The live analyser: one selectable engine tap, drained 20 times a second by the `fb-analyser` worker into spectrum frames for the pages and OSC subscribers that want them. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine
import Glibc
import Synchronization

/// Runs the engineer's spectrum analyser on one point of the playing graph at a time.
///
/// The session attaches the tap to every graph it builds (``attach(to:)``); a surface selects a point
/// (``select(_:in:)``) and says it wants frames (``setInterest(_:_:)``). The audio thread copies the point
/// only while a point is selected and someone is interested; the `fb-analyser` worker then drains the ring
/// every ``interval`` and publishes a ``SpectrumFrame`` (``latest``, and to each listener), and otherwise
/// sleeps. A preset switch keeps the selection when the new graph has the point, and stops it when not.
public final class SpectrumMonitor: @unchecked Sendable {
    /// Seconds between frames (20 a second).
    public static let interval = 0.05
    /// Frames the tap's ring holds (0.68 s at 48 kHz; the worker drains every ``interval``).
    public static let ringFrames = 32_768

    /// The engine tap (attach it with ``attach(to:)``).
    public let tap = AnalyserTap(frames: ringFrames)

    private struct Selection {
        var point: AnalyserPoint?
        weak var graph: EngineGraph?
        var interested: Set<String> = []
        var generation = 0
        var latest: (sequence: Int, frame: SpectrumFrame)?
        var listeners: [String: @Sendable (SpectrumFrame) -> Void] = [:]
    }

    private let selection = Mutex(Selection())
    private let worker: Mutex<PeriodicWorker?> = Mutex(nil)
    private let scratch = UnsafeMutablePointer<Float>.allocate(capacity: SpectrumMonitor.ringFrames * 2)
    // The worker's own:
    private var analysis: SpectrumAnalysis?
    private var seenGeneration = -1
    private var sequence = 0
    private let cpu = Mutex<(seconds: Double, frames: Int)>((0, 0))

    /// A monitor with nothing selected; its worker starts with the first selection.
    public init() {
        // Touched now, so a late drain's backlog does not raise the show's RSS in the middle of it.
        scratch.initialize(repeating: 0, count: Self.ringFrames * 2)
    }

    deinit {
        stop()
        scratch.deallocate()
    }

    /// Lets the analyser listen to `graph` (call before installing it), carrying the selection over when `graph` has the point.
    public func attach(to graph: EngineGraph) {
        graph.attachAnalyserTap(tap)
        selection.withLock { state in
            state.graph = graph
            apply(state)
        }
        worker.withLock { $0 }?.wake()   // a worker asleep since the last graph lacked the point
    }

    /// Selects `point` of `graph` (the playing one), or nothing with nil.
    /// - Throws: ``EngineError/unknownTapPoint(_:)`` when `graph` has no such strip or bus; nothing changes.
    public func select(_ point: AnalyserPoint?, in graph: EngineGraph) throws(EngineError) {
        if let point, !AnalyserPoint.all(in: graph.description).contains(point) { throw .unknownTapPoint(point.description) }
        selection.withLock { state in
            state.point = point
            state.graph = graph
            state.generation += 1
            state.latest = nil
            apply(state)
        }
        startIfNeeded()
    }

    /// The point selected now (it may be off while nobody is interested).
    public var selected: AnalyserPoint? { selection.withLock { $0.point } }

    /// Says whether `consumer` (e.g. `web`, `osc`) wants frames; the tap runs while any does.
    public func setInterest(_ consumer: String, _ isInterested: Bool) {
        selection.withLock { state in
            if isInterested { state.interested.insert(consumer) } else { state.interested.remove(consumer) }
            apply(state)
        }
        startIfNeeded()
    }

    /// Calls `listener` on the worker thread with every frame, under `key` (replacing one of the same key); nil removes it.
    public func setListener(_ key: String, _ listener: (@Sendable (SpectrumFrame) -> Void)?) {
        selection.withLock { $0.listeners[key] = listener }
    }

    /// The newest frame of the current selection and its sequence number (one up per frame), or nil.
    public var latest: (sequence: Int, frame: SpectrumFrame)? { selection.withLock { $0.latest } }

    /// CPU time the worker has spent analysing, seconds, and the frames it made.
    public var workerCPU: (seconds: Double, frames: Int) { cpu.withLock { $0 } }

    /// Stops the worker. Safe to call twice.
    public func stop() {
        worker.withLock { $0 }?.stop()
    }

    /// With the selection locked: points the tap at the selection when someone is interested, else off.
    private func apply(_ state: Selection) {
        guard let point = state.point, !state.interested.isEmpty, let graph = state.graph else {
            tap.deselect()
            return
        }
        do { try tap.select(point, in: graph) } catch { tap.deselect() }   // the new graph lacks the point
    }

    private func startIfNeeded() {
        let made: PeriodicWorker? = worker.withLock { current in
            guard current == nil else { return nil }
            let made = PeriodicWorker(name: "fb-analyser") { [weak self] in self?.run() ?? .whenWoken }
            current = made
            return made
        }
        made?.start()
        worker.withLock { $0 }?.wake()
    }

    /// One worker run: drains the ring and publishes a frame; asleep while the tap is off.
    private func run() -> PeriodicWorker.Next {
        let (point, generation, sampleRate) = selection.withLock { ($0.point, $0.generation, $0.graph?.sampleRate) }
        guard tap.isSelected, let point, let sampleRate else {
            drain { _ in }
            return .whenWoken
        }
        let started = Self.threadCPU()
        if analysis?.sampleRate != sampleRate { analysis = SpectrumAnalysis(sampleRate: sampleRate) }
        guard let analysis else { return .whenWoken }
        if generation != seenGeneration {
            seenGeneration = generation
            drain { _ in }   // what the previous point left
            analysis.reset()
        }
        var frames = 0
        drain { count in
            analysis.append(interleaved: scratch, channels: 2, frames: count)
            frames += count
        }
        guard frames > 0 else { return .after(.seconds(Self.interval)) }
        let frame = analysis.analyse(source: point.description, elapsed: Double(frames) / sampleRate)
        sequence += 1
        let listeners: [@Sendable (SpectrumFrame) -> Void] = selection.withLock { state in
            guard state.generation == generation else { return [] }
            state.latest = (sequence, frame)
            return Array(state.listeners.values)
        }
        for listener in listeners { listener(frame) }
        let spent = Self.threadCPU() - started
        cpu.withLock { $0 = ($0.seconds + spent, $0.frames + 1) }
        return .after(.seconds(max(0.005, Self.interval - spent)))
    }

    /// Moves everything waiting in the ring through `body` (frame counts of ``scratch``).
    private func drain(_ body: (Int) -> Void) {
        while true {
            let count = tap.ring.drain(into: scratch, maxFrames: Self.ringFrames)
            guard count > 0 else { return }
            body(count)
        }
    }

    private static func threadCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
