// Time-stretching and pitch-shifting of interleaved audio with Rubber Band, with the rate conversion folded in. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
internal import CRubberBand

/// Stretches and shifts interleaved float audio in successive pieces with Rubber Band (realtime mode, so the
/// tempo and pitch can change while it runs), converting from the file's rate to the output rate in the
/// same pass: the time ratio is multiplied and the pitch scale divided by output rate ÷ input rate.
///
/// Every frame of the input is heard, from the first to the last, and the output is as long as the input at
/// the ratios it was fed with (to the frame): the start is padded and its delay dropped so the output starts
/// with the input's first frame at full level, and the last piece pushes what Rubber Band still holds (about a
/// window, ~100 ms at 48 kHz) out with silence behind it. Not thread-safe; one stretcher per stream, used from
/// one (non-realtime) thread at a time.
public final class TimePitchStretcher {
    /// Interleaved channels.
    public let channels: Int
    /// The input's rate and the output's, Hz.
    public let inputRate: Double
    public let outputRate: Double
    /// The engine used.
    public let engine: StretchEngine
    /// The current setting.
    public private(set) var setting: TimePitch
    private let state: RubberBandState
    /// One block of planar input and of planar output per channel, allocated once.
    private let planarIn: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    private let planarOut: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    private var interleaved: [Float] = []
    private var toDrop = 0
    private var isPrimed = false
    /// The input's first frames, held until there are enough to make the start pad of; its last frames, for the end's.
    private var opening: [Float] = []
    private var closing: [Float] = []
    /// Output frames the input so far should make (each block at the ratio it was fed with), and those delivered:
    /// the flush at the end stops at the former, so the length is exact.
    private var expectedFrames = 0.0
    private var deliveredFrames = 0
    /// Frames handed to ``process(_:isLastPiece:deliver:)`` so far (input, at the input rate).
    public private(set) var consumedFrames = 0
    private static let blockFrames = 1_024
    private static let outputFrames = blockFrames * 16

    /// A stretcher for `channels` interleaved channels from `inputRate` to `outputRate` Hz.
    public init(channels: Int, inputRate: Double, outputRate: Double, setting: TimePitch, engine: StretchEngine) throws(AudioFileError) {
        guard channels > 0, inputRate >= 1_000, outputRate >= 1_000, outputRate / inputRate <= 8, inputRate / outputRate <= 8 else {
            throw .invalidArgument("Cannot stretch \(channels) channel(s) from \(inputRate) Hz to \(outputRate) Hz.")
        }
        var options = RubberBandOptionProcessRealTime.rawValue | RubberBandOptionThreadingNever.rawValue
            | RubberBandOptionPitchHighConsistency.rawValue | RubberBandOptionChannelsTogether.rawValue
        options |= engine == .finer ? RubberBandOptionEngineFiner.rawValue : RubberBandOptionEngineFaster.rawValue
        if setting.preservesFormant { options |= RubberBandOptionFormantPreserved.rawValue }
        let rateRatio = outputRate / inputRate
        guard let state = rubberband_new(
            UInt32(inputRate), UInt32(channels), RubberBandOptions(bitPattern: UInt32(truncatingIfNeeded: options)),
            rateRatio / setting.tempo, setting.pitchScale / rateRatio)
        else { throw .invalidArgument("Rubber Band could not start for \(channels) channel(s) at \(inputRate) Hz.") }
        rubberband_set_max_process_size(state, UInt32(Self.blockFrames))
        self.channels = channels
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.engine = engine
        self.setting = setting
        self.state = state
        planarIn = .allocate(capacity: channels)
        planarOut = .allocate(capacity: channels)
        for channel in 0..<channels {
            planarIn[channel] = .allocate(capacity: Self.blockFrames)
            planarIn[channel]!.initialize(repeating: 0, count: Self.blockFrames)
            planarOut[channel] = .allocate(capacity: Self.outputFrames)
            planarOut[channel]!.initialize(repeating: 0, count: Self.outputFrames)
        }
    }

    deinit {
        rubberband_delete(state)
        for channel in 0..<channels {
            planarIn[channel]?.deallocate()
            planarOut[channel]?.deallocate()
        }
        planarIn.deallocate()
        planarOut.deallocate()
    }

    /// Changes tempo and pitch from the next piece on (Rubber Band moves to them smoothly, no gap).
    /// Formant preservation is fixed when the stretcher is made.
    public func update(_ newSetting: TimePitch) {
        let rateRatio = outputRate / inputRate
        if newSetting.tempo != setting.tempo { rubberband_set_time_ratio(state, rateRatio / newSetting.tempo) }
        if newSetting.pitchScale != setting.pitchScale { rubberband_set_pitch_scale(state, newSetting.pitchScale / rateRatio) }
        setting.tempo = newSetting.tempo
        setting.semitones = newSetting.semitones
        setting.cents = newSetting.cents
    }

    /// How far the output runs behind the input, output frames (for the song position).
    public var latencyFrames: Int { Int(rubberband_get_latency(state)) }

    /// Output frames per input frame at the current tempo (the rate conversion included).
    private var timeRatio: Double { outputRate / inputRate / setting.tempo }

    /// Forgets the stream so far (a restart from the top).
    public func reset() {
        rubberband_reset(state)
        isPrimed = false
        toDrop = 0
        opening = []
        closing = []
        consumedFrames = 0
        expectedFrames = 0
        deliveredFrames = 0
    }

    /// Stretches `input` (interleaved, a whole number of frames), handing the output to `deliver` in pieces
    /// (interleaved, valid only during the call). Pass `isLastPiece` with the final piece (it may be empty):
    /// the rest of the output follows, up to the exact length. The first ~55 ms of input are held until they
    /// are all there (the start pad is made from them).
    public func process(_ input: UnsafeBufferPointer<Float>, isLastPiece: Bool = false, deliver: (UnsafeBufferPointer<Float>) -> Void) {
        consumedFrames += input.count / channels
        if isPrimed {
            stretch(input, deliver)
        } else {
            opening.append(contentsOf: input)
            guard opening.count >= PeriodicContinuation.analysisFrames(rate: inputRate) * channels || isLastPiece else { return }
            prime()
            opening.withUnsafeBufferPointer { stretch($0, deliver) }
            opening = []
        }
        if isLastPiece { flush(deliver) }
    }

    /// Feeds `input` through, keeping its last frames for the flush.
    private func stretch(_ input: UnsafeBufferPointer<Float>, _ deliver: (UnsafeBufferPointer<Float>) -> Void) {
        feed(input, isInput: true, deliver, upTo: Int.max)
        let kept = PeriodicContinuation.analysisFrames(rate: inputRate) * channels
        closing.append(contentsOf: input.suffix(kept))
        if closing.count > 2 * kept { closing.removeFirst(closing.count - kept) }
    }

    /// Feeds the start pad and notes the start delay to drop, so the output's first frame is the input's first.
    ///
    /// Rubber Band's preferred pad puts the centre of its first analysis window on the input's first frame,
    /// so the first half-window of output is the overlap-add of that window and later ones alone: the earlier
    /// windows that overlap it are missing and the R3 output started up to 8 dB low for ~10 ms (the R2 engine
    /// resets its phases at the onset instead). With R3 a second pad's worth goes first, so every window
    /// overlapping the first output frame is computed, and the pad is the opening's period continued backwards
    /// (``PeriodicContinuation``), not silence, so the file's first frame is no onset out of silence to be
    /// smeared; the pad's output (at the starting time ratio) is dropped with the start delay.
    private func prime() {
        isPrimed = true
        let pad = Int(rubberband_get_preferred_start_pad(state))
        let extra = engine == .finer ? pad : 0
        let lead = engine == .finer
            ? PeriodicContinuation.before(opening, channels: channels, rate: inputRate, count: pad + extra)
            : [Float](repeating: 0, count: (pad + extra) * channels)
        lead.withUnsafeBufferPointer { feed($0, isInput: false, { _ in }, upTo: nil) }
        toDrop = Int(rubberband_get_start_delay(state)) + Int((Double(extra) * timeRatio).rounded())
    }

    /// Pushes out what Rubber Band still holds after the input's last frame, with the input's last period
    /// continued behind it (silence with R2), until the output reaches the expected length; the continuation's
    /// own output beyond it is not delivered.
    ///
    /// `process(final: true)` is not used: Rubber Band 3.1's R3 runs no analysis on a final call without frames
    /// (the last window's worth of input, ~100 ms, was never output), and after any final call it refuses input.
    private func flush(_ deliver: (UnsafeBufferPointer<Float>) -> Void) {
        let expected = Int(expectedFrames.rounded())
        // What it holds is a window or two of input; the bound only guards against a stretcher that stops producing.
        let bound = Int(Double(max(expected - deliveredFrames, 0)) / timeRatio) + 16 * Self.blockFrames
        let tail = engine == .finer
            ? PeriodicContinuation.after(closing, channels: channels, rate: inputRate, count: bound)
            : [Float](repeating: 0, count: bound * channels)
        var fed = 0
        tail.withUnsafeBufferPointer { tail in
            while deliveredFrames < expected && fed < bound {
                let count = min(Self.blockFrames, bound - fed)
                feed(UnsafeBufferPointer(rebasing: tail[(fed * channels)..<((fed + count) * channels)]), isInput: false, deliver, upTo: expected)
                fed += count
            }
        }
        let missing = expected - deliveredFrames
        guard missing > 0 else { return }
        let silence = [Float](repeating: 0, count: missing * channels)
        deliveredFrames += missing
        silence.withUnsafeBufferPointer { deliver($0) }
    }

    /// Feeds interleaved frames in blocks, counting the output they should make when they are the input's (not a
    /// pad), and draining after each block up to `limit` frames delivered in all (nil: not yet, the start pad).
    private func feed(
        _ samples: UnsafeBufferPointer<Float>, isInput: Bool, _ deliver: (UnsafeBufferPointer<Float>) -> Void, upTo limit: Int?
    ) {
        let frames = samples.count / channels
        var offset = 0
        while offset < frames, let base = samples.baseAddress {
            let count = min(Self.blockFrames, frames - offset)
            for channel in 0..<channels {
                let planar = planarIn[channel]!
                for frame in 0..<count { planar[frame] = base[(offset + frame) * channels + channel] }
            }
            offset += count
            if isInput { expectedFrames += Double(count) * timeRatio }
            feed(frames: count)
            if let limit { drain(deliver, upTo: limit) }
        }
    }

    private func feed(frames: Int) {
        planarIn.withMemoryRebound(to: UnsafePointer<Float>?.self, capacity: channels) {
            rubberband_process(state, $0, UInt32(frames), 0)
        }
    }

    /// Retrieves what the stretcher has, drops the start delay, interleaves and delivers the rest, up to
    /// `limit` frames delivered in all.
    private func drain(_ deliver: (UnsafeBufferPointer<Float>) -> Void, upTo limit: Int) {
        while true {
            let available = Int(rubberband_available(state))
            if available <= 0 { return }
            let got = Int(rubberband_retrieve(state, planarOut, UInt32(min(available, Self.outputFrames))))
            let skip = min(toDrop, got)
            toDrop -= skip
            let kept = min(got - skip, max(limit - deliveredFrames, 0))
            deliveredFrames += kept
            guard kept > 0 else { continue }
            if interleaved.count < kept * channels { interleaved = [Float](repeating: 0, count: kept * channels) }
            for channel in 0..<channels {
                let planar = planarOut[channel]!
                for frame in 0..<kept { interleaved[frame * channels + channel] = planar[skip + frame] }
            }
            interleaved.withUnsafeBufferPointer { deliver(UnsafeBufferPointer(rebasing: $0[0..<(kept * channels)])) }
        }
    }
}
