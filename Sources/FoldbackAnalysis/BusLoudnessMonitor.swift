// Loudness of every bus and the ear dose of in-ear buses, measured on a worker thread from the engine's analysis taps. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine
import Foundation
import Synchronization

/// A bus to measure.
public struct LoudnessBus: Sendable, Equatable {
    /// The bus name.
    public var name: String
    /// Its channel count.
    public var channels: Int
    /// Whether it feeds in-ear monitors (mono is then heard by both ears, and its dose is tracked).
    public var isInEar: Bool
    /// Whether its peaks are true peaks (a bus someone hears: it has outputs or is in-ear); else sample peaks,
    /// which cost nothing beyond the loudness (an effect bus heard only through its return).
    public var measuresTruePeak: Bool

    /// A bus to measure.
    public init(name: String, channels: Int, isInEar: Bool, measuresTruePeak: Bool = true) {
        self.name = name
        self.channels = channels
        self.isInEar = isInEar
        self.measuresTruePeak = measuresTruePeak
    }
}

/// One bus's latest figures.
public struct BusLoudness: Sendable {
    /// The bus name.
    public var name: String
    /// Its loudness and true peak.
    public var reading: LoudnessReading
    /// In-ear buses: the dose so far, percent.
    public var dosePercent: Double?
    /// In-ear buses: the dose at the end of the show at the last minute's rate, percent.
    public var projectedDosePercent: Double?

    /// One bus's figures.
    public init(name: String, reading: LoudnessReading, dosePercent: Double?, projectedDosePercent: Double?) {
        self.name = name
        self.reading = reading
        self.dosePercent = dosePercent
        self.projectedDosePercent = projectedDosePercent
    }
}

/// Drains one analysis tap per bus every ``interval`` seconds (``restingInterval`` while every bus rests) into libebur128, keeps each in-ear bus's
/// ear dose over the show, and warns (once per bus, again after falling below 90 %) when a projected
/// dose passes 100 %. Survives preset switches and sample-rate changes: a bus keeps its ring and its dose
/// while its name and channel count stay; a new rate restarts its loudness windows.
///
/// Digital silence costs next to nothing: once a bus has fed ``silenceSeconds`` of zeros (its momentary and
/// short-term windows hold nothing else, and silent blocks never pass the integrated gate), further zeros
/// only advance its dose clock until a sample is not zero.
public final class BusLoudnessMonitor: @unchecked Sendable {
    /// Frames per analysis ring (0.68 s at 48 kHz; the worker drains every ``interval``).
    public static let ringFrames = 32_768
    /// Seconds between drains.
    public static let interval = 0.05
    /// Seconds between drains while every bus rests (has fed ``silenceSeconds`` of zeros and its last drain held
    /// nothing else): a quarter of a second, or half a ring at the buses' rate when that is shorter, so a ring
    /// never fills. The first sound after a rest reaches the readings up to this late (nothing is lost: the ring
    /// holds it), then drains go back to ``interval``.
    public static let restingInterval = 0.25
    /// Seconds of zeros a bus feeds its meter before it skips them: the 3 s short-term window and a margin.
    public static let silenceSeconds = 3.5
    /// Seconds of sound between two readings: 10 a second, EBU Tech 3341's rate for momentary and short-term
    /// (the meter's 100 ms windows), and the span of each true-peak reading.
    public static let readingSeconds = 0.1

    private final class Entry {
        let bus: LoudnessBus
        let ring: TapRing
        var meter: LoudnessMeter?
        var dose: EarDose?
        var reading = LoudnessReading.silent
        var hasWarned = false
        /// Zero frames fed to the meter since its last sound (counted up to the skip threshold).
        var silentFrames = 0
        /// Frames fed to the meter since its last reading.
        var unreadFrames = 0

        init(bus: LoudnessBus, earSPLOffsetDB: Double) {
            self.bus = bus
            ring = TapRing(channels: bus.channels, frames: BusLoudnessMonitor.ringFrames)
            dose = bus.isInEar ? EarDose(earSPLOffsetDB: earSPLOffsetDB) : nil
        }
    }

    private let showSeconds: Double
    private let runsWorker: Bool
    /// Floats of the drain scratch: 8,192 frames of 8 channels (a ring with more waiting is drained in turns).
    private let scratchCapacity = 8_192 * 8
    private let pollScratch: UnsafeMutablePointer<Float>
    private let earSPLOffsetDB: Double
    private let warn: @Sendable (String) -> Void
    private let entries = Mutex<[String: Entry]>([:])
    private let order = Mutex<[String]>([])
    private var worker: PeriodicWorker?

    /// A monitor projecting doses to a show of `showSeconds`, with the ear level assumption
    /// `earSPLOffsetDB` (see ``EarDose``); `warn` receives each dose warning (a log line). With
    /// `runsWorker` false no thread starts and the owner drains the taps with ``poll()`` (offline renders, tests).
    public init(
        showSeconds: Double = 2 * 3600, earSPLOffsetDB: Double = EarDose.defaultEarSPLOffsetDB, runsWorker: Bool = true,
        warn: @escaping @Sendable (String) -> Void
    ) {
        self.showSeconds = showSeconds
        self.runsWorker = runsWorker
        pollScratch = .allocate(capacity: scratchCapacity)
        // Touched now: left to the drains, its pages became resident one late drain at a time (RSS steps of up
        // to 1 MiB at random minutes of a soak, whenever the machine held the worker back for longer than before).
        pollScratch.initialize(repeating: 0, count: scratchCapacity)
        self.earSPLOffsetDB = earSPLOffsetDB
        self.warn = warn
    }

    deinit {
        stop()
        pollScratch.deallocate()
    }

    /// Drains every tap once on the caller's thread; only for a monitor made with `runsWorker` false
    /// (a ring has one reader).
    public func poll() {
        guard !runsWorker else { return }
        for entry in entries.withLock({ Array($0.values) }) { measure(entry, scratch: pollScratch, capacity: scratchCapacity) }
    }

    /// Gives every bus of `buses` an analysis tap on `graph` (call before installing it), reusing the ring
    /// and dose of a bus measured before under the same name and channel count.
    public func attach(to graph: EngineGraph, buses: [LoudnessBus]) throws(EngineError) {
        let rate = Int(graph.sampleRate.rounded())
        let attached: [Entry] = entries.withLock { table in
            buses.map { bus in
                if let old = table[bus.name], old.bus == bus {
                    if old.meter?.sampleRate != rate {
                        old.meter = Self.meter(for: bus, sampleRate: rate)
                        old.silentFrames = 0
                    }
                    return old
                }
                let entry = Entry(bus: bus, earSPLOffsetDB: earSPLOffsetDB)
                entry.meter = Self.meter(for: bus, sampleRate: rate)
                if let old = table[bus.name], bus.isInEar, let dose = old.dose { entry.dose = dose }
                table[bus.name] = entry
                return entry
            }
        }
        for entry in attached { try graph.attachAnalysisTap(entry.ring, toBus: entry.bus.name) }
        order.withLock { $0 = buses.map(\.name) }
        start()
    }

    /// The latest figures of the current preset's buses, in preset order.
    public func snapshot() -> [BusLoudness] {
        let names = order.withLock { $0 }
        return entries.withLock { table in
            names.compactMap { name in
                guard let entry = table[name] else { return nil }
                return BusLoudness(
                    name: name, reading: entry.reading, dosePercent: entry.dose?.percent,
                    projectedDosePercent: entry.dose?.projectedPercent(showSeconds: showSeconds))
            }
        }
    }

    /// Stops the worker. Safe to call twice.
    public func stop() {
        worker?.stop()
    }

    private static func meter(for bus: LoudnessBus, sampleRate: Int) -> LoudnessMeter? {
        let layout: LoudnessChannelLayout = bus.channels > 1 ? .stereo : (bus.isInEar ? .dualMono : .mono)
        return LoudnessMeter(channels: bus.channels, sampleRate: sampleRate, layout: layout, measuresTruePeak: bus.measuresTruePeak)
    }

    private func start() {
        guard runsWorker, worker == nil else { return }
        let worker = PeriodicWorker(name: "fb-loudness") { [self] in
            // The worker's scratch: `poll()` never runs on a monitor with a worker.
            var isResting = true, rate = 48_000
            for entry in entries.withLock({ Array($0.values) }) {
                isResting = measure(entry, scratch: pollScratch, capacity: scratchCapacity) && isResting
                rate = max(rate, entry.meter?.sampleRate ?? 0)
            }
            guard isResting else { return .after(.seconds(Self.interval)) }
            return .after(.seconds(min(Self.restingInterval, Double(Self.ringFrames) / 2 / Double(rate))))
        }
        self.worker = worker
        worker.start()
    }

    /// Drains `entry`'s ring through its meter (skipping zeros past ``silenceSeconds``), updates its dose,
    /// warns past 100 % projected. Returns whether the bus rests: everything drained was zeros skipped at rest.
    @discardableResult
    private func measure(_ entry: Entry, scratch: UnsafeMutablePointer<Float>, capacity: Int) -> Bool {
        let channels = max(entry.bus.channels, 1)
        let maxFrames = capacity / channels
        let skipAfter = Int(Self.silenceSeconds * Double(entry.meter?.sampleRate ?? 48_000))
        var frames = 0, fed = 0
        while true {
            let drained = entry.ring.drain(into: scratch, maxFrames: maxFrames)
            guard drained > 0 else { break }
            frames += drained
            let trailingZeros = Self.trailingZeroFrames(scratch, frames: drained, channels: channels)
            if trailingZeros == drained, entry.silentFrames >= skipAfter { continue }
            entry.meter?.add(interleaved: scratch, frames: drained)
            fed += drained
            entry.silentFrames = trailingZeros == drained ? entry.silentFrames + drained : trailingZeros
        }
        guard frames > 0, let meter = entry.meter else { return fed == 0 }
        entry.unreadFrames += fed
        let isDue = Double(entry.unreadFrames) >= Self.readingSeconds * Double(meter.sampleRate) - 0.5
        let reading = isDue ? meter.read() : entry.reading
        if isDue { entry.unreadFrames = 0 }
        var message: String?
        entries.withLock { _ in
            entry.reading = reading
            guard var dose = entry.dose else { return }
            dose.add(seconds: Double(frames) / Double(meter.sampleRate), loudnessLUFS: reading.momentaryLUFS)
            entry.dose = dose
            let projected = dose.projectedPercent(showSeconds: showSeconds)
            if projected > 100, !entry.hasWarned {
                entry.hasWarned = true
                message = String(
                    format: "warning: in-ear bus '%@' is heading for %.0f %% of the daily noise dose by the end of a %.0f-minute show "
                        + "(now about %.0f dB SPL at the ear, assuming %.0f dB SPL for a 0 LUFS mix)",
                    entry.bus.name, projected, showSeconds / 60, dose.earLevelDB, dose.earSPLOffsetDB)
            } else if projected < 90 {
                entry.hasWarned = false
            }
        }
        if let message { warn(message) }
        return fed == 0
    }

    /// How many whole frames at the end of `frames` interleaved frames are exactly zero.
    private static func trailingZeroFrames(_ samples: UnsafePointer<Float>, frames: Int, channels: Int) -> Int {
        var magnitudes: UInt32 = 0   // ±0.0 alone: all zeros (one pass the compiler vectorises)
        for index in 0..<frames * channels { magnitudes |= samples[index].bitPattern & 0x7fff_ffff }
        if magnitudes == 0 { return frames }
        var index = frames * channels
        while index > 0, samples[index - 1] == 0 { index -= 1 }
        return frames - (index + channels - 1) / channels
    }
}
