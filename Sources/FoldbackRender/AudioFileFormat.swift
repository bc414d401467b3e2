// The sample formats FoldbackRender writes. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CSndfile
public import Foundation

/// How samples are stored in a written file (WAV/RF64, or FLAC).
public enum AudioFileFormat: String, Sendable, Equatable, CaseIterable {
    /// 32-bit IEEE float: lossless for the engine's output, keeps overs above 0 dBFS.
    case float
    /// 24-bit integer PCM: what most players and DAWs take; clips at 0 dBFS.
    case pcm24
    /// FLAC, 24-bit: lossless compression of 24-bit PCM; clips at 0 dBFS.
    case flac

    /// The name a command line gives the format: `wav24`, `wav32f` or `flac`.
    public var optionName: String {
        switch self {
        case .float: "wav32f"
        case .pcm24: "wav24"
        case .flac: "flac"
        }
    }

    /// The format named `optionName` (``optionName``), nil for any other name.
    public init?(optionName: String) {
        guard let format = Self.allCases.first(where: { $0.optionName == optionName }) else { return nil }
        self = format
    }

    /// The libsndfile format word: RF64 that downgrades to plain WAV below 4 GiB, or FLAC.
    var sndfileFormat: Int32 {
        switch self {
        case .float: Int32(SF_FORMAT_RF64 | SF_FORMAT_FLOAT)
        case .pcm24: Int32(SF_FORMAT_RF64 | SF_FORMAT_PCM_24)
        case .flac: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_24)
        }
    }

    /// FLAC for a `.flac` path, 32-bit float WAV otherwise.
    public static func inferred(from url: URL) -> AudioFileFormat {
        url.pathExtension.lowercased() == "flac" ? .flac : .float
    }

    /// Whether samples beyond ±1 are clipped (integer formats) rather than kept.
    var clips: Bool { self != .float }
}
