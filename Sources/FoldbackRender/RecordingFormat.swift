// The container formats a recording is written in, and how each survives a crash. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CSndfile

/// The file format of a record tap.
public enum RecordingFormat: String, Sendable, CaseIterable {
    /// WAV, 32-bit float; the header is rewritten after every write, so a killed recording is a valid
    /// file up to its last write. Limited to 4 GiB (about 3 h of stereo at 48 kHz).
    case wav
    /// Sony Wave64, 32-bit float: like `wav` (header rewritten after every write) with no size limit.
    case w64
    /// FLAC, 24-bit: lossless and about half the size. The stream header's length is written on close,
    /// so after a crash decode it with `flac -d -F` (or `sox`), which read the frames that are there.
    case flac

    /// The file name extension.
    public var fileExtension: String { rawValue }

    /// The libsndfile format word.
    var sndfileFormat: Int32 {
        switch self {
        case .wav: Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT)
        case .w64: Int32(SF_FORMAT_W64 | SF_FORMAT_FLOAT)
        case .flac: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_24)
        }
    }

    /// Whether libsndfile keeps the header current as frames are written.
    var updatesHeader: Bool { self != .flac }
}
