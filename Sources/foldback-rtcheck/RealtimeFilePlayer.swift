// The scenario's stretched file source: a real FilePlayerStream (Rubber Band on its disk thread) feeding strip5, its tempo and key moved by the control loop. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackRender
import Foundation

/// A looped stereo file played into `strip5` through the file player's own disk thread, stretched and shifted
/// (tempo 0.85, −2 semitones to start) and kept moving (tempo and key every 500 cycles), so the audio thread
/// reads a stretched source's ring while its settings change. The check's audio thread runs faster than real
/// time, so it waits (outside the cycle) for the disk thread to have the next cycle's frames in ``stream``.
final class RealtimeFilePlayer {
    static let strip = "strip5"
    private let file: URL
    let stream: FilePlayerStream
    private var moves = 0
    private var lastMove = -1

    /// Writes a 2 s stereo file of two tones and opens it, stretched (Rubber Band's `faster` engine, as a CPU-lean show would).
    init() throws {
        file = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-rtcheck-\(getpid()).wav")
        let rate = Int(RealtimeScenario.sampleRate)
        let writer = try AudioFileWriter(url: file, sampleRate: rate, channelCount: 2)
        try writer.write(interleaved: (0..<2 * rate).flatMap { frame -> [Float] in
            let time = Float(frame) / Float(rate)
            return [0.25 * sinf(2 * .pi * 440 * time), 0.125 * sinf(2 * .pi * 660 * time)]
        })
        try writer.finish()
        stream = try FilePlayerStream(
            url: file, channels: 2, loops: true, gainDB: -6, timePitch: TimePitch(tempo: 0.85, semitones: -2), engine: .faster)
    }

    deinit {
        stream.close()
        try? FileManager.default.removeItem(at: file)
    }

    /// Makes `graph`'s strip5 play the stream (every graph swapped in too).
    func attach(to graph: EngineGraph) throws(EngineError) { try stream.attach(to: graph, strip: Self.strip) }

    /// Moves the tempo (0.7 … 1.3) and key (−3 … +3 semitones, cents) every 500 cycles.
    func service(cyclesDone: Int) {
        let step = cyclesDone / 500
        guard step != lastMove else { return }
        lastMove = step
        stream.setTimePitch(TimePitch(tempo: 0.7 + 0.1 * Double(step % 7), semitones: Double(step % 7 - 3), cents: Double(step % 3) * 25))
        moves += 1
    }

    var failures: [String] {
        var failures: [String] = []
        if moves < 4 { failures.append("the stretched source's tempo moved only \(moves)×") }
        if stream.underrunCount > 0 { failures.append("the stretched file source ran dry \(stream.underrunCount)× (the driver waits for it)") }
        return failures
    }

    var summary: String { "a stretched file source (\(moves) tempo/key moves, \(stream.underrunCount) underruns)" }
}
