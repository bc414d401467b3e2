// A file-source strip in an offline render: its file (tempo, key, gain) fed into the strip's source ring each block. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
public import Foundation

/// A preset's file source as a render plays it: once through (a loop is not repeated), at its tempo and key.
public struct RenderSource: Sendable {
    /// The strip that plays it.
    public var strip: String
    /// The file.
    public var url: URL
    /// Its gain, dB.
    public var gainDB: Float
    /// Its tempo and key.
    public var timePitch: TimePitch

    /// A source.
    public init(strip: String, url: URL, gainDB: Float = 0, timePitch: TimePitch = .identity) {
        self.strip = strip
        self.url = url
        self.gainDB = gainDB
        self.timePitch = timePitch
    }
}

/// Feeds one file-source strip of a render graph: reads a block from its stream and puts it in the strip's ring.
final class RenderSourceFeed {
    let stream: RenderInputStream
    private let ring: TapRing
    private let gain: Float
    private let planar: [UnsafeMutablePointer<Float>]
    private var interleaved: [Float]

    /// Attaches a ring to `source`'s strip of `graph` and opens its file.
    init(_ source: RenderSource, graph: EngineGraph, block: Int) throws(RenderError) {
        guard let description = graph.description.strips.first(where: { $0.name == source.strip }), description.isFileSource else {
            throw .nothingToRender("strip '\(source.strip)' plays no file")
        }
        stream = try RenderInputStream(
            strip: source.strip, url: source.url, stripChannels: description.channels, renderRate: Int(graph.sampleRate),
            timePitch: source.timePitch)
        ring = TapRing(channels: description.channels, frames: max(4_096, 2 * block))
        do { try graph.attachSource(ring, toStrip: source.strip) } catch { throw .engine(error.description) }
        gain = powf(10, source.gainDB / 20)
        planar = (0..<description.channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        interleaved = [Float](repeating: 0, count: block * description.channels)
    }

    deinit { planar.forEach { $0.deallocate() } }

    /// Puts the next `frames` frames (silence after the end) into the strip's ring, for the next cycle.
    func feed(frames: Int) throws(RenderError) {
        _ = try stream.fill(planar, frames: frames)
        let channels = planar.count
        for channel in 0..<channels {
            for frame in 0..<frames { interleaved[frame * channels + channel] = planar[channel][frame] * gain }
        }
        _ = interleaved.withUnsafeBufferPointer { ring.fill(from: $0.baseAddress!, frames: frames) }
    }
}
