// Plays a sound-check take into a show's strips: a disk thread reads every strip's file into one ring; play, stop, locate, loop. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine
public import Foundation
import Synchronization

/// Streams a ``SoundcheckTake`` into a ``TakeSource``: every strip's file is read block by block and
/// interleaved into the one ring the audio thread reads per chunk, so the strips stay sample-aligned
/// whatever the disk does. Stopped or past the end it queues silence; a loop region repeats sample-exactly.
/// Play, stop, locate and loop take effect about ``queuedFrames`` later, together on every strip.
public final class TakePlayer: @unchecked Sendable {
    /// Strips on the take with their files, in show order.
    public let strips: [(name: String, url: URL)]
    /// The source the graph reads (``EngineGraph/attachTake(_:)``).
    public let source: TakeSource
    /// Frames in the take (the shortest file's) and the rate they are counted and played at: the engine's
    /// (a take recorded at another rate is resampled on the disk thread; see ``TakeReader``).
    public var frameCount: Int { disk.withLock { $0.reader.frameCount } }
    public var sampleRate: Int { disk.withLock { $0.reader.outputRate } }
    /// The rate the take was recorded at.
    public let takeSampleRate: Int
    /// Frames kept queued for the audio thread (about 340 ms at 48 kHz).
    public let queuedFrames = 16_384
    private let disk: Mutex<Disk>
    private var worker: PeriodicWorker?

    /// Transport state, guarded by the lock.
    private struct Disk {
        var reader: TakeReader
        var isPlaying: Bool
        /// Next file frame to queue; the loop region (nil: play to the end).
        var position = 0
        var loop: Range<Int>?
        /// Ring positions from which queued frames come from the file at `filePosition` (−1: silence).
        var marks: [(ring: Int, filePosition: Int)] = []
        var interleaved: [Float] = []
        var failed = false
    }

    /// Opens the files of `take` for the show's `strips` (names and channels, show order); strips not on the
    /// take stay live. Plays from the top at once when `isPlaying`. Every file must have the same rate; a take
    /// recorded at another rate than `outputRate` (the engine's; nil: the take's) is resampled to it. The source
    /// takes chunks of up to `maxFrames`.
    public init(
        take: SoundcheckTake, strips: [(name: String, channels: Int)], outputRate: Int? = nil, maxFrames: Int = EngineGraph.maxFramesLimit,
        isPlaying: Bool = true
    ) throws(AudioFileError) {
        var onTake: [(name: String, url: URL)] = []
        var readers: [AudioFileReader] = []
        var channelOf: [String: Int] = [:]
        var channels = 0
        var sampleRate: Int?
        for strip in strips {
            guard let url = take.files[strip.name] else { continue }
            let reader = try AudioFileReader(url: url)
            guard reader.channelCount == strip.channels else {
                throw .invalidArgument("\(url.path): \(reader.channelCount) channels, strip \(strip.name) has \(strip.channels)")
            }
            guard reader.sampleRate == sampleRate ?? reader.sampleRate else {
                throw .invalidArgument("\(url.path): recorded at \(reader.sampleRate) Hz, the take's other files at \(sampleRate ?? 0) Hz")
            }
            sampleRate = reader.sampleRate
            onTake.append((strip.name, url))
            readers.append(reader)
            channelOf[strip.name] = channels
            channels += strip.channels
        }
        guard let sampleRate, !readers.isEmpty else { throw .invalidArgument("the take \(take.stamp) has none of the show's strips") }
        self.strips = onTake
        takeSampleRate = sampleRate
        let reader = try TakeReader(readers: readers, fileRate: sampleRate, outputRate: outputRate ?? sampleRate)
        source = TakeSource(
            strips: strips.map(\.name), channelOfStrip: channelOf, channels: channels, maxFrames: maxFrames, onTake: true)
        disk = Mutex(Disk(reader: reader, isPlaying: isPlaying))
        disk.withLock { refill(&$0) }
        let worker = PeriodicWorker(name: "fb-take", period: .milliseconds(5)) { [self] in disk.withLock { refill(&$0) } }   // holds self until close()
        self.worker = worker
        worker.start()
    }

    deinit { close() }

    /// Ends the disk thread; it holds the player until then: call it when done.
    public func close() { worker?.stop() }

    /// Whether the take is playing (false when stopped or played to its end without a loop).
    public var isPlaying: Bool { disk.withLock { $0.isPlaying } }

    /// The loop region, if any.
    public var loop: Range<Int>? { disk.withLock { $0.loop } }

    /// The take frame the audio thread plays now (nil while it plays silence).
    public var position: Int? { disk.withLock { playingFrame($0) } }

    /// The take frame the audio thread plays now (nil while it plays silence).
    private func playingFrame(_ disk: borrowing Disk) -> Int? {
        let reading = source.ring.writePosition - source.ring.availableFrames
        guard let mark = disk.marks.last(where: { $0.ring <= reading }), mark.filePosition >= 0 else { return nil }
        let frame = mark.filePosition + reading - mark.ring
        guard let loop = disk.loop, frame >= loop.upperBound else { return frame }
        return loop.lowerBound + (frame - loop.lowerBound) % max(1, loop.count)
    }

    /// Plays the take at `rate` Hz (the engine's) from now on, resampled when it differs from the take's own
    /// rate; the position and loop keep their time in the take.
    public func setOutputRate(_ rate: Int) throws(AudioFileError) {
        guard rate != sampleRate else { return }
        var failure: AudioFileError?
        transport { disk in
            do throws(AudioFileError) {
                let reader = try TakeReader(readers: disk.reader.readers, fileRate: takeSampleRate, outputRate: rate)
                let factor = Double(rate) / Double(disk.reader.outputRate)
                let scale = { (frame: Int) in Int((Double(frame) * factor).rounded()) }
                disk.position = scale(playingFrame(disk) ?? disk.position)
                disk.loop = disk.loop.map { scale($0.lowerBound)..<max(scale($0.lowerBound) + 1, scale($0.upperBound)) }
                disk.reader = reader
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Plays from the current position (the start after the end).
    public func play() { transport { if $0.position >= $0.reader.frameCount { $0.position = $0.loop?.lowerBound ?? 0 }; $0.isPlaying = true } }

    /// Stops: the take's strips play silence until ``play()``.
    public func stop() { transport { $0.isPlaying = false } }

    /// Moves to take frame `frame` (clamped), playing or not as before.
    public func locate(_ frame: Int) { transport { $0.position = min(max(0, frame), $0.reader.frameCount) } }

    /// Loops `region` (clamped to the take; nil or empty: no loop), moving into it if outside.
    public func setLoop(_ region: Range<Int>?) {
        transport { disk in
            guard let region, region.lowerBound < disk.reader.frameCount else { return disk.loop = nil }
            let clamped = max(0, region.lowerBound)..<min(region.upperBound, disk.reader.frameCount)
            disk.loop = clamped.isEmpty ? nil : clamped
            if let loop = disk.loop, !loop.contains(disk.position) { disk.position = loop.lowerBound }
        }
    }

    /// Applies `change`, drops everything queued and queues from the new state (effective at the next cycle).
    private func transport(_ change: (inout Disk) -> Void) {
        disk.withLock { disk in
            let mark = source.ring.writePosition
            change(&disk)
            disk.marks = []
            refill(&disk, after: mark)
            source.ring.discard(before: mark)
        }
    }

    /// Tops the ring up to ``queuedFrames`` (counting from ring position `mark` when given).
    private func refill(_ disk: inout Disk, after mark: Int? = nil) {
        let ring = source.ring
        func queued() -> Int { mark.map { ring.writePosition - $0 } ?? ring.capacity - ring.freeFrames }
        while queued() < queuedFrames {
            let wanted = min(queuedFrames - queued(), ring.freeFrames, 4_096)
            if wanted == 0 { return }
            let end = disk.loop?.upperBound ?? disk.reader.frameCount
            if disk.position >= end, let loop = disk.loop { disk.position = loop.lowerBound }
            let playing = disk.isPlaying && !disk.failed && disk.position < end
            let frames = playing ? min(wanted, end - disk.position) : wanted
            if disk.marks.last.map({ ($0.filePosition >= 0) != playing || playing && $0.filePosition + ring.writePosition - $0.ring != disk.position }) ?? true {
                disk.marks.append((ring.writePosition, playing ? disk.position : -1))
                if disk.marks.count > 64 { disk.marks.removeFirst(disk.marks.count - 64) }
            }
            disk.interleaved = [Float](repeating: 0, count: frames * ring.channels)
            if playing { read(&disk, frames: frames) }
            guard disk.interleaved.withUnsafeBufferPointer({ ring.fill(from: $0.baseAddress!, frames: frames) }) else { return }
            if playing { disk.position += frames }
            if disk.position >= disk.reader.frameCount, disk.loop == nil { disk.isPlaying = false }
        }
    }

    /// Reads `frames` frames at `disk.position` from the take into `disk.interleaved`.
    private func read(_ disk: inout Disk, frames: Int) {
        do throws(AudioFileError) {
            try disk.reader.read(at: disk.position, frames: frames, into: &disk.interleaved)
        } catch {
            disk.failed = true
        }
    }
}
