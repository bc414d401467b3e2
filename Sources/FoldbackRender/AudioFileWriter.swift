// Writes WAV and FLAC files through libsndfile, to a temporary name renamed into place when finished. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import CSndfile
public import Foundation

/// Writes a multichannel WAV or FLAC file.
///
/// Samples go to a hidden temporary file beside the destination; ``finish()`` closes it and renames
/// it over the destination in one step, so a reader never sees half a file and an interrupted
/// render never clobbers an existing one. Dropping the writer without ``finish()`` deletes the
/// temporary file. ``finish()`` puts the whole file, final header included, on disk (`fsync`) before the rename.
/// Files over 4 GiB are written as RF64 automatically. Such a writer gathers what it is
/// given into writes of about 256 KiB (a render hands it one small block at a time, and a system call per
/// block cost more CPU than the file system's copying); a recording writes each block at once.
public final class AudioFileWriter {
    /// Where the finished file goes.
    public let url: URL
    /// In hertz.
    public let sampleRate: Int
    /// Channels per frame.
    public let channelCount: Int
    /// Sample format.
    public let format: AudioFileFormat
    /// Frames written so far.
    public private(set) var framesWritten = 0

    private let temporaryURL: URL
    private var file: OpaquePointer?
    /// The temporary file's descriptor, which the writer (not libsndfile) closes; -1 while recording.
    private var descriptor: Int32 = -1
    /// Whether ``reserve(frames:)`` reserved blocks that the finished file may not use.
    private var hasReservation = false
    /// Recordings are written straight to ``url`` (see ``init(recordingTo:sampleRate:channelCount:format:)``).
    private var writesInPlace = false
    /// Interleaved frames not yet handed to libsndfile (none while recording).
    private var pending: UnsafeMutablePointer<Float>?
    private var pendingFrames = 0
    private var pendingCapacity = 0

    /// Creates the temporary file.
    /// - Parameters:
    ///   - url: the destination; replaced when ``finish()`` succeeds.
    ///   - sampleRate: in hertz.
    ///   - channelCount: channels per frame (1…1024).
    ///   - format: the sample format.
    public init(url: URL, sampleRate: Int, channelCount: Int, format: AudioFileFormat = .float) throws(AudioFileError) {
        guard sampleRate > 0, sampleRate <= 1_536_000 else {
            throw .invalidArgument("Sample rate \(sampleRate) Hz is outside 1…1536000 Hz.")
        }
        guard channelCount > 0, channelCount <= 1024 else {
            throw .invalidArgument("Channel count \(channelCount) is outside 1…1024.")
        }
        self.url = url
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.format = format
        let directory = url.deletingLastPathComponent()
        temporaryURL = directory.appendingPathComponent(
            ".\(url.lastPathComponent).partial-\(ProcessInfo.processInfo.processIdentifier)")
        var info = SF_INFO(
            frames: 0, samplerate: Int32(sampleRate), channels: Int32(channelCount), format: format.sndfileFormat,
            sections: 0, seekable: 0)
        let descriptor = open(temporaryURL.path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw .cannotCreate(path: url.path, reason: String(cString: strerror(errno)))
        }
        guard let opened = sf_open_fd(descriptor, Int32(SFM_WRITE), &info, Int32(SF_FALSE)) else {
            let reason = String(cString: sf_strerror(nil))
            close(descriptor)
            unlink(temporaryURL.path)
            throw .cannotCreate(path: url.path, reason: reason)
        }
        self.descriptor = descriptor
        file = opened
        if format != .flac { sf_command(opened, Int32(SFC_RF64_AUTO_DOWNGRADE), nil, Int32(SF_TRUE)) }
        if format.clips { sf_command(opened, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE)) }
        pendingCapacity = max(1, Self.gatheredSamples / channelCount)
        pending = .allocate(capacity: pendingCapacity * channelCount)
    }

    /// Reserves disk space for `frames` frames (WAV only: a FLAC's size is not known ahead), so a render that
    /// would fill the disk fails before it starts, and the file system allocates the file in large pieces
    /// instead of page by page as it is written (for a long render that is less CPU time). Space the
    /// finished file does not use is given back by ``finish()``. A file system that cannot reserve space
    /// is written as before.
    /// - Throws: ``AudioFileError/cannotCreate(path:reason:)`` when the disk (or the file system's largest
    ///   file) cannot hold it.
    public func reserve(frames: Int) throws(AudioFileError) {
        guard descriptor >= 0, format != .flac, frames > 0 else { return }
        let bytesPerSample = format == .pcm24 ? 3 : 4
        let (data, overflow) = frames.multipliedReportingOverflow(by: channelCount * bytesPerSample)
        guard !overflow, data < Int(Int64.max) - Self.headerAllowance else { return }
        let status = fb_reserve_file_space(descriptor, Int64(data + Self.headerAllowance))
        if status == 0 {
            hasReservation = true
        } else if status == ENOSPC || status == EFBIG {
            let megabytes = data / 1_000_000 + 1   // (rounded up, with the header; cannot overflow)
            throw .cannotCreate(path: url.path, reason: "not enough disk space for \(megabytes) MB of audio (\(String(cString: strerror(status))))")
        }
    }

    /// Bytes reserved beyond the samples for the header (RF64 and WAV headers with a PEAK chunk are smaller).
    private static let headerAllowance = 4096

    /// Samples gathered before one write: 256 KiB.
    private static let gatheredSamples = 65_536

    /// Creates `url` for a live recording, written in place (never renamed) so a crash leaves what was
    /// written readable: WAV and W64 headers are rewritten after every write. ``finish()`` and
    /// ``cancel()`` both close the file and keep it.
    public init(recordingTo url: URL, sampleRate: Int, channelCount: Int, format: RecordingFormat) throws(AudioFileError) {
        guard sampleRate > 0, sampleRate <= 1_536_000, channelCount > 0, channelCount <= 1024 else {
            throw .invalidArgument("Cannot record \(channelCount) channel(s) at \(sampleRate) Hz.")
        }
        self.url = url
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.format = .float
        temporaryURL = url
        writesInPlace = true
        var info = SF_INFO(
            frames: 0, samplerate: Int32(sampleRate), channels: Int32(channelCount), format: format.sndfileFormat,
            sections: 0, seekable: 0)
        guard let opened = sf_open(url.path, Int32(SFM_WRITE), &info) else {
            throw .cannotCreate(path: url.path, reason: String(cString: sf_strerror(nil)))
        }
        file = opened
        if format.updatesHeader { sf_command(opened, Int32(SFC_SET_UPDATE_HEADER_AUTO), nil, Int32(SF_TRUE)) }
    }

    deinit {
        cancel()
        pending?.deallocate()
    }

    /// Appends interleaved frames (`samples.count` must be a multiple of ``channelCount``).
    public func write(interleaved samples: UnsafeBufferPointer<Float>) throws(AudioFileError) {
        guard let file else { throw .writeFailed(path: url.path, reason: "the file was already finished") }
        guard samples.count % channelCount == 0 else {
            throw .invalidArgument("\(samples.count) samples is not a whole number of \(channelCount)-channel frames.")
        }
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        let frames = samples.count / channelCount
        if pending != nil, frames < pendingCapacity {
            try write(frames: frames) { $0.update(from: base, count: samples.count) }
            return
        }
        try flush(file)
        try hand(base, frames: frames, to: file)
        framesWritten += frames
    }

    /// Appends `frames` interleaved frames that `fill` writes at the pointer it is given (room for `frames` ×
    /// ``channelCount`` samples): into the gathered writes' buffer when they fit, which saves a copy.
    public func write(frames: Int, filling fill: (UnsafeMutablePointer<Float>) -> Void) throws(AudioFileError) {
        guard let file else { throw .writeFailed(path: url.path, reason: "the file was already finished") }
        guard frames > 0 else { return }
        guard let pending, frames < pendingCapacity else {
            let samples = UnsafeMutablePointer<Float>.allocate(capacity: frames * channelCount)
            defer { samples.deallocate() }
            fill(samples)
            try write(interleaved: UnsafeBufferPointer(start: samples, count: frames * channelCount))
            return
        }
        if pendingFrames + frames > pendingCapacity { try flush(file) }
        fill(pending + pendingFrames * channelCount)
        pendingFrames += frames
        framesWritten += frames
    }

    /// Hands the gathered frames to libsndfile.
    private func flush(_ file: OpaquePointer) throws(AudioFileError) {
        guard let pending, pendingFrames > 0 else { return }
        defer { pendingFrames = 0 }
        try hand(pending, frames: pendingFrames, to: file)
    }

    private func hand(_ base: UnsafePointer<Float>, frames: Int, to file: OpaquePointer) throws(AudioFileError) {
        guard sf_writef_float(file, base, sf_count_t(frames)) == sf_count_t(frames) else {
            throw .writeFailed(path: url.path, reason: String(cString: sf_strerror(file)))
        }
    }

    /// Appends interleaved frames.
    public func write(interleaved samples: [Float]) throws(AudioFileError) {
        try samples.withUnsafeBufferPointer { buffer throws(AudioFileError) in try write(interleaved: buffer) }
    }

    /// Appends planar frames: one equally long array per channel.
    public func write(planar channels: [[Float]]) throws(AudioFileError) {
        guard channels.count == channelCount, let frames = channels.first?.count,
              channels.allSatisfy({ $0.count == frames })
        else { throw .invalidArgument("Expected \(channelCount) channels of equal length.") }
        var interleaved = [Float](repeating: 0, count: frames * channelCount)
        for (channel, samples) in channels.enumerated() {
            for (frame, sample) in samples.enumerated() { interleaved[frame * channelCount + channel] = sample }
        }
        try write(interleaved: interleaved)
    }

    /// Closes the file and renames it into place, replacing any file at ``url``.
    public func finish() throws(AudioFileError) {
        guard let file else { throw .writeFailed(path: url.path, reason: "the file was already finished") }
        do {
            try flush(file)
        } catch {
            cancel()
            throw error
        }
        self.file = nil
        if writesInPlace { sf_write_sync(file) }
        let closed = sf_close(file)
        guard closed == 0 else {
            closeDescriptor()
            if !writesInPlace { try? FileManager.default.removeItem(at: temporaryURL) }
            throw .writeFailed(path: url.path, reason: String(cString: sf_error_number(closed)))
        }
        if writesInPlace { return }
        // libsndfile wrote the final header on closing: give back unused reserved space, then put it all on disk.
        var status = stat()
        if hasReservation, fstat(descriptor, &status) == 0 { _ = ftruncate(descriptor, status.st_size) }
        let synced = fsync(descriptor) == 0 ? 0 : errno
        closeDescriptor()
        guard synced == 0 || synced == EINVAL else {
            try? FileManager.default.removeItem(at: temporaryURL)
            throw .writeFailed(path: url.path, reason: String(cString: strerror(synced)))
        }
        guard rename(temporaryURL.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporaryURL)
            throw .cannotRename(from: temporaryURL.path, to: url.path, reason: reason)
        }
    }

    /// Closes and deletes the temporary file, leaving ``url`` untouched. Safe after ``finish()``.
    public func cancel() {
        guard let file else { return }
        self.file = nil
        sf_close(file)
        closeDescriptor()
        if !writesInPlace { try? FileManager.default.removeItem(at: temporaryURL) }
    }

    private func closeDescriptor() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }
}
