// Offline render: drives the live engine's cycle on the calling thread from files to files. Non-realtime driver of the realtime cycle.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
public import FoldbackEngine
public import Foundation

/// Files in and out of one render.
public struct RenderRequest: Sendable {
    /// Strip name → the file it plays.
    public var inputs: [(strip: String, url: URL)]
    /// Bus name → the file it is written to.
    public var outputs: [(bus: String, url: URL)]
    /// Sample format of every output; nil: each output's by its extension (see ``AudioFileFormat/inferred(from:)``).
    public var format: AudioFileFormat?
    /// What happens after the inputs end.
    public var tail: RenderTail
    /// The preset's file sources, played once at their tempo and key alongside the inputs.
    public var sources: [RenderSource] = []

    /// A request; unnamed strips get silence, unnamed buses are not written.
    public init(inputs: [(strip: String, url: URL)], outputs: [(bus: String, url: URL)], format: AudioFileFormat? = nil, tail: RenderTail = .seconds(0)) {
        self.inputs = inputs
        self.outputs = outputs
        self.format = format
        self.tail = tail
    }
}

/// What a finished render did.
public struct RenderSummary: Sendable {
    /// The longest input, in frames at the render rate.
    public var inputFrames: Int
    /// Frames written to every output (input length + tail).
    public var outputFrames: Int
    /// The render rate, Hz.
    public var sampleRate: Int
    /// True when an automatic tail hit its cap before the buses fell silent.
    public var isTailCapped: Bool
    /// Frames of latency removed from the start of every output (the outputs line up with the inputs).
    public var latencyFrames: Int
    /// Thread CPU time and wall time spent, seconds.
    public var cpuSeconds: Double
    public var wallSeconds: Double
    /// Per input: the strip, the file, and what was done to fit it (resampling, channel adaptation).
    public var inputNotes: [(strip: String, path: String, notes: [String])]

    /// Seconds of audio written.
    public var outputSeconds: Double { Double(outputFrames) / Double(sampleRate) }
    /// Seconds of tail after the longest input.
    public var tailSeconds: Double { Double(outputFrames - inputFrames) / Double(sampleRate) }
    /// Audio seconds rendered per CPU second.
    public var realtimeFactor: Double { cpuSeconds > 0 ? Double(outputFrames + latencyFrames) / Double(sampleRate) / cpuSeconds : .infinity }
}

/// Renders files through an ``EngineGraph`` exactly as the live engine does: same ``Engine``, same
/// cycle, same smoothing; cycles of the graph's `maxFrames` frames. Outputs are shifted by the graph's
/// latency so they line up with the inputs, and written to temporary names renamed into place at the end.
public final class OfflineRenderer {
    /// The graph rendered (built for this render alone; its units must not be shared).
    public let graph: EngineGraph
    /// What is rendered.
    public let request: RenderRequest
    private let streams: [(strip: Int, stream: RenderInputStream)]
    private let writers: [(bus: Int, writer: AudioFileWriter)]
    private let sourceFeeds: [RenderSourceFeed]

    /// Checks the request against `graph` and opens every input and (temporary) output file.
    public init(graph: EngineGraph, request: RenderRequest) throws(RenderError) {
        let strips = graph.description.strips.map(\.name)
        let buses = graph.description.buses.map(\.name)
        guard !request.inputs.isEmpty || !request.sources.isEmpty else { throw .nothingToRender("no input given; name one with --input STRIP=FILE") }
        guard !request.outputs.isEmpty else { throw .nothingToRender("no output given; name one with --output BUS=FILE") }
        try Self.checkUnique(request.inputs.map(\.strip), kind: "strip")
        try Self.checkUnique(request.outputs.map(\.bus), kind: "bus")
        var streams: [(strip: Int, stream: RenderInputStream)] = []
        for input in request.inputs {
            guard let index = strips.firstIndex(of: input.strip) else { throw .unknownStrip(input.strip, available: strips) }
            guard graph.description.strips[index].hasInputPorts else {
                throw .nothingToRender("strip '\(input.strip)' takes no input (it plays a file or returns a bus); give --input to a strip with input ports")
            }
            let stream = try RenderInputStream(
                strip: input.strip, url: input.url, stripChannels: graph.description.strips[index].channels,
                renderRate: Int(graph.sampleRate))
            streams.append((index, stream))
        }
        var sourceFeeds: [RenderSourceFeed] = []
        for source in request.sources { sourceFeeds.append(try RenderSourceFeed(source, graph: graph, block: graph.maxFrames)) }
        var writers: [(bus: Int, writer: AudioFileWriter)] = []
        // Disk space is reserved only when every input's length is known (a pipe's header may claim any).
        let inputFrames = (streams.map(\.stream) + sourceFeeds.map(\.stream)).map(\.estimatedFrames).max() ?? 0
        let (sum, overflows) = inputFrames.addingReportingOverflow(request.tail.fixedFrames(sampleRate: graph.sampleRate))
        let expectedFrames = streams.allSatisfy(\.stream.isSeekable) && sourceFeeds.allSatisfy(\.stream.isSeekable) && !overflows ? sum : 0
        for output in request.outputs {
            guard let index = buses.firstIndex(of: output.bus) else { throw .unknownBus(output.bus, available: buses) }
            guard graph.description.buses[index].hasOutput else {
                throw .nothingToRender("bus '\(output.bus)' is an effect bus (output = false): it has no output to write; render a bus its return feeds")
            }
            do {
                let writer = try AudioFileWriter(
                    url: output.url, sampleRate: Int(graph.sampleRate), channelCount: graph.description.buses[index].channels,
                    format: request.format ?? .inferred(from: output.url))
                writers.append((index, writer))
                try writer.reserve(frames: expectedFrames)
            } catch {
                throw .unwritableOutput(bus: output.bus, error: error)
            }
        }
        self.graph = graph
        self.request = request
        self.streams = streams
        self.writers = writers
        self.sourceFeeds = sourceFeeds
    }

    private static func checkUnique(_ names: [String], kind: String) throws(RenderError) {
        var seen = Set<String>()
        for name in names where !seen.insert(name).inserted { throw .duplicate(kind: kind, name: name) }
    }

    /// The format of each output, in request order.
    public var outputFormats: [AudioFileFormat] { writers.map(\.writer.format) }

    /// The render's approximate length in frames before any tail (for progress).
    public var estimatedFrames: Int { (streams.map(\.stream) + sourceFeeds.map(\.stream)).map(\.estimatedFrames).max() ?? 0 }

    /// Renders everything and renames the outputs into place. `progress` is called now and then with
    /// the frames rendered so far, and `isCancelled` as often: when it returns true the render stops
    /// with ``RenderError/cancelled``. On failure or cancellation no output is left under its final
    /// name and the temporary files are deleted.
    ///
    /// Like the live audio thread, sets flush-to-zero/denormals-are-zero on the calling thread and runs
    /// each cycle through `fb_realtime_cycle` (so the allocation counter and RealtimeSanitizer see it).
    public func run(progress: ((Int) -> Void)? = nil, isCancelled: () -> Bool = { false }) throws(RenderError) -> RenderSummary {
        do {
            return try render(progress: progress, isCancelled: isCancelled)
        } catch {
            writers.forEach { $0.writer.cancel() }
            throw error
        }
    }

    private func render(progress: ((Int) -> Void)?, isCancelled: () -> Bool) throws(RenderError) -> RenderSummary {
        fb_realtime_enable_ftz_daz()
        let clock = RenderClock()
        let block = graph.maxFrames
        let buffers = RenderBuffers(layout: graph.layout, block: block)
        defer { buffers.deallocate() }
        let engine = Engine(configuration: EngineConfiguration(
            maxFrames: block, inputCapacity: max(1, buffers.inputs.count), outputCapacity: max(1, buffers.outputs.count)))
        do { try engine.install(graph, crossfade: .none) } catch { throw .engine(error.description) }
        buffers.wire(engine.io)
        let stripChannels = Self.channelOffsets(graph.description.strips.map { $0.hasInputPorts ? $0.channels : 0 })
        let busChannels = Self.channelOffsets(graph.description.buses.map { $0.hasOutput ? $0.channels : 0 })
        var end = RenderEnd(tail: request.tail, sampleRate: graph.sampleRate, latency: graph.layout.latencyFrames)
        let inputChannels = streams.map { Array(buffers.inputs[stripChannels[$0.strip]]) }
        let driven = graph.offlineDrivenUnits          // their analysis runs here, in step, not on a thread of their own
        driven.forEach { $0.beginOfflineRendering() }
        var rendered = 0
        var lastProgress = 0
        let all = streams.map(\.stream) + sourceFeeds.map(\.stream)
        while true {
            for (index, input) in streams.enumerated() {
                _ = try input.stream.fill(inputChannels[index], frames: block)
            }
            for feed in sourceFeeds { try feed.feed(frames: block) }
            if end.inputFrames == nil, all.allSatisfy(\.isFinished) {
                end.inputFrames = all.map(\.deliveredFrames).max() ?? 0
            }
            fb_realtime_cycle(Engine.cycleFunction, engine.cycleContext, UInt32(block))
            for unit in driven { unit.offlineStep() }
            let span = end.advance(outputs: buffers.outputs, rendered: rendered, block: block)
            for (bus, writer) in writers {
                try buffers.write(channels: busChannels[bus], frames: span.range, to: writer)
            }
            rendered += block
            if rendered - lastProgress >= 8192 {
                progress?(rendered)
                lastProgress = rendered
                if isCancelled() { throw .cancelled }
            }
            if span.isLast { break }
        }
        do {
            for (_, writer) in writers { try writer.finish() }
        } catch {
            throw .writeFailed(error)
        }
        return RenderSummary(
            inputFrames: end.inputFrames ?? 0, outputFrames: end.emitted, sampleRate: Int(graph.sampleRate),
            isTailCapped: end.isCapped, latencyFrames: graph.layout.latencyFrames,
            cpuSeconds: clock.cpuSeconds, wallSeconds: clock.wallSeconds,
            inputNotes: (streams.map(\.stream) + sourceFeeds.map(\.stream)).map { ($0.strip, $0.url.path, $0.adaptations) })
    }

    /// Consecutive channel ranges of groups of `counts` channels.
    private static func channelOffsets(_ counts: [Int]) -> [Range<Int>] {
        var start = 0
        return counts.map { count in
            defer { start += count }
            return start..<(start + count)
        }
    }
}
