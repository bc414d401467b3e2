// The feedback unit's analysis: drains the sample ring, runs the FFT, detector and planner, sends notch commands. Non-realtime (worker thread, or a test driving it).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackAnalysis
public import FoldbackDSP
import FoldbackEngine
import Foundation
import Logging
import Synchronization

/// When a notch was placed and last changed, in seconds of analysed input.
struct NotchTimes: Sendable {
    var placed: Double
    var changed: Double
}

/// What the suppressor did, for the log, meters and OSC.
public struct FeedbackEvent: Sendable, Hashable {
    /// Seconds of analysed input when it happened.
    public var time: Double
    /// The notch as set (depth 0 when released).
    public var notch: NotchSetting
    /// The ring's level when found, dBFS, or nil for a deepening or release.
    public var ringLevelDB: Double?
}

/// One analysis frame every ``hop`` samples (1/16 of the short transform, 5.3 ms at 48 kHz): two spectra of the
/// latest input, 80 ms and 170 ms long (4096 and 8192 points at 48 kHz), each with its own ``HowlDetector``. The
/// short one follows a fast ring closely; the long one resolves the resonances of a long loop (16 Hz apart at
/// 60 ms), which the short one sees as one beating crest. Either may report a ring to the one ``NotchPlanner``.
///
/// ``pump()`` does all the work the ring holds and returns; the unit's worker thread calls it a few
/// hundred times a second, a test may call it after each block to run faster than realtime deterministically.
final class FeedbackAnalysis: @unchecked Sendable {
    private static let logger = Logger(label: "foldback.feedback")
    let sampleRate: Double
    let hop: Int
    private let spectra: [SpectrumAnalyzer]
    private var detectors: [HowlDetector]
    private var planner: NotchPlanner
    private let samples: SampleRing
    private let commands: SPSCRing<NotchCommand>
    private let live: LiveSettings
    private var history: [Float]
    private var staged: [Float]
    private var stagedCount = 0
    private var framesAnalysed = 0
    /// Zero samples at the end of `history` (counted up to its length).
    private var trailingZeros = 0
    /// Frames analysed in a row on an all-zero window; whether the last full analysis of one found no ring.
    private var silentFrames = 0
    private var silenceIsSettled = false
    private let label: String
    private let published = Mutex(Published())
    private let clearRequests = Mutex<[Int]>([])
    /// Called on the analysis thread with each change (for OSC).
    let onEvent: (@Sendable (FeedbackEvent) -> Void)?

    /// Silent frames analysed in full before the rest are skipped (the detector forgets a track after 3 misses).
    static let silentFramesBeforeSkip = 8

    /// The FFT size for `sampleRate`: the power of two at or above 80 ms (4096 at 48 kHz: 11.7 Hz bins).
    static func transformSize(sampleRate: Double) -> Int {
        var size = 64
        while Double(size) < 0.08 * sampleRate { size <<= 1 }
        return size
    }

    init?(sampleRate: Double, settings: FeedbackSettings, samples: SampleRing, commands: SPSCRing<NotchCommand>,
          live: LiveSettings, label: String, onEvent: (@Sendable (FeedbackEvent) -> Void)?) {
        let size = Self.transformSize(sampleRate: sampleRate)
        guard let short = SpectrumAnalyzer(size: size), let long = SpectrumAnalyzer(size: 2 * size) else { return nil }
        self.sampleRate = sampleRate
        spectra = [short, long]
        hop = size / 16
        detectors = spectra.map { HowlDetector(binCount: $0.binCount, binWidth: sampleRate / Double($0.size), criteria: settings.criteria) }
        detectors[1].criteria.persistenceFrames *= 2      // a window twice as long: a ring must outlast it too
        planner = NotchPlanner(mode: settings.mode, maxDepthDB: Double(settings.maxDepthDB), holdSeconds: Double(settings.holdSeconds),
                               fixed: settings.fixedSettings)
        self.samples = samples
        self.commands = commands
        self.live = live
        self.label = label
        self.onEvent = onEvent
        history = Array(repeating: 0, count: 2 * size)
        staged = Array(repeating: 0, count: hop)
        let fixed = planner.activeNotches
        published.withLock { state in
            state.notches = fixed
            for notch in fixed { state.times[notch.slot] = NotchTimes(placed: 0, changed: 0) }
        }
    }

    /// What the analysis hands other threads: the notches, their history, and its clock.
    private struct Published {
        var notches: [NotchSetting] = []
        var events: [FeedbackEvent] = []
        /// When each slot's notch was placed and last changed (deepened, widened), in seconds of analysed input.
        var times: [Int: NotchTimes] = [:]
        /// Seconds of input analysed by the last ``pump()``: the clock the times are on (real time while live).
        var now = 0.0
    }

    /// The notches placed now.
    var notches: [NotchSetting] { published.withLock { $0.notches } }

    /// Each placed notch's age (seconds since it was placed) and seconds since it last changed, by slot, on the
    /// analysis's clock (seconds of input analysed: wall-clock time while live, render time offline).
    var notchAges: [Int: (age: Double, sinceChange: Double)] {
        published.withLock { state in state.times.mapValues { (state.now - $0.placed, state.now - $0.changed) } }
    }
    /// Every change so far (the most recent 256).
    var events: [FeedbackEvent] { published.withLock { $0.events } }

    /// The mode as the live `mode` parameter has it now.
    var mode: FeedbackMode { live.load(0) >= 0.5 ? .live : .ringOut }

    /// Asks the next ``pump()`` to clear the notch in `slot` (any thread); false when it holds none now.
    func requestClear(_ slot: Int) -> Bool {
        guard notches.contains(where: { $0.slot == slot && $0.depthDB < 0 }) else { return false }
        clearRequests.withLock { $0.append(slot) }
        return true
    }

    /// Whether the input has been digital silence long enough that nothing but the planner runs (no ring found on
    /// the last full analysis): the worker may then look at the ring less often. Read on the analysing thread.
    var isResting: Bool { silenceIsSettled && silentFrames > Self.silentFramesBeforeSkip }

    /// Clears the notches asked for, then analyses every complete hop waiting in the ring, with the live
    /// parameters as they are now. Returns whether any samples arrived (a graph not rendering, such as one built
    /// only for its layout, sends none).
    @discardableResult
    func pump() -> Bool {
        defer {
            let now = Double(framesAnalysed) / sampleRate
            published.withLock { $0.now = now }
        }
        planner.mode = mode
        planner.maxDepthDB = Double(min(live.load(1), -3))
        planner.holdSeconds = Double(max(live.load(2), 0))
        let clears = clearRequests.withLock { requests in
            defer { requests.removeAll() }
            return requests
        }
        let cleared = clears.compactMap { planner.clear($0) }
        for notch in cleared { Self.logger.notice("\(label): notch \(notch.slot + 1) at \(Int(notch.frequency.rounded())) Hz cleared") }
        publish(cleared, rings: [], time: Double(framesAnalysed) / sampleRate, logging: false)
        var arrived = false
        while true {
            let count = min(hop - stagedCount, samples.available)
            if count > 0 {
                staged.withUnsafeMutableBufferPointer { samples.read(into: $0.baseAddress! + stagedCount, count: count) }
                stagedCount += count
                arrived = true
            }
            guard stagedCount == hop else { return arrived }
            let stagedZeros = staged.reversed().prefix { $0 == 0 }.count
            // A window of zeros followed by a hop of zeros is the same window: no need to move it.
            if stagedZeros < hop || trailingZeros < history.count {
                history.removeFirst(hop)
                history.append(contentsOf: staged)
            }
            trailingZeros = stagedZeros == hop ? min(trailingZeros + hop, history.count) : stagedZeros
            stagedCount = 0
            framesAnalysed += hop
            analyzeFrame()
        }
    }

    /// Analyses the window ending now. Digital silence costs next to nothing: once the whole window has been
    /// zeros for ``silentFramesBeforeSkip`` frames (the detectors have dropped every track and found no ring),
    /// the spectra and detector passes are the same every frame, so only the planner runs (it still releases).
    private func analyzeFrame() {
        let time = Double(framesAnalysed) / sampleRate
        let isSilent = trailingZeros >= history.count
        silentFrames = isSilent ? silentFrames + 1 : 0
        var rings: [HowlRing] = []
        if !(isSilent && silentFrames > Self.silentFramesBeforeSkip && silenceIsSettled) {
            for index in spectra.indices.reversed() {      // the short spectrum last: its levels stay valid for the probe
                let size = spectra[index].size
                let levels = history.withUnsafeBufferPointer { spectra[index].powerSpectrumDB(UnsafeBufferPointer(rebasing: $0.suffix(size))) }
                rings += detectors[index].analyze(levels)
            }
            silenceIsSettled = isSilent && rings.isEmpty
        }
        let levels = spectra[0].latestLevels
        let detector = detectors[0]
        let changes = planner.update(time: time, rings: rings) { frequency in
            // anywhere under a new notch's bandwidth: in a dense comb the ring moves to a neighbouring resonance
            detector.peakToAverage(levels, at: frequency, halfWidth: frequency / (2 * NotchPlanner.initialQ))
        }
        publish(changes, rings: rings, time: time, logging: true)
    }

    /// Sends `changes` to the audio thread and records them (notches, events, log, `onEvent`).
    private func publish(_ changes: [NotchSetting], rings: [HowlRing], time: Double, logging: Bool) {
        guard !changes.isEmpty else { return }
        var events: [FeedbackEvent] = []
        for change in changes {
            _ = commands.push(NotchCommand(slot: Int32(change.slot), frequency: Float(change.frequency), depthDB: Float(change.depthDB),
                                           q: Float(change.q), depthRate: Float(change.depthRateDBPerSecond)))
            let ring = rings.first { abs($0.frequency - change.frequency) < 1e-9 }
            events.append(FeedbackEvent(time: time, notch: change, ringLevelDB: ring?.levelDB))
            if logging { log(events.last!) }
        }
        let notches = planner.activeNotches
        published.withLock { state in
            for change in changes { state.times[change.slot] = Self.times(of: change, at: time, before: state.notches, times: state.times[change.slot]) }
            state.notches = notches
            state.events.append(contentsOf: events)
            if state.events.count > 256 { state.events.removeFirst(state.events.count - 256) }
        }
        if let onEvent { events.forEach(onEvent) }
    }

    /// When `change`'s notch was placed and changed: a cut in a slot whose notch was at (about) the same frequency
    /// keeps its placing time (deepened, widened, moved with its ring); any other cut is a new notch; a release has none.
    private static func times(of change: NotchSetting, at time: Double, before: [NotchSetting], times: NotchTimes?) -> NotchTimes? {
        guard change.depthDB < 0 else { return nil }
        guard let times, let old = before.first(where: { $0.slot == change.slot && $0.depthDB < 0 }),
              abs(log2(old.frequency / change.frequency)) < 1.0 / 6 else { return NotchTimes(placed: time, changed: time) }
        return NotchTimes(placed: times.placed, changed: time)
    }

    private func log(_ event: FeedbackEvent) {
        let notch = event.notch
        let where_ = "\(label): notch \(notch.slot + 1) at \(Int(notch.frequency.rounded())) Hz"
        if let level = event.ringLevelDB {
            Self.logger.notice("\(where_): ring found (\(Int(level.rounded())) dBFS), cut \(Int(notch.depthDB.rounded())) dB")
        } else if notch.depthDB == 0 {
            Self.logger.info("\(where_): ring gone, released")
        } else {
            Self.logger.notice("\(where_): ring persists, cut \(Int(notch.depthDB.rounded())) dB, Q \(Int(notch.q.rounded()))")
        }
    }
}
