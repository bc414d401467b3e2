// EBU R128 loudness of one signal (momentary, short-term, integrated, true peak) through libebur128. Non-realtime (a worker thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import CEBUR128
import Foundation

/// How a bus's channels are weighted, as ITU-R BS.1770 and libebur128 define them.
public enum LoudnessChannelLayout: Sendable, Equatable {
    /// Left and right (and any further channels weighted 1).
    case stereo
    /// One channel reproduced by one loudspeaker (a wedge): weighted 1.
    case mono
    /// One channel heard by both ears (a mono in-ear mix): +3 dB, as libebur128's dual mono.
    case dualMono
}

/// One reading of a ``LoudnessMeter``, in LUFS and dBTP; `-infinity` while there is nothing to measure.
public struct LoudnessReading: Sendable, Equatable {
    /// Momentary loudness (400 ms window).
    public var momentaryLUFS: Double
    /// Short-term loudness (3 s window).
    public var shortTermLUFS: Double
    /// Integrated (gated) loudness since the meter started.
    public var integratedLUFS: Double
    /// The highest true peak (4× oversampled) of any channel since the last reading (the sample peak on a
    /// meter made without true peak).
    public var truePeakDBTP: Double
    /// The highest true peak since the meter started (the sample peak on a meter made without true peak).
    public var maximumTruePeakDBTP: Double

    /// A reading of these figures.
    public init(
        momentaryLUFS: Double, shortTermLUFS: Double, integratedLUFS: Double, truePeakDBTP: Double, maximumTruePeakDBTP: Double
    ) {
        self.momentaryLUFS = momentaryLUFS
        self.shortTermLUFS = shortTermLUFS
        self.integratedLUFS = integratedLUFS
        self.truePeakDBTP = truePeakDBTP
        self.maximumTruePeakDBTP = maximumTruePeakDBTP
    }

    /// A reading of silence.
    public static let silent = LoudnessReading(
        momentaryLUFS: -.infinity, shortTermLUFS: -.infinity, integratedLUFS: -.infinity,
        truePeakDBTP: -.infinity, maximumTruePeakDBTP: -.infinity)
}

/// Feeds interleaved float frames to libebur128 and reads loudness back.
///
/// What it costs, and how it is kept low (the budget: 0.2 % of a core per stereo bus at 48 kHz, 42 ns a frame):
/// libebur128's K-weighting and gating blocks cost about 16 ns a stereo frame; its true peak about 42 more, and
/// reading the short-term loudness 20 times a second about 60 more (it sums the whole 3 s window each time). So
/// momentary and short-term come from 100 ms windows (``LoudnessWindowHistory``), and true peak from a second
/// state that sees only the blocks where the reading's true peak can change (``TruePeakTracker``); integrated
/// loudness is libebur128's own, from its histogram.
public final class LoudnessMeter {
    /// The signal's channel count.
    public let channels: Int
    /// The signal's sample rate, Hz.
    public let sampleRate: Int
    private let state: UnsafeMutablePointer<ebur128_state>
    private var windows: LoudnessWindowHistory
    private let truePeak: TruePeakTracker?
    /// Whether peaks are true peaks (4× oversampled), else sample peaks.
    public let measuresTruePeak: Bool
    private var peakSinceReading = 0.0
    private var maximumPeak = 0.0

    /// A meter for `channels` channels at `sampleRate` Hz, or nil when libebur128 refuses them
    /// (no channels, more than it supports, or a rate outside 16 Hz … 2.8 MHz). With `measuresTruePeak` false
    /// peaks are sample peaks, which cost almost nothing.
    public init?(channels: Int, sampleRate: Int, layout: LoudnessChannelLayout, measuresTruePeak: Bool = true) {
        guard channels > 0, channels <= 64, sampleRate >= 16, sampleRate <= 2_822_400 else { return nil }
        // HISTOGRAM: integrated loudness from a fixed histogram of block energies, so memory stays flat for a
        // show of any length (without it libebur128 keeps every 100 ms block); within 0.1 LU of Tech 3341.
        let mode = Int32(EBUR128_MODE_S.rawValue | EBUR128_MODE_I.rawValue | EBUR128_MODE_HISTOGRAM.rawValue)
        guard let state = ebur128_init(UInt32(channels), UInt(sampleRate), mode) else { return nil }
        let truePeak = measuresTruePeak ? TruePeakTracker(channels: channels, sampleRate: sampleRate) : nil
        guard truePeak != nil || !measuresTruePeak else {
            var pointer: UnsafeMutablePointer<ebur128_state>? = state
            ebur128_destroy(&pointer)
            return nil
        }
        self.state = state
        self.truePeak = truePeak
        windows = LoudnessWindowHistory(sampleRate: sampleRate)
        self.channels = channels
        self.sampleRate = sampleRate
        self.measuresTruePeak = measuresTruePeak
        switch layout {
        case .stereo: break
        case .mono: _ = ebur128_set_channel(state, 0, Int32(EBUR128_CENTER.rawValue))
        case .dualMono: _ = ebur128_set_channel(state, 0, Int32(EBUR128_DUAL_MONO.rawValue))
        }
    }

    deinit {
        var pointer: UnsafeMutablePointer<ebur128_state>? = state
        ebur128_destroy(&pointer)
    }

    /// Blocks of ``add(interleaved:frames:)`` the true-peak rule measured and skipped since the start.
    public var truePeakBlocks: (measured: Int, skipped: Int) { (truePeak?.measuredBlocks ?? 0, truePeak?.skippedBlocks ?? 0) }

    /// Adds `frames` interleaved frames (`channels` floats each).
    public func add(interleaved samples: UnsafePointer<Float>, frames: Int) {
        var done = 0
        while done < frames {
            let count = min(TruePeakTracker.maxFrames, frames - done)
            let chunk = samples + done * channels
            addLoudness(chunk, frames: count)
            if let truePeak {
                truePeak.add(interleaved: chunk, frames: count, peak: &peakSinceReading)
            } else {
                peakSinceReading = max(peakSinceReading, TruePeakTracker.peakMagnitude(chunk, count: count * channels))
            }
            done += count
        }
        maximumPeak = max(maximumPeak, peakSinceReading)
    }

    /// Feeds the loudness state, cut where a 100 ms window of ``windows`` ends.
    private func addLoudness(_ samples: UnsafePointer<Float>, frames: Int) {
        var done = 0
        while done < frames {
            let count = min(windows.framesToNextWindow, frames - done)
            _ = ebur128_add_frames_float(state, samples + done * channels, count)
            done += count
            if windows.advance(by: count) {
                var loudness = -Double.infinity
                _ = ebur128_loudness_window(state, 100, &loudness)
                windows.close(loudness: loudness)
            }
        }
    }

    /// The current loudness (momentary and short-term as of the last 50 ms step); starts a new true-peak window.
    public func read() -> LoudnessReading {
        var integrated = -Double.infinity
        _ = ebur128_loudness_global(state, &integrated)
        defer { peakSinceReading = 0 }
        return LoudnessReading(
            momentaryLUFS: Self.finite(LoudnessWindowHistory.loudness(energy: windows.momentaryEnergy)),
            shortTermLUFS: Self.finite(LoudnessWindowHistory.loudness(energy: windows.shortTermEnergy)),
            integratedLUFS: Self.finite(integrated),
            truePeakDBTP: Self.decibels(peakSinceReading), maximumTruePeakDBTP: Self.decibels(maximumPeak))
    }

    /// libebur128 reports silence as −HUGE_VAL or very low values; both read as −∞ here.
    private static func finite(_ value: Double) -> Double { value.isFinite && value > -200 ? value : -.infinity }

    private static func decibels(_ linear: Double) -> Double { linear > 0 ? 20 * log10(linear) : -.infinity }
}
