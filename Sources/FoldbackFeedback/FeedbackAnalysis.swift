// The feedback unit's analysis: drains the sample ring, runs the FFT, detector and planner, sends notch commands. Non-realtime (worker thread, or a test driving it).
public import FoldbackDSP
import FoldbackEngine
import Logging
import Synchronization

/// What the suppressor did, for the log, meters and OSC.
public struct FeedbackEvent: Sendable, Hashable {
    /// Seconds of analysed input when it happened.
    public var time: Double
    /// The notch as set (depth 0 when released).
    public var notch: NotchSetting
    /// The ring's level when found, dBFS, or nil for a deepening or release.
    public var ringLevelDB: Double?
}

/// One analysis frame every ``hop`` samples (1/16 of the transform, 5.3 ms at 48 kHz) over the last ``SpectrumAnalyzer/size`` samples of input.
///
/// ``pump()`` does all the work the ring holds and returns; the unit's worker thread calls it a few
/// hundred times a second, a test may call it after each block to run faster than realtime deterministically.
final class FeedbackAnalysis: @unchecked Sendable {
    private static let logger = Logger(label: "foldback.feedback")
    let sampleRate: Double
    let hop: Int
    private let spectrum: SpectrumAnalyzer
    private var detector: HowlDetector
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
    /// Frames analysed in a row on an all-zero window, and their spectrum (the analyzer's, unchanged since).
    private var silentFrames = 0
    private var silentLevels: UnsafeBufferPointer<Float>?
    private let label: String
    private let published = Mutex<(notches: [NotchSetting], events: [FeedbackEvent])>(([], []))
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
        guard let spectrum = SpectrumAnalyzer(size: size) else { return nil }
        self.sampleRate = sampleRate
        self.spectrum = spectrum
        hop = size / 16
        detector = HowlDetector(binCount: spectrum.binCount, binWidth: sampleRate / Double(size), criteria: settings.criteria)
        planner = NotchPlanner(mode: settings.mode, maxDepthDB: Double(settings.maxDepthDB), holdSeconds: Double(settings.holdSeconds),
                               fixed: settings.fixedSettings)
        self.samples = samples
        self.commands = commands
        self.live = live
        self.label = label
        self.onEvent = onEvent
        history = Array(repeating: 0, count: size)
        staged = Array(repeating: 0, count: hop)
        let fixed = planner.activeNotches
        published.withLock { $0.notches = fixed }
    }

    /// The notches placed now.
    var notches: [NotchSetting] { published.withLock { $0.notches } }
    /// Every change so far (the most recent 256).
    var events: [FeedbackEvent] { published.withLock { $0.events } }

    /// Analyses every complete hop waiting in the ring, with the live parameters as they are now.
    /// Returns whether any samples arrived (a graph not rendering, such as one built only for its layout, sends none).
    @discardableResult
    func pump() -> Bool {
        planner.mode = live.load(0) >= 0.5 ? .live : .ringOut
        planner.maxDepthDB = Double(min(live.load(1), -3))
        planner.holdSeconds = Double(max(live.load(2), 0))
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
            trailingZeros = stagedZeros == hop ? min(trailingZeros + hop, history.count) : stagedZeros
            history.removeFirst(hop)
            history.append(contentsOf: staged)
            stagedCount = 0
            framesAnalysed += hop
            analyzeFrame()
        }
    }

    /// Analyses the window ending now. Digital silence costs next to nothing: once the whole window has been
    /// zeros for ``silentFramesBeforeSkip`` frames (the detector has dropped every track and found no ring),
    /// its spectrum and detector pass are the same every frame, so only the planner runs (it still releases).
    private func analyzeFrame() {
        let time = Double(framesAnalysed) / sampleRate
        let isSilent = trailingZeros >= history.count
        silentFrames = isSilent ? silentFrames + 1 : 0
        let levels: UnsafeBufferPointer<Float>
        let rings: [HowlRing]
        if isSilent, silentFrames > Self.silentFramesBeforeSkip, let silentLevels {
            (levels, rings) = (silentLevels, [])
        } else {
            levels = history.withUnsafeBufferPointer { spectrum.powerSpectrumDB($0) }
            rings = detector.analyze(levels)
            silentLevels = isSilent && rings.isEmpty ? levels : nil
        }
        let detector = self.detector
        let changes = planner.update(time: time, rings: rings) { frequency in
            let bin = min(max(Int((frequency / detector.binWidth).rounded()), 1), levels.count - 2)
            return (detector.peakToNeighbour(levels, at: frequency), Double(max(levels[bin - 1], levels[bin], levels[bin + 1])))
        }
        guard !changes.isEmpty else { return }
        var events: [FeedbackEvent] = []
        for change in changes {
            _ = commands.push(NotchCommand(slot: Int32(change.slot), frequency: Float(change.frequency), depthDB: Float(change.depthDB),
                                           q: Float(change.q), depthRate: Float(change.depthRateDBPerSecond)))
            let ring = rings.first { abs($0.frequency - change.frequency) < 1e-9 }
            events.append(FeedbackEvent(time: time, notch: change, ringLevelDB: ring?.levelDB))
            log(events.last!)
        }
        let notches = planner.activeNotches
        published.withLock { state in
            state.notches = notches
            state.events.append(contentsOf: events)
            if state.events.count > 256 { state.events.removeFirst(state.events.count - 256) }
        }
        if let onEvent { events.forEach(onEvent) }
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
