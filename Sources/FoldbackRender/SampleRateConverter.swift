// Streaming sample-rate conversion of interleaved audio with libsamplerate (the FormatConverter heir). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
internal import CSamplerate

/// Converts interleaved float audio from one sample rate to another in successive pieces, with
/// libsamplerate's band-limited sinc converters. Keeps its filter state between calls, so a stream
/// converted in pieces equals the same stream converted at once.
///
/// Not thread-safe; use one converter per stream from one (non-realtime) thread at a time.
public final class SampleRateConverter {
    /// libsamplerate's converter quality.
    public enum Quality: Sendable {
        /// `SRC_SINC_BEST_QUALITY`: 97 dB SNR, 97 % bandwidth (offline render).
        case best
        /// `SRC_SINC_MEDIUM_QUALITY`: 97 dB SNR, 90 % bandwidth (streaming).
        case medium
        /// `SRC_SINC_FASTEST`: 97 dB SNR, 80 % bandwidth.
        case fastest

        var converterType: Int32 {
            switch self {
            case .best: Int32(SRC_SINC_BEST_QUALITY)
            case .medium: Int32(SRC_SINC_MEDIUM_QUALITY)
            case .fastest: Int32(SRC_SINC_FASTEST)
            }
        }
    }

    /// Interleaved channels.
    public let channels: Int
    /// Output rate ÷ input rate.
    public let ratio: Double
    private let state: OpaquePointer
    private var scratch: [Float] = []

    /// A converter from `inputRate` to `outputRate` (Hz) for `channels` interleaved channels.
    public init(channels: Int, inputRate: Double, outputRate: Double, quality: Quality = .best) throws(AudioFileError) {
        let ratio = outputRate / inputRate
        guard channels > 0, inputRate > 0, outputRate > 0, src_is_valid_ratio(ratio) != 0 else {
            throw .invalidArgument("Cannot convert \(channels) channel(s) from \(inputRate) Hz to \(outputRate) Hz.")
        }
        var error: Int32 = 0
        guard let state = src_new(quality.converterType, Int32(channels), &error) else {
            throw .invalidArgument("libsamplerate: \(String(cString: src_strerror(error)))")
        }
        self.channels = channels
        self.ratio = ratio
        self.state = state
    }

    deinit { src_delete(state) }

    /// Output frames `inputFrames` input frames can produce at most (a buffer of this size never overflows).
    public func maximumOutputFrames(forInput inputFrames: Int) -> Int {
        Int((Double(inputFrames) * ratio).rounded(.up)) + 16
    }

    /// Converts `input` (interleaved, a whole number of frames) and appends the result to `output`.
    /// Pass `isLastPiece` with the final piece to flush the converter's delay line.
    /// Returns the output frames appended.
    @discardableResult
    public func convert(_ input: [Float], isLastPiece: Bool = false, into output: inout [Float]) throws(AudioFileError) -> Int {
        try input.withUnsafeBufferPointer { buffer throws(AudioFileError) in
            try convert(buffer, isLastPiece: isLastPiece) { output.append(contentsOf: $0) }
        }
    }

    /// Converts `input` (interleaved, a whole number of frames), handing the converted frames to `deliver` in
    /// one or more pieces (interleaved, valid only during the call) from a scratch buffer the converter keeps:
    /// no copy of the input, no allocation once the scratch has grown to the piece size.
    /// Returns the output frames delivered.
    @discardableResult
    public func convert(
        _ input: UnsafeBufferPointer<Float>, isLastPiece: Bool = false, deliver: (UnsafeBufferPointer<Float>) -> Void
    ) throws(AudioFileError) -> Int {
        let inputFrames = input.count / channels
        let needed = maximumOutputFrames(forInput: max(inputFrames, 256)) * channels
        if scratch.count < needed { scratch = [Float](repeating: 0, count: needed) }
        var produced = 0
        var consumed = 0
        while true {
            var data = SRC_DATA()
            let result: Int32 = scratch.withUnsafeMutableBufferPointer { outputBuffer in
                data.data_in = input.baseAddress.map { $0 + consumed * channels }
                data.input_frames = input.baseAddress == nil ? 0 : inputFrames - consumed
                data.data_out = outputBuffer.baseAddress
                data.output_frames = outputBuffer.count / channels
                data.end_of_input = isLastPiece ? 1 : 0
                data.src_ratio = ratio
                return src_process(state, &data)
            }
            guard result == 0 else { throw .invalidArgument("libsamplerate: \(String(cString: src_strerror(result)))") }
            let generated = data.output_frames_gen
            consumed += data.input_frames_used
            scratch.withUnsafeBufferPointer { deliver(UnsafeBufferPointer(rebasing: $0[0..<(generated * channels)])) }
            produced += generated
            // Done when all input is consumed and (for the last piece) the delay line is flushed.
            if consumed >= inputFrames && (!isLastPiece || generated == 0) { return produced }
        }
    }

    /// Forgets the stream so far (a seek or loop jump starts a new stream).
    public func reset() { src_reset(state) }
}
