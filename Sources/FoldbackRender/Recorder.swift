// Record taps: one ring per tapped bus or strip, a disk thread writing takes with libsndfile, start/stop. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine
public import Foundation
import Synchronization

/// Records buses and strips of a running engine to audio files (the installTap heir).
///
/// Each tap copies its signal on the audio thread into a preallocated ``TapRing``; a disk thread drains
/// the rings every few milliseconds into one file per tap and take. The audio thread never waits: if
/// the disk falls behind by more than the ring (``ringSeconds``), the block is dropped, counted as an
/// overrun and reported through `onMessage`. Attach the recorder to every graph before it is installed
/// (``attach(to:)``); ``start(sampleRate:)`` and ``stop()`` may be called from any non-realtime thread,
/// and ``close()`` when done.
public final class Recorder: @unchecked Sendable {
    /// One tapped bus or strip.
    public struct Track: Sendable {
        /// What is tapped.
        public let point: TapPoint
        /// Channels recorded.
        public let channels: Int
        let ring: TapRing
    }

    /// What a take did, per track.
    public struct TrackReport: Sendable, CustomStringConvertible {
        /// The file written.
        public let url: URL
        /// Frames the audio thread processed while the take ran.
        public let framesProcessed: Int
        /// Frames in the file.
        public let framesWritten: Int
        /// Frames dropped because the disk could not keep up, and how many times it happened.
        public let framesDropped: Int
        public let overruns: Int

        public var description: String {
            "\(url.lastPathComponent): \(framesWritten) frames written of \(framesProcessed) processed"
                + (overruns > 0 ? ", \(framesDropped) lost in \(overruns) overruns" : "")
        }
    }

    /// The tracks, in the order given.
    public let tracks: [Track]
    /// Where takes go.
    public let directory: URL
    /// The file format.
    public let format: RecordingFormat
    /// Seconds of audio each ring holds before the disk thread must have written them.
    public let ringSeconds: Double
    /// The switch every tap of this recorder shares.
    public let control = TapSwitch()
    private let onMessage: @Sendable (String) -> Void
    private let take = Mutex<Take?>(nil)
    private let isClosed = Atomic<Bool>(false)
    private var worker: PeriodicWorker?

    /// One open file per track and its counters at the start of the take.
    private struct Take {
        var writers: [AudioFileWriter]
        var offeredAtStart: [Int]
        var droppedAtStart: [Int]
        var overrunsAtStart: [Int]
        var overrunsReported: [Int]
        var failed: [Bool]
        var scratch: UnsafeMutablePointer<Float>
        var scratchFrames: Int
    }

    /// A recorder of `points` (with their channel counts) into `directory`, whose rings hold
    /// `ringSeconds` at up to `maxSampleRate`. Starts the disk thread; nothing is recorded before ``start(sampleRate:)``.
    public init(
        directory: URL, points: [(point: TapPoint, channels: Int)], format: RecordingFormat = .wav,
        maxSampleRate: Double = 192_000, ringSeconds: Double = 4, onMessage: @escaping @Sendable (String) -> Void
    ) {
        self.directory = directory
        self.format = format
        self.ringSeconds = ringSeconds
        self.onMessage = onMessage
        tracks = points.map { Track(point: $0.point, channels: $0.channels, ring: TapRing(channels: $0.channels, frames: Int(maxSampleRate * ringSeconds))) }
        // The audio thread fills the rings and cannot wake anyone: during a take the disk thread drains them
        // every 50 ms (the rings hold `ringSeconds`); between takes it sleeps until ``start(sampleRate:)`` wakes it.
        let worker = PeriodicWorker(name: "fb-record") { [self] in   // holds self until close()
            drainTake() ? .after(.milliseconds(50)) : .whenWoken
        }
        self.worker = worker
        worker.start()
    }

    deinit { close() }

    /// Makes `graph` feed this recorder's taps. Call before installing it.
    public func attach(to graph: EngineGraph) throws(EngineError) {
        for track in tracks { try graph.attachTap(track.ring, to: track.point, control: control) }
    }

    /// Whether a take is running.
    public var isRecording: Bool { take.withLock { $0 != nil } }

    /// Opens one file per track (`<time>-<bus|strip>-<name>.<ext>` in ``directory``) and starts the taps
    /// at the next audio chunk. Returns the files. Does nothing if a take is running.
    @discardableResult
    public func start(sampleRate: Int) throws(AudioFileError) -> [URL] {
        try take.withLock { (current: inout Take?) throws(AudioFileError) -> [URL] in
            if let current { return current.writers.map(\.url) }
            let stamp = Self.stamp()
            var writers: [AudioFileWriter] = []
            for track in tracks {
                let url = Self.freeURL(in: directory, stem: "\(stamp)-\(Self.label(track.point))", ext: format.fileExtension)
                writers.append(try AudioFileWriter(recordingTo: url, sampleRate: sampleRate, channelCount: track.channels, format: format))
            }
            let frames = 8192
            let widest = tracks.map(\.channels).max() ?? 1
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: frames * widest)
            scratch.initialize(repeating: 0, count: frames * widest)   // touched now, not by a late drain mid-take
            current = Take(
                writers: writers, offeredAtStart: tracks.map(\.ring.framesOffered), droppedAtStart: tracks.map(\.ring.framesDropped),
                overrunsAtStart: tracks.map(\.ring.overrunCount), overrunsReported: tracks.map(\.ring.overrunCount),
                failed: tracks.map { _ in false }, scratch: scratch, scratchFrames: frames)
            control.request(on: true)
            worker?.wake()
            return writers.map(\.url)
        }
    }

    /// Stops the taps at the next audio chunk, writes what is left and closes the files.
    /// Waits up to `timeout` seconds for the audio thread to take the stop (it may not be running).
    @discardableResult
    public func stop(timeout: Double = 2) -> [TrackReport] {
        control.request(on: false)
        let deadline = Date().addingTimeInterval(timeout)
        while !control.isSettled && Date() < deadline { usleep(1_000) }
        return take.withLock { (current: inout Take?) -> [TrackReport] in
            guard var running = current else { return [] }
            current = nil
            drain(&running)
            var reports: [TrackReport] = []
            for (index, track) in tracks.enumerated() {
                let writer = running.writers[index]
                do { try writer.finish() } catch { onMessage("recording: \(error)") }
                reports.append(TrackReport(
                    url: writer.url, framesProcessed: track.ring.framesOffered - running.offeredAtStart[index],
                    framesWritten: writer.framesWritten, framesDropped: track.ring.framesDropped - running.droppedAtStart[index],
                    overruns: track.ring.overrunCount - running.overrunsAtStart[index]))
            }
            running.scratch.deallocate()
            return reports
        }
    }

    /// Frames waiting in the fullest ring for the disk thread.
    public var pendingFrames: Int { tracks.map(\.ring.availableFrames).max() ?? 0 }

    /// Overruns (blocks dropped) since the recorder was made, over all tracks.
    public var overrunCount: Int { tracks.reduce(0) { $0 + $1.ring.overrunCount } }

    /// Frames of the current take written so far by the first track (0 when stopped).
    public var framesWritten: Int { take.withLock { $0?.writers.first?.framesWritten ?? 0 } }

    /// Stops any take and ends the disk thread, which holds the recorder until then: call it when done.
    public func close() {
        if isClosed.exchange(true, ordering: .acquiringAndReleasing) { return }
        stop()
        worker?.stop()
    }

    /// Drains the running take, if any; returns whether one runs.
    private func drainTake() -> Bool {
        take.withLock { current in
            guard var running = current else { return false }
            drain(&running)
            current = running
            return true
        }
    }

    /// Moves everything waiting in the rings into the files; reports new overruns and write failures.
    private func drain(_ running: inout Take) {
        for (index, track) in tracks.enumerated() {
            while true {
                let frames = track.ring.drain(into: running.scratch, maxFrames: running.scratchFrames)
                if frames == 0 { break }
                guard !running.failed[index] else { continue }
                do {
                    try running.writers[index].write(interleaved: UnsafeBufferPointer(start: running.scratch, count: frames * track.channels))
                } catch {
                    running.failed[index] = true
                    onMessage("recording: \(error) Further audio for \(Self.label(track.point)) is discarded.")
                }
            }
            let overruns = track.ring.overrunCount
            if overruns > running.overrunsReported[index] {
                running.overrunsReported[index] = overruns
                onMessage("warning: recording overrun on \(Self.label(track.point)): the disk fell \(ringSeconds) s behind, "
                    + "\(track.ring.framesDropped - running.droppedAtStart[index]) frames lost so far (\(overruns - running.overrunsAtStart[index]) overruns)")
            }
        }
    }

    static func label(_ point: TapPoint) -> String {
        switch point {
        case .bus(let name): "bus-\(name)"
        case .strip(let name): "strip-\(name)"
        case .stripInput(let name): "input-\(name)"
        }
    }

    private static func stamp() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: Date())
    }

    private static func freeURL(in directory: URL, stem: String, ext: String) -> URL {
        var url = directory.appendingPathComponent("\(stem).\(ext)")
        var counter = 2
        while FileManager.default.fileExists(atPath: url.path) {
            url = directory.appendingPathComponent("\(stem)-\(counter).\(ext)")
            counter += 1
        }
        return url
    }
}
