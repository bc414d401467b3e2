// One render input: a file read in pieces, adapted to its strip's channels and resampled to the render rate. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Streams one audio file into one strip as planar blocks at the render rate.
///
/// Channel adaptation follows the engine's laws: a mono file feeds both channels of a stereo strip
/// (as one source wired to both ports), a stereo file feeds a mono strip as 0.5·(L+R) (the engine's
/// stereo→mono law). Other channel counts are refused. A file at another rate is converted with
/// ``SampleRateConverter`` (best quality). A ``TimePitch`` other than tempo 1 and no shift runs it through a
/// ``TimePitchStretcher`` instead (R3, the finer engine), which converts the rate in the same pass. After the file
/// ends the stream yields silence.
final class RenderInputStream {
    /// The strip fed.
    let strip: String
    /// The file read.
    let url: URL
    /// The file's channels and rate.
    let fileChannels: Int
    let fileRate: Int
    /// Channels the strip takes.
    let stripChannels: Int
    /// The file's length in frames at its own rate.
    let fileFrames: Int
    /// Whether ``estimatedFrames`` comes from a file whose length libsndfile checked (not a pipe).
    let isSeekable: Bool
    /// Real (not padding) frames delivered so far, at the render rate.
    private(set) var deliveredFrames = 0
    /// True once the file and the converter are drained: ``deliveredFrames`` is the stream's length.
    private(set) var isFinished = false

    private let reader: AudioFileReader
    private let converter: SampleRateConverter?
    private let stretcher: TimePitchStretcher?
    private let pending: PlanarFIFO
    private var readBuffer: [Float]
    private var fileDrained = false

    /// Frames read from the file at once.
    private static let pieceFrames = 16384

    /// Opens `url` for `strip` (of `stripChannels` channels) rendered at `renderRate` Hz.
    init(strip: String, url: URL, stripChannels: Int, renderRate: Int, timePitch: TimePitch = .identity) throws(RenderError) {
        do {
            reader = try AudioFileReader(url: url)
        } catch {
            throw .unreadableInput(strip: strip, error: error)
        }
        guard reader.channelCount == stripChannels || (1...2).contains(reader.channelCount) else {
            throw .channelMismatch(strip: strip, path: url.path, fileChannels: reader.channelCount, stripChannels: stripChannels)
        }
        self.strip = strip
        self.url = url
        self.stripChannels = stripChannels
        fileChannels = reader.channelCount
        fileRate = reader.sampleRate
        fileFrames = reader.frameCount
        isSeekable = reader.isSeekable
        if !timePitch.isIdentity {
            do {
                stretcher = try TimePitchStretcher(
                    channels: fileChannels, inputRate: Double(fileRate), outputRate: Double(renderRate), setting: timePitch, engine: .finer)
            } catch {
                throw .unreadableInput(strip: strip, error: error)
            }
            converter = nil
        } else if fileRate != renderRate {
            stretcher = nil
            do {
                converter = try SampleRateConverter(channels: fileChannels, inputRate: Double(fileRate), outputRate: Double(renderRate))
            } catch {
                throw .unreadableInput(strip: strip, error: error)
            }
        } else {
            (converter, stretcher) = (nil, nil)
        }
        pending = PlanarFIFO(channels: stripChannels, capacity: 2 * Self.pieceFrames)
        readBuffer = [Float](repeating: 0, count: Self.pieceFrames * fileChannels)
    }

    /// The stream's approximate length at the render rate (exact when not resampled).
    var estimatedFrames: Int {
        let ratio = stretcher.map { $0.outputRate / $0.inputRate / $0.setting.tempo } ?? converter?.ratio
        guard let ratio else { return fileFrames }
        let frames = (Double(fileFrames) * ratio).rounded()
        return frames < Double(Int.max / 2) ? Int(frames) : Int.max / 2   // (a pipe's header may claim any length)
    }

    /// What was done to the file to fit the strip and the rate, for the report (empty if nothing).
    var adaptations: [String] {
        var notes: [String] = []
        if fileChannels != stripChannels {
            notes.append(fileChannels == 1 ? "mono file fed to both channels" : "stereo file mixed to mono as 0.5·(L+R)")
        }
        if let stretcher {
            notes.append("\(stretcher.setting.summary) (Rubber Band R3), \(fileRate) Hz → \(Int(stretcher.outputRate)) Hz")
        }
        if let converter {
            notes.append("resampled \(fileRate) Hz → \(Int((Double(fileRate) * converter.ratio).rounded())) Hz")
        }
        return notes
    }

    /// Writes `frames` frames into `channels` (one buffer per strip channel), padding with silence
    /// after the end; returns how many frames were real audio.
    func fill(_ channels: [UnsafeMutablePointer<Float>], frames: Int) throws(RenderError) -> Int {
        while pending.count < frames && !fileDrained { try readPiece() }
        let real = pending.take(frames, into: channels)
        if real < frames {
            for channel in channels { (channel + real).update(repeating: 0, count: frames - real) }
            isFinished = true
        }
        deliveredFrames += real
        return real
    }

    /// Reads (and converts) one piece of the file into `pending`, de-interleaved and adapted to the strip's
    /// channels as live use does, straight from the read buffer (or the converter's scratch) into place.
    private func readPiece() throws(RenderError) {
        let read: Int
        do {
            read = try readBuffer.withUnsafeMutableBufferPointer { buffer throws(AudioFileError) in try reader.read(interleavedInto: buffer) }
        } catch {
            throw .unreadableInput(strip: strip, error: error)
        }
        if read == 0 { fileDrained = true }
        let (fileChannels, stripChannels, pending) = (fileChannels, stripChannels, pending)
        func store(_ samples: UnsafeBufferPointer<Float>) {
            let frames = samples.count / fileChannels
            guard frames > 0, let base = samples.baseAddress else { return }
            pending.append(upTo: frames) { destinations in
                ChannelAdaptation.deinterleave(base, frames: frames, from: fileChannels, into: destinations, channels: stripChannels)
                return frames
            }
        }
        try readBuffer.withUnsafeBufferPointer { buffer throws(RenderError) in
            let piece = UnsafeBufferPointer(rebasing: buffer[0..<(read * fileChannels)])
            if let stretcher { return stretcher.process(piece, isLastPiece: read == 0, deliver: store) }
            guard let converter else { return store(piece) }
            do throws(AudioFileError) {
                try converter.convert(piece, isLastPiece: read == 0, deliver: store)
            } catch {
                throw .unreadableInput(strip: strip, error: error)
            }
        }
    }
}
