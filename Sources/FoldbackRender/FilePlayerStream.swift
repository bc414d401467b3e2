// Streams an audio file from disk into a strip's source ring: read-ahead, channel mapping, gain, resampling, tempo and key, loops. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine
public import Foundation
import Synchronization

/// Plays an audio file into a strip (the AudioFilePlayer heir).
///
/// A disk thread reads the file in blocks (never whole), maps its channels to the strip's (a mono file
/// feeds both sides of a stereo strip; a stereo file into a mono strip is summed at −6 dB; extra
/// channels are dropped), applies the gain, converts the rate with libsamplerate when it differs from
/// the engine's, and keeps the strip's ring topped up to ``queuedFrames`` with up to a second read ahead
/// beyond it. A ``TimePitch`` other than tempo 1 and no shift runs the audio through Rubber Band on the same
/// thread, with the rate conversion folded in; the ring is then kept to ``stretchedQueuedFrames`` so a change
/// of tempo or key is heard within 100 ms (the strip still only reads the ring). Loops are sample-exact: the last frame is followed by the first. The audio thread reads the
/// ring; if it ever runs dry it plays silence and counts an underrun (``underrunCount``).
public final class FilePlayerStream: @unchecked Sendable {
    /// The file played.
    public let url: URL
    /// The strip's channels.
    public let channels: Int
    /// Whether the file starts over at its end.
    public let loops: Bool
    /// Linear gain applied to the file.
    public let gain: Float
    /// The file's sample rate, Hz.
    public let fileRate: Int
    /// The file's length, seconds.
    public let duration: Double
    /// Frames the ring is kept filled to (about 340 ms at 48 kHz): what a stop or restart skips.
    public let queuedFrames = 16_384
    /// Frames the ring is kept filled to while stretching (32 ms at 48 kHz): a tempo change reaches the output through
    /// R3 about 63 ms after the stretcher is told (its analysis window's half, 43 ms, and a hop), so it is heard within
    /// 95 ms even from a full ring (64 ms made that 124 ms); a key change, applied after the synthesis, within ~70 ms.
    public let stretchedQueuedFrames = 1_536
    /// The Rubber Band engine used when stretching.
    public let engine: StretchEngine
    let ring: TapRing
    private let stream: Mutex<Stream>
    private var worker: PeriodicWorker?
    private let onMessage: @Sendable (String) -> Void

    /// The disk side, guarded by the lock.
    private struct Stream {
        let reader: AudioFileReader
        var converter: SampleRateConverter?
        var stretcher: TimePitchStretcher?
        var setting: TimePitch
        /// The frame of the file the reader is at (the song position read, before the stretcher and the ring).
        var fileFrame = 0
        var outputRate: Double = 0
        var isPlaying: Bool
        var isAtEnd = false
        /// Converted frames (strip channels, interleaved) not yet in the ring, from `pendingStart` on.
        var pending: [Float] = []
        var pendingStart = 0
        var failed = false
        /// Whether the disk thread asked for its realtime priority (``DiskThreadPriority``), once.
        var hasAskedForPriority = false
    }

    /// Opens `url` (its format errors come back here) for a strip of `channels` channels; plays at once unless `isPlaying` is false.
    public init(
        url: URL, channels: Int, loops: Bool, gainDB: Float, isPlaying: Bool = true,
        timePitch: TimePitch = .identity, engine: StretchEngine = .finer,
        onMessage: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(AudioFileError) {
        let reader = try AudioFileReader(url: url)
        guard reader.channelCount > 0, reader.sampleRate > 0 else { throw .cannotOpen(path: url.path, reason: "no audio channels") }
        self.url = url
        self.channels = channels
        self.loops = loops
        self.onMessage = onMessage
        self.engine = engine
        gain = powf(10, gainDB / 20)
        fileRate = reader.sampleRate
        duration = Double(reader.frameCount) / Double(reader.sampleRate)
        ring = TapRing(channels: channels, frames: 65_536)
        stream = Mutex(Stream(reader: reader, setting: timePitch, isPlaying: isPlaying))
        // The audio thread empties the ring and cannot wake anyone: the disk thread tops it up every 5 ms, at the
        // lowest realtime priority where allowed (a start or stop from the control side refills at once, on the caller's thread).
        let worker = PeriodicWorker(name: "fb-disk", period: .milliseconds(5)) { [self] in
            stream.withLock { stream in
                if !stream.hasAskedForPriority {
                    DiskThreadPriority.raiseCallingThread()
                    stream.hasAskedForPriority = true
                }
                refill(&stream)
            }
        }   // holds self until close()
        self.worker = worker
        worker.start()
    }

    deinit { close() }

    /// Makes strip `strip` of `graph` play this stream, converting to the graph's rate. Call before installing it.
    public func attach(to graph: EngineGraph, strip: String) throws(EngineError) {
        try graph.attachSource(ring, toStrip: strip)
        setOutputRate(graph.sampleRate)
    }

    /// Converts to `rate` from now on (a new converter when it changes) and fills the ring at once.
    public func setOutputRate(_ rate: Double) {
        stream.withLock { stream in
            guard stream.outputRate != rate else { return }
            stream.outputRate = rate
            stream.stretcher = nil
            stream.converter = nil
            makeConverter(&stream)
            refill(&stream)
        }
    }

    /// The file's tempo and key now.
    public var timePitch: TimePitch { stream.withLock { $0.setting } }

    /// Changes the tempo and key while playing: heard within 100 ms, smoothly, the song position kept. The first
    /// change away from tempo 1 and no shift starts the stretcher; from then on it stays (a return to 1 and 0 is a
    /// setting like any other). Formant preservation is the one chosen at the start.
    public func setTimePitch(_ setting: TimePitch) {
        stream.withLock { stream in
            stream.setting = TimePitch(
                tempo: setting.tempo, semitones: setting.semitones, cents: setting.cents, preservesFormant: stream.setting.preservesFormant)
            if let stretcher = stream.stretcher { return stretcher.update(stream.setting) }
            guard !stream.setting.isIdentity, stream.outputRate > 0 else { return }
            makeConverter(&stream)
        }
    }

    /// Where the song is, seconds into the file, as heard now (what the ring and the stretcher hold subtracted).
    public var songPosition: Double {
        stream.withLock { stream in   // stopped (or ended), the reader waits where the sound stopped
            stream.outputRate > 0 && stream.isPlaying && !stream.isAtEnd ? Double(heardFrame(stream)) / Double(fileRate) : Double(stream.fileFrame) / Double(fileRate)
        }
    }

    /// A stretcher when the setting asks for one, else a rate converter when the rates differ, else neither.
    private func makeConverter(_ stream: inout Stream) {
        let rate = stream.outputRate
        if !stream.setting.isIdentity {
            do throws(AudioFileError) {
                stream.stretcher = try TimePitchStretcher(
                    channels: channels, inputRate: Double(fileRate), outputRate: rate, setting: stream.setting, engine: engine)
                stream.converter = nil
                return
            } catch {
                onMessage("file player: \(error) It plays at its own tempo and key.")
            }
        }
        stream.converter = Int(rate) == fileRate ? nil : try? SampleRateConverter(
            channels: channels, inputRate: Double(fileRate), outputRate: rate, quality: .medium)
    }

    /// Whether the file is playing (false when stopped or, without a loop, played to its end).
    public var isPlaying: Bool { stream.withLock { $0.isPlaying && !$0.isAtEnd } }

    /// Plays from the start; takes effect at the next audio cycle.
    public func start() { restart(playing: true) }

    /// Stops (silence); takes effect at the next audio cycle.
    public func stop() { restart(playing: false) }

    /// Plays on from where it stands (from the top once played to its end); takes effect at the next audio cycle.
    public func resume() {
        let frame = stream.withLock { $0.isAtEnd ? 0 : $0.isPlaying ? heardFrame($0) : $0.fileFrame }   // stopped, the reader waits where it stopped
        restart(playing: true, atFrame: frame)
    }

    /// Stops where it is heard now, so ``resume()`` carries on from there.
    public func pause() {
        let frame = stream.withLock { $0.isPlaying && !$0.isAtEnd ? heardFrame($0) : $0.isAtEnd ? 0 : $0.fileFrame }
        restart(playing: false, atFrame: frame)
    }

    /// Moves to `seconds` into the file (kept within it), playing or stopped as it was.
    public func locate(seconds: Double) {
        let playing = isPlaying
        let frame = Int((max(seconds, 0) * Double(fileRate)).rounded())
        restart(playing: playing, atFrame: min(frame, max(0, durationFrames - 1)))
    }

    /// The file's length, frames.
    private var durationFrames: Int { Int((duration * Double(fileRate)).rounded()) }

    /// The file frame heard now (``songPosition`` in frames).
    private func heardFrame(_ stream: Stream) -> Int {
        guard stream.outputRate > 0 else { return stream.fileFrame }
        let held = Double(ring.availableFrames + (stream.pending.count - stream.pendingStart) / channels + (stream.stretcher?.latencyFrames ?? 0))
        let frame = Int((Double(stream.fileFrame) - held * Double(fileRate) / stream.outputRate * stream.setting.tempo).rounded())
        let length = stream.reader.frameCount
        guard loops, length > 0 else { return max(frame, 0) }
        return (frame % length + length) % length
    }

    /// Frames queued for the audio thread.
    public var bufferedFrames: Int { ring.availableFrames }

    /// Times the audio thread found the ring empty (each a block of silence).
    public var underrunCount: Int { ring.underrunCount }

    /// Ends the disk thread and waits for it; the thread holds the stream until then: call it when done.
    public func close() { worker?.stop() }

    private func restart(playing: Bool, atFrame frame: Int = 0) {
        stream.withLock { stream in
            let mark = ring.writePosition
            // The old audio stops at once; what follows is heard only once it is all there (a stretched start runs
            // R3 over its first ~60 ms of input and more before its first frame): silence meanwhile, not underruns.
            ring.hold(at: mark)
            ring.discard(before: mark)
            stream.isPlaying = playing
            stream.isAtEnd = false
            stream.pending = []
            stream.pendingStart = 0
            stream.converter?.reset()
            stream.stretcher?.reset()
            stream.fileFrame = frame
            do throws(AudioFileError) { try stream.reader.seek(toFrame: frame) } catch { report(error, &stream) }
            refill(&stream, after: mark)
            ring.release()
        }
    }

    /// Tops the ring up to ``queuedFrames`` with file audio (or silence when stopped or ended), counting
    /// only frames written from ring position `mark` on when given (what a restart keeps).
    private func refill(_ stream: inout Stream, after mark: Int? = nil) {
        guard stream.outputRate > 0 else { return }
        func queued() -> Int { mark.map { ring.writePosition - $0 } ?? ring.capacity - ring.freeFrames }
        let target = stream.stretcher == nil ? queuedFrames : stretchedQueuedFrames
        while queued() < target {
            let wanted = min(target - queued(), ring.freeFrames)
            if wanted == 0 { return }
            if stream.pendingStart >= stream.pending.count {
                stream.pending.removeAll(keepingCapacity: true)
                stream.pendingStart = 0
                if !stream.isPlaying || stream.isAtEnd || stream.failed {
                    stream.pending = [Float](repeating: 0, count: min(wanted, 4_096) * channels)
                } else {
                    produce(&stream)
                    continue
                }
            }
            let available = (stream.pending.count - stream.pendingStart) / channels
            let frames = min(available, wanted)
            let written = stream.pending.withUnsafeBufferPointer { ring.fill(from: $0.baseAddress! + stream.pendingStart, frames: frames) }
            guard written else { return }
            stream.pendingStart += frames * channels
        }
    }

    /// Reads, maps, scales and converts the next block of the file into `pending` (looping or ending at its end).
    private func produce(_ stream: inout Stream) {
        let fileChannels = stream.reader.channelCount
        let block = stream.stretcher == nil ? 4_096 : 256   // stretched audio waits in `pending` at the old setting: keep it short
        var raw = [Float](repeating: 0, count: block * fileChannels)
        var frames = 0
        do {
            frames = try raw.withUnsafeMutableBufferPointer { buffer throws(AudioFileError) in try stream.reader.read(interleavedInto: buffer) }
            stream.fileFrame += frames
            if frames == 0, loops, stream.reader.frameCount > 0 {
                try stream.reader.seek(toFrame: 0)   // the stretcher runs on across the loop: a loop point stays one in song time
                return   // the next call reads from the start: the loop is seamless
            }
        } catch {
            return report(error, &stream)
        }
        let mapped = ChannelAdaptation.adapt(raw, frames: frames, from: fileChannels, to: channels, gain: gain)
        let isLast = frames == 0
        if isLast { stream.isAtEnd = true }
        if let stretcher = stream.stretcher {
            return mapped.withUnsafeBufferPointer { input in
                stretcher.process(input, isLastPiece: isLast) { stream.pending.append(contentsOf: $0) }
            }
        }
        guard let converter = stream.converter else { return stream.pending = mapped }
        do {
            try converter.convert(mapped, isLastPiece: isLast, into: &stream.pending)
        } catch {
            report(error, &stream)
        }
    }

    private func report(_ error: AudioFileError, _ stream: inout Stream) {
        stream.failed = true
        onMessage("file player: \(error) The strip plays silence.")
    }
}
