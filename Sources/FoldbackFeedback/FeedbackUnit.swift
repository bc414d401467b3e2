// The built-in `feedback` unit: 16 notches on the audio path, a worker thread finding rings off it. Setup non-realtime; render functions realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackDSP
public import FoldbackEngine
import Foundation

extension FeedbackSettings {
    /// ``fixedNotches`` as notch settings in slots 0, 1, … (at most ``NotchBank/maximumNotches``).
    var fixedSettings: [NotchSetting] {
        fixedNotches.prefix(NotchBank.maximumNotches).enumerated().map { slot, band in
            NotchSetting(slot: slot, frequency: band.frequency, depthDB: min(band.gainDB, 0), q: band.q, depthRateDBPerSecond: 0)
        }
    }
}

/// A feedback suppressor: up to 16 narrow cuts with no latency, placed by analysis off the audio thread.
///
/// The audio thread applies the notch commands waiting in a lock-free ring, runs the ``NotchBank`` and copies
/// its output (mono, or the mean of a stereo pair) into a second ring: the analysis judges a notch by its
/// effect. A worker thread, started in ``prepare(channels:sampleRate:maxFrames:)`` and stopped when the last
/// unit sharing its ``FeedbackCore`` is released, runs
/// ``FeedbackAnalysis`` (FFTW, ``HowlDetector``, ``NotchPlanner``) on the ring and sends the commands.
/// A unit made with `runsWorker: false` leaves the analysis to ``analyzePending()`` (tests, offline use).
public final class FeedbackUnit: EngineUnit, @unchecked Sendable {
    public let typeName = "feedback"
    /// Live parameters: 0 `mode` (0 ring-out, 1 live), 1 `max_depth_db` (−40 … −3), 2 `hold_s` (0.5 … 600); the
    /// analysis takes a change on its next pass (existing notches keep their depth until next changed).
    public let parameters: [ParameterDescriptor]
    /// The settings it was made with.
    public let settings: FeedbackSettings
    /// The name used in log lines (`strip vox`).
    public let label: String
    private let runsWorker: Bool
    private let onEvent: (@Sendable (FeedbackEvent) -> Void)?
    private var core: FeedbackCore?

    /// A suppressor with `settings`, logging as `label`; `onEvent` hears every notch change on the analysis thread.
    public init(settings: FeedbackSettings = FeedbackSettings(), label: String = "feedback", runsWorker: Bool = true,
                onEvent: (@Sendable (FeedbackEvent) -> Void)? = nil) {
        self.settings = settings
        parameters = settings.parameters
        self.label = label
        self.runsWorker = runsWorker
        self.onEvent = onEvent
    }

    public func prepare(channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitRenderSlot {
        guard core == nil else { throw .unitSetupFailed(unit: typeName, reason: "already prepared; build a new unit for each graph") }
        guard channels == 1 || channels == 2 else { throw .unsupportedChannelCount(name: typeName, channels: channels) }
        guard sampleRate.isFinite, (8000...768_000).contains(sampleRate) else {
            throw .unitSetupFailed(unit: typeName, reason: "runs at 8 kHz to 768 kHz, not \(sampleRate) Hz")
        }
        guard let core = FeedbackCore(settings: settings, parameters: parameters.map(\.defaultValue), channels: channels, sampleRate: sampleRate,
                                      maxFrames: maxFrames, label: label, runsWorker: runsWorker, onEvent: onEvent) else {
            throw .unitSetupFailed(unit: typeName, reason: "FFTW could not plan the analysis transform")
        }
        self.core = core
        return slot(core)
    }

    /// Carries on a running feedback unit set up the same way (mode and depth limits may differ; the same saved
    /// bands) in the same format: its notches, found rings and analysis go on through the preset switch, and this
    /// unit's `mode`, `max_depth_db` and `hold_s` are applied at the takeover.
    public func prepare(continuing predecessor: any EngineUnit, channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitContinuation? {
        guard core == nil, let old = predecessor as? FeedbackUnit, let running = old.core, running.channels == channels,
              running.sampleRate == sampleRate, running.maxFrames >= maxFrames, old.settings.fixedNotches == settings.fixedNotches
        else { return nil }
        core = running
        return UnitContinuation(slot: slot(running), parameterValues: parameters.map(\.defaultValue))
    }

    /// Whether this unit runs the same notches and analysis as `other` (one continues the other).
    func shares(with other: FeedbackUnit) -> Bool { core != nil && core === other.core }

    private func slot(_ core: FeedbackCore) -> UnitRenderSlot {
        UnitRenderSlot(functions: Self.functions, state: UnsafeMutableRawPointer(core.state), inputChannels: core.channels, outputChannels: core.channels)
    }

    /// Runs the analysis over everything the audio thread has written so far (units made with `runsWorker: false`,
    /// or driven by an offline render).
    public func analyzePending() { core?.analysis.pump() }

    /// Whether the analysis rests: its input has been digital silence long enough that only the planner runs, and
    /// the worker looks at the ring every 100 ms instead of 10. Read it where the analysis runs (tests).
    package var isAnalysisResting: Bool { core?.analysis.isResting ?? false }

    /// The mode it runs in now: its `mode` parameter as last set (in the preset, or live over OSC, MIDI or the web).
    public var mode: FeedbackMode { core?.analysis.mode ?? settings.mode }

    /// Clears notch `number` (1 … 16, as in the meters' `notch<n>_…`) on the analysis's next pass: a ring-out's
    /// notch (found, or loaded as a saved band) or a live one; a ring still there is found again. False when
    /// that notch is not in place.
    public func clearNotch(_ number: Int) -> Bool { core?.analysis.requestClear(number - 1) ?? false }

    /// The notches placed now (slot, frequency, depth, width), as the analysis set them.
    public var notches: [NotchSetting] { core?.analysis.notches ?? [] }

    /// Every notch change so far (the most recent 256).
    public var events: [FeedbackEvent] { core?.analysis.events ?? [] }

    /// The notches as fixed EQ bands (peaks with their cut and Q), e.g. to save a ring-out into a preset.
    public var notchBands: [EQBand] {
        notches.filter { $0.depthDB < 0 }.map { EQBand(type: .peak, frequency: $0.frequency, gainDB: $0.depthDB, q: $0.q) }
    }

    /// Each placed notch's age and the time since it last changed (deepened, widened), by slot, in seconds of
    /// analysed input (wall-clock time while live): recorded by the analysis when it places and changes notches.
    public var notchAges: [Int: (age: Double, sinceChange: Double)] { core?.analysis.notchAges ?? [:] }

    /// Active notches and each one's frequency, depth, age and time since it last changed (`notch<n>_freq_hz`,
    /// `notch<n>_depth_db`, `notch<n>_age_s`, `notch<n>_changed_s`).
    public func meterReadings() -> [UnitMeterReading] {
        let active = notches.filter { $0.depthDB < 0 }
        let ages = notchAges
        var readings = [UnitMeterReading(key: "notches_active", value: Float(active.count))]
        for notch in active {
            let prefix = "notch\(notch.slot + 1)_"
            readings.append(UnitMeterReading(key: prefix + "freq_hz", value: Float(notch.frequency)))
            readings.append(UnitMeterReading(key: prefix + "depth_db", value: Float(notch.depthDB)))
            guard let age = ages[notch.slot] else { continue }
            readings.append(UnitMeterReading(key: prefix + "age_s", value: Float(age.age)))
            readings.append(UnitMeterReading(key: prefix + "changed_s", value: Float(age.sinceChange)))
        }
        return readings
    }

    private static let functions = UnitRenderFunctions(
        process: { state, inputs, outputs, frames in
            let unit = state.assumingMemoryBound(to: FeedbackCore.State.self)
            applyCommands(unit)
            let count = Int(frames)
            unit.pointee.bank.process(inputs: inputs, outputs: outputs, frames: count)
            let last = unit.pointee.bank.channels - 1
            unit.pointee.samples.write(UnsafePointer(outputs[0]), UnsafePointer(outputs[last]), frames: count)
        },
        setParameter: { state, index, value in
            state.assumingMemoryBound(to: FeedbackCore.State.self).pointee.live.store(index, value)
        },
        reset: { state in
            state.assumingMemoryBound(to: FeedbackCore.State.self).pointee.bank.reset()
        },
        // At rest (every placed notch's filter holds zeros) the unit still takes the analysis's commands, glides its
        // notches and feeds the analysis its zeros every chunk: only the filtering of zeros is skipped.
        rest: UnitRest(
            { state, frames in
                guard state.assumingMemoryBound(to: FeedbackCore.State.self).pointee.bank.isAtRest() else { return false }
                advanceAtRest(state, frames: frames)
                return true
            },
            advance: { state, frames in advanceAtRest(state, frames: frames) },
            advancesEachChunk: true)
    )

    /// Applies the notch commands the analysis sent (audio thread).
    @inline(__always)
    private static func applyCommands(_ unit: UnsafeMutablePointer<FeedbackCore.State>) {
        while let command = unit.pointee.commands.pop() {
            unit.pointee.bank.setNotch(Int(command.slot), frequency: Double(command.frequency), depthDB: Double(command.depthDB),
                                       q: Double(command.q), depthRateDBPerSecond: Double(command.depthRate))
        }
    }

    /// What processing `frames` frames of zeros does at rest: commands, glides and the zeros for the analysis.
    private static func advanceAtRest(_ state: UnsafeMutableRawPointer, frames: Int32) {
        let unit = state.assumingMemoryBound(to: FeedbackCore.State.self)
        applyCommands(unit)
        unit.pointee.bank.advanceAtRest(frames: Int(frames))
        unit.pointee.samples.writeSilence(frames: Int(frames))
    }
}

extension FeedbackUnit: OfflineDrivenUnit {
    /// An offline render runs the analysis itself after every cycle: the worker stops.
    public func beginOfflineRendering() { core?.stopWorker() }

    /// One cycle's analysis (as ``analyzePending()``).
    public func offlineStep() { analyzePending() }
}
