// Time-stretching and pitch-shifting of interleaved audio with Rubber Band, with the rate conversion folded in. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
internal import CRubberBand

/// Stretches and shifts interleaved float audio in successive pieces with Rubber Band (realtime mode, so the
/// tempo and pitch can change while it runs), converting from the file's rate to the output rate in the
/// same pass: the time ratio is multiplied and the pitch scale divided by output rate ÷ input rate.
///
/// Rubber Band's start padding is fed and its start delay dropped, so the output starts with the input's
/// first frame. Not thread-safe; one stretcher per stream, used from one (non-realtime) thread at a time.
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
    private var planarIn: [[Float]]
    private var planarOut: [[Float]]
    private var interleaved: [Float] = []
    private var toDrop = 0
    private var isPrimed = false
    /// Output frames the input so far should make (each block at the ratio it was fed with), and those delivered:
    /// the flush at the end is cut or padded to the former, so the length is exact.
    private var expectedFrames = 0.0
    private var deliveredFrames = 0
    /// Frames handed to ``process(_:isLastPiece:deliver:)`` so far (input, at the input rate).
    public private(set) var consumedFrames = 0
    private static let blockFrames = 1_024

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
        planarIn = Array(repeating: [Float](repeating: 0, count: Self.blockFrames), count: channels)
        planarOut = Array(repeating: [Float](repeating: 0, count: Self.blockFrames * 16), count: channels)
    }

    deinit { rubberband_delete(state) }

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

    /// Forgets the stream so far (a restart from the top).
    public func reset() {
        rubberband_reset(state)
        isPrimed = false
        consumedFrames = 0
        expectedFrames = 0
        deliveredFrames = 0
    }

    /// Stretches `input` (interleaved, a whole number of frames), handing the output to `deliver` in pieces
    /// (interleaved, valid only during the call). Pass `isLastPiece` with the final piece to flush.
    public func process(_ input: UnsafeBufferPointer<Float>, isLastPiece: Bool = false, deliver: (UnsafeBufferPointer<Float>) -> Void) {
        if !isPrimed { prime() }
        let frames = input.count / channels
        var offset = 0
        repeat {
            let count = min(Self.blockFrames, frames - offset)
            if let base = input.baseAddress {
                for channel in 0..<channels {
                    planarIn[channel].withUnsafeMutableBufferPointer { planar in
                        for frame in 0..<count { planar[frame] = base[(offset + frame) * channels + channel] }
                    }
                }
            }
            offset += count
            expectedFrames += Double(count) * outputRate / inputRate / setting.tempo
            feed(frames: count, isFinal: isLastPiece && offset >= frames)
            drain(deliver, isFinal: isLastPiece && offset >= frames)
        } while offset < frames
        consumedFrames += frames
        if isLastPiece { padToExpected(deliver) }
    }

    /// Silence after a flush that came out short of the expected length.
    private func padToExpected(_ deliver: (UnsafeBufferPointer<Float>) -> Void) {
        let missing = Int(expectedFrames.rounded()) - deliveredFrames
        guard missing > 0 else { return }
        let silence = [Float](repeating: 0, count: missing * channels)
        deliveredFrames += missing
        silence.withUnsafeBufferPointer { deliver($0) }
    }

    /// Feeds the start pad of silence Rubber Band asks for and notes the start delay to drop.
    private func prime() {
        isPrimed = true
        var pad = Int(rubberband_get_preferred_start_pad(state))
        for channel in 0..<channels { planarIn[channel].withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        while pad > 0 {
            let count = min(pad, Self.blockFrames)
            feed(frames: count, isFinal: false)
            pad -= count
        }
        toDrop = Int(rubberband_get_start_delay(state))
    }

    private func feed(frames: Int, isFinal: Bool) {
        withPointers(&planarIn) { pointers in
            pointers.withMemoryRebound(to: UnsafePointer<Float>?.self, capacity: channels) {
                rubberband_process(state, $0, UInt32(frames), isFinal ? 1 : 0)
            }
        }
    }

    /// Retrieves what the stretcher has, drops the start delay, interleaves and delivers the rest.
    private func drain(_ deliver: (UnsafeBufferPointer<Float>) -> Void, isFinal: Bool) {
        let capacity = planarOut[0].count
        while true {
            let available = Int(rubberband_available(state))
            if available <= 0 { return }
            let count = min(available, capacity)
            let got = Int(withPointers(&planarOut) { rubberband_retrieve(state, $0, UInt32(count)) })
            let skip = min(toDrop, got)
            toDrop -= skip
            let allowed = isFinal ? max(Int(expectedFrames.rounded()) - deliveredFrames, 0) : Int.max
            let kept = min(got - skip, allowed)
            deliveredFrames += kept
            guard kept > 0 else { continue }
            if interleaved.count < kept * channels { interleaved = [Float](repeating: 0, count: kept * channels) }
            for channel in 0..<channels {
                planarOut[channel].withUnsafeBufferPointer { planar in
                    for frame in 0..<kept { interleaved[frame * channels + channel] = planar[skip + frame] }
                }
            }
            interleaved.withUnsafeBufferPointer { deliver(UnsafeBufferPointer(rebasing: $0[0..<(kept * channels)])) }
        }
    }

    /// Calls `body` with one pointer per channel buffer.
    private func withPointers<R>(_ buffers: inout [[Float]], _ body: (UnsafePointer<UnsafeMutablePointer<Float>?>) -> R) -> R {
        let pointers = UnsafeMutablePointer<UnsafeMutablePointer<Float>?>.allocate(capacity: channels)
        defer { pointers.deallocate() }
        for channel in 0..<channels { pointers[channel] = buffers[channel].withUnsafeMutableBufferPointer { $0.baseAddress } }
        return body(pointers)
    }
}
