// Reads audio files through libsndfile into float samples. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CSndfile
public import Foundation

/// Reads any file libsndfile understands (WAV, RF64, AIFF, FLAC, Ogg…) as float samples.
public final class AudioFileReader {
    /// The file read.
    public let url: URL
    /// In hertz.
    public let sampleRate: Int
    /// Channels per frame.
    public let channelCount: Int
    /// Frames in the file.
    public let frameCount: Int
    /// Whether the file can seek (a regular file, not a pipe): only then is ``frameCount`` checked against the
    /// file's length (a pipe's header may claim any length).
    public let isSeekable: Bool

    private let file: OpaquePointer

    /// Opens the file and reads its header.
    public init(url: URL) throws(AudioFileError) {
        var info = SF_INFO()
        guard let opened = sf_open(url.path, Int32(SFM_READ), &info) else {
            throw .cannotOpen(path: url.path, reason: String(cString: sf_strerror(nil)))
        }
        self.url = url
        file = opened
        sampleRate = Int(info.samplerate)
        channelCount = Int(info.channels)
        frameCount = Int(info.frames)
        isSeekable = info.seekable != 0
    }

    deinit { sf_close(file) }

    /// Reads up to `buffer.count / channelCount` interleaved frames; returns the frames read (0 at the end).
    public func read(interleavedInto buffer: UnsafeMutableBufferPointer<Float>) throws(AudioFileError) -> Int {
        guard let base = buffer.baseAddress, buffer.count >= channelCount else { return 0 }
        let frames = sf_readf_float(file, base, sf_count_t(buffer.count / channelCount))
        guard frames >= 0, sf_error(file) == 0 else {
            throw .readFailed(path: url.path, reason: String(cString: sf_strerror(file)))
        }
        return Int(frames)
    }

    /// Moves the read position to `frame` (0 = the start).
    public func seek(toFrame frame: Int) throws(AudioFileError) {
        guard sf_seek(file, sf_count_t(frame), SEEK_SET) == sf_count_t(frame) else {
            throw .readFailed(path: url.path, reason: "cannot seek to frame \(frame)")
        }
    }

    /// Reads the whole file from the start as one array per channel.
    public func readAll() throws(AudioFileError) -> [[Float]] {
        guard sf_seek(file, 0, SEEK_SET) == 0 || frameCount == 0 else {
            throw .readFailed(path: url.path, reason: "cannot seek to the start")
        }
        var interleaved = [Float](repeating: 0, count: frameCount * channelCount)
        let read = try interleaved.withUnsafeMutableBufferPointer { buffer throws(AudioFileError) in
            try self.read(interleavedInto: buffer)
        }
        var channels = [[Float]](repeating: [Float](repeating: 0, count: read), count: channelCount)
        for frame in 0..<read {
            for channel in 0..<channelCount { channels[channel][frame] = interleaved[frame * channelCount + channel] }
        }
        return channels
    }
}
