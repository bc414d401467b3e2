// One render input: a file read in pieces, adapted to its strip's channels and resampled to the render rate. Non-realtime.
import Foundation

/// Streams one audio file into one strip as planar blocks at the render rate.
///
/// Channel adaptation follows the engine's laws: a mono file feeds both channels of a stereo strip
/// (as one source wired to both ports), a stereo file feeds a mono strip as 0.5·(L+R) (the engine's
/// stereo→mono law). Other channel counts are refused. A file at another rate is converted with
/// ``SampleRateConverter`` (best quality). After the file ends the stream yields silence.
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
    /// Real (not padding) frames delivered so far, at the render rate.
    private(set) var deliveredFrames = 0
    /// True once the file and the converter are drained: ``deliveredFrames`` is the stream's length.
    private(set) var isFinished = false

    private let reader: AudioFileReader
    private let converter: SampleRateConverter?
    private var pending: [[Float]]
    private var head = 0
    private var readBuffer: [Float]
    private var converted: [Float] = []
    private var fileDrained = false

    /// Frames read from the file at once.
    private static let pieceFrames = 16384

    /// Opens `url` for `strip` (of `stripChannels` channels) rendered at `renderRate` Hz.
    init(strip: String, url: URL, stripChannels: Int, renderRate: Int) throws(RenderError) {
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
        if fileRate != renderRate {
            do {
                converter = try SampleRateConverter(channels: fileChannels, inputRate: Double(fileRate), outputRate: Double(renderRate))
            } catch {
                throw .unreadableInput(strip: strip, error: error)
            }
        } else {
            converter = nil
        }
        pending = [[Float]](repeating: [], count: stripChannels)
        readBuffer = [Float](repeating: 0, count: Self.pieceFrames * fileChannels)
    }

    /// The stream's approximate length at the render rate (exact when not resampled).
    var estimatedFrames: Int {
        guard let converter else { return fileFrames }
        return Int((Double(fileFrames) * converter.ratio).rounded())
    }

    /// What was done to the file to fit the strip and the rate, for the report (empty if nothing).
    var adaptations: [String] {
        var notes: [String] = []
        if fileChannels != stripChannels {
            notes.append(fileChannels == 1 ? "mono file fed to both channels" : "stereo file mixed to mono as 0.5·(L+R)")
        }
        if let converter {
            notes.append("resampled \(fileRate) Hz → \(Int((Double(fileRate) * converter.ratio).rounded())) Hz")
        }
        return notes
    }

    /// Writes `frames` frames into `channels` (one buffer per strip channel), padding with silence
    /// after the end; returns how many frames were real audio.
    func fill(_ channels: [UnsafeMutablePointer<Float>], frames: Int) throws(RenderError) -> Int {
        while pending[0].count - head < frames && !fileDrained { try readPiece() }
        let real = min(frames, pending[0].count - head)
        for channel in 0..<stripChannels {
            let destination = channels[channel]
            pending[channel].withUnsafeBufferPointer { source in
                for frame in 0..<real { destination[frame] = source[head + frame] }
            }
            for frame in real..<frames { destination[frame] = 0 }
        }
        head += real
        deliveredFrames += real
        if real < frames { isFinished = true }
        if head >= Self.pieceFrames {   // drop consumed samples now and then
            for channel in 0..<stripChannels { pending[channel].removeFirst(head) }
            head = 0
        }
        return real
    }

    /// Reads (and converts) one piece of the file into `pending`.
    private func readPiece() throws(RenderError) {
        let read: Int
        do {
            read = try readBuffer.withUnsafeMutableBufferPointer { buffer throws(AudioFileError) in try reader.read(interleavedInto: buffer) }
        } catch {
            throw .unreadableInput(strip: strip, error: error)
        }
        if read == 0 { fileDrained = true }
        guard let converter else {
            append(interleaved: readBuffer, frames: read)
            return
        }
        converted.removeAll(keepingCapacity: true)
        do {
            let piece = Array(readBuffer[0..<(read * fileChannels)])
            let produced = try converter.convert(piece, isLastPiece: read == 0, into: &converted)
            append(interleaved: converted, frames: produced)
        } catch {
            throw .unreadableInput(strip: strip, error: error)
        }
    }

    /// Appends interleaved file frames to `pending`, adapted to the strip's channels as live use does.
    /// Each channel grows once per piece (geometrically, by the array's own growth) and is filled through
    /// its buffer pointer: no per-sample append, no copy of what is already pending.
    private func append(interleaved samples: [Float], frames: Int) {
        guard frames > 0 else { return }
        let adapted = ChannelAdaptation.adapt(samples, frames: frames, from: fileChannels, to: stripChannels)
        adapted.withUnsafeBufferPointer { source in
            for channel in 0..<stripChannels {
                let start = pending[channel].count
                pending[channel].append(contentsOf: repeatElement(0, count: frames))
                pending[channel].withUnsafeMutableBufferPointer { destination in
                    for frame in 0..<frames { destination[start + frame] = source[frame * stripChannels + channel] }
                }
            }
        }
    }
}
