// Reads a sound-check take's files as one interleaved stream at the engine's rate, resampled through one converter for every channel. Non-realtime (the take's disk thread).
// SPDX-License-Identifier: GPL-3.0-or-later

/// A take's files side by side, read at the engine's rate: frame `n` of every strip is the same instant.
///
/// A take recorded at another rate (a 44.1 kHz take into a 48 kHz server) is converted with libsamplerate
/// (``SampleRateConverter``, as the file players do): all strips' channels interleaved through one converter,
/// so every strip gets the same filter and delay and the strips stay sample-aligned to one another. Frames
/// are counted at the engine's rate; a read that does not follow the previous one (a locate or a loop jump)
/// starts a new converter stream at the nearest take frame.
struct TakeReader {
    /// The files, in strip order, and the interleaved channels they make.
    let readers: [AudioFileReader]
    let channels: Int
    /// The take's frames at its own rate (the shortest file's) and at the engine's rate.
    let fileFrames: Int
    let frameCount: Int
    /// The rate the take is recorded at and the rate it is read at, Hz.
    let fileRate: Int
    let outputRate: Int
    private let converter: SampleRateConverter?
    /// Converted frames not yet read (interleaved), the engine frame the first of them is, and the next take
    /// frame to convert (−1: no stream yet).
    private var pending: [Float] = []
    private var pendingPosition = -1
    private var nextFileFrame = 0
    private var isFlushed = false

    /// Reads `readers` (all at `fileRate` Hz) for an engine at `outputRate` Hz.
    init(readers: [AudioFileReader], fileRate: Int, outputRate: Int) throws(AudioFileError) {
        self.readers = readers
        self.fileRate = fileRate
        self.outputRate = outputRate
        channels = readers.reduce(0) { $0 + $1.channelCount }
        fileFrames = readers.map(\.frameCount).min() ?? 0
        if fileRate == outputRate {
            converter = nil
            frameCount = fileFrames
        } else {
            let converter = try SampleRateConverter(channels: channels, inputRate: Double(fileRate), outputRate: Double(outputRate), quality: .medium)
            self.converter = converter
            frameCount = Int(Double(fileFrames) * converter.ratio)
        }
    }

    /// Fills `interleaved` (`frames` × ``channels``, zeroed beforehand) with the take's frames from engine frame
    /// `position` on; frames past the take's end stay zero.
    mutating func read(at position: Int, frames: Int, into interleaved: inout [Float]) throws(AudioFileError) {
        guard let converter else { return try readFiles(at: position, frames: frames, into: &interleaved) }
        if position != pendingPosition {
            converter.reset()
            pending = []
            pendingPosition = position
            nextFileFrame = min(fileFrames, Int((Double(position) / converter.ratio).rounded()))
            isFlushed = false
        }
        while pending.count < frames * channels && !isFlushed {
            let count = min(4_096, fileFrames - nextFileFrame)
            var input = [Float](repeating: 0, count: count * channels)
            try readFiles(at: nextFileFrame, frames: count, into: &input)
            nextFileFrame += count
            isFlushed = nextFileFrame >= fileFrames
            try converter.convert(input, isLastPiece: isFlushed, into: &pending)
        }
        let available = min(frames, pending.count / channels) * channels
        interleaved.replaceSubrange(0..<available, with: pending[0..<available])
        pending.removeFirst(available)
        pendingPosition += frames
    }

    /// Reads `frames` take frames at take frame `position` from every file into `interleaved` at its channels.
    private func readFiles(at position: Int, frames: Int, into interleaved: inout [Float]) throws(AudioFileError) {
        var first = 0
        for reader in readers {
            let fileChannels = reader.channelCount
            var block = [Float](repeating: 0, count: frames * fileChannels)
            try reader.seek(toFrame: position)
            _ = try block.withUnsafeMutableBufferPointer { buffer throws(AudioFileError) in try reader.read(interleavedInto: buffer) }
            for frame in 0..<frames {
                for channel in 0..<fileChannels { interleaved[frame * channels + first + channel] = block[frame * fileChannels + channel] }
            }
            first += fileChannels
        }
    }
}
