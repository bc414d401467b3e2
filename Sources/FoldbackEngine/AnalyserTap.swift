// The analyser's one selectable tap: a bus output or a strip before or after its units, switched lock-free into a ring. Mixed: selection is non-realtime, the GraphRender helpers are realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics

/// Where the spectrum analyser listens.
public enum AnalyserPoint: Sendable, Hashable, CustomStringConvertible {
    /// A bus's final output (after its gain and limiter: what its ports carry).
    case bus(String)
    /// A strip's input after its trim, before its units.
    case stripPre(String)
    /// A strip's signal after its units, before its fader (as its meter reads it).
    case stripPost(String)

    /// `bus/<name>`, `strip/<name>/pre` or `strip/<name>/post`, or nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch (parts.first, parts.count) {
        case ("bus", 2) where !parts[1].isEmpty: self = .bus(parts[1])
        case ("strip", 3) where !parts[1].isEmpty && parts[2] == "pre": self = .stripPre(parts[1])
        case ("strip", 3) where !parts[1].isEmpty && parts[2] == "post": self = .stripPost(parts[1])
        default: return nil
        }
    }

    /// The wire spelling (see ``init(_:)``).
    public var description: String {
        switch self {
        case let .bus(name): return "bus/\(name)"
        case let .stripPre(name): return "strip/\(name)/pre"
        case let .stripPost(name): return "strip/\(name)/post"
        }
    }

    /// Every point `graph` offers, buses first.
    public static func all(in description: GraphDescription) -> [AnalyserPoint] {
        description.buses.map { .bus($0.name) } + description.strips.flatMap { [.stripPre($0.name), .stripPost($0.name)] }
    }

    /// The point's kind (1 bus, 2 strip pre, 3 strip post) and index in `description`, or nil if it has no such strip or bus.
    func location(in description: GraphDescription) -> (kind: Int, index: Int)? {
        switch self {
        case let .bus(name): return description.buses.firstIndex { $0.name == name }.map { (AnalyserTapState.bus, $0) }
        case let .stripPre(name): return description.strips.firstIndex { $0.name == name }.map { (AnalyserTapState.stripPre, $0) }
        case let .stripPost(name): return description.strips.firstIndex { $0.name == name }.map { (AnalyserTapState.stripPost, $0) }
        }
    }
}

/// The tap's realtime memory: the ring and the selection word the audio thread samples once per chunk.
struct AnalyserTapState {
    static let off = 0, bus = 1, stripPre = 2, stripPost = 3
    let ring: UnsafeMutablePointer<TapRingState>
    /// `graph << 32 | kind << 24 | index`: which graph (its attach serial) taps where; kind 0 is off.
    let selection: UnsafeAtomic<Int>

    static func code(graph: Int, kind: Int, index: Int) -> Int { graph << 32 | kind << 24 | index }
}

/// The spectrum analyser's tap: one stereo ring the audio thread copies the selected point into (a mono
/// point feeds both channels), and the selection, changed lock-free from any non-realtime thread.
///
/// Attach it to every graph before installing it (``EngineGraph/attachAnalyserTap(_:)``) and select a point
/// of the graph that plays (``select(_:in:)``); the audio thread then copies that point in every chunk and does
/// nothing else. Off (the default), a chunk costs one atomic load. One point at a time: one producer.
public final class AnalyserTap: @unchecked Sendable {
    let state: UnsafeMutablePointer<AnalyserTapState>
    /// The ring the consumer drains (interleaved stereo frames).
    public let ring: TapRing
    private let serials = ManagedAtomic<Int>(0)

    /// A tap whose ring holds at least `frames` stereo frames.
    public init(frames: Int) {
        ring = TapRing(channels: 2, frames: frames)
        state = .allocate(capacity: 1)
        state.initialize(to: AnalyserTapState(ring: ring.state, selection: .create(0)))
    }

    deinit {
        state.pointee.selection.destroy()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Makes the audio thread copy `point` of `graph` from its next chunk (nothing when `graph` was not attached).
    /// - Throws: ``EngineError/unknownTapPoint(_:)`` when `graph` has no such strip or bus (nothing changes).
    public func select(_ point: AnalyserPoint, in graph: EngineGraph) throws(EngineError) {
        guard let (kind, index) = point.location(in: graph.description) else { throw .unknownTapPoint(point.description) }
        let serial = graph.render.pointee.analyserSerial
        guard graph.render.pointee.analyser == state, serial > 0 else { return deselect() }
        state.pointee.selection.store(AnalyserTapState.code(graph: serial, kind: kind, index: index), ordering: .releasing)
    }

    /// Stops the copying from the audio thread's next chunk.
    public func deselect() {
        state.pointee.selection.store(0, ordering: .releasing)
    }

    /// Whether a point is selected.
    public var isSelected: Bool { state.pointee.selection.load(ordering: .relaxed) & (0xFF << 24) != 0 }

    func nextSerial() -> Int { serials.wrappingIncrementThenLoad(ordering: .relaxed) & 0x7FFF_FFFF }
}

extension EngineGraph {
    /// Lets `tap` listen to this graph's strips and buses (nothing is copied until ``AnalyserTap/select(_:in:)``
    /// names a point of this graph). Call before ``Engine/install(_:crossfade:)``.
    public func attachAnalyserTap(_ tap: AnalyserTap) {
        render.pointee.analyser = tap.state
        render.pointee.analyserSerial = tap.nextSerial()
        retainedTapObjects.append(tap)
    }
}

extension GraphRender {
    /// Once per chunk: which point the analyser taps in it (none while this graph fades out).
    @inline(__always)
    mutating func sampleAnalyser() {
        analyserKind = AnalyserTapState.off
        guard isTapping, let analyser else { return }
        let code = analyser.pointee.selection.load(ordering: .acquiring)
        guard code >> 32 == analyserSerial else { return }
        analyserKind = code >> 24 & 0xFF
        analyserIndex = code & 0xFF_FFFF
    }

    /// Copies `channels` channels of ``stripChannels`` into the analyser's ring when it taps point `kind` of `index`.
    @inline(__always)
    func tapAnalyser(kind: Int, index: Int, channels: Int, frames: Int) {
        guard analyserKind == kind, analyserIndex == index, let analyser else { return }
        analyser.pointee.ring.pointee.write(UnsafePointer(stripChannels), count: channels, frames: frames, gain: 1, frameGains: nil)
    }

    /// The bus form of ``tapAnalyser(kind:index:channels:frames:)``: a bus's final output is in ``unitInputs``.
    @inline(__always)
    func tapAnalyserBus(_ index: Int, channels: Int, frames: Int) {
        guard analyserKind == AnalyserTapState.bus, analyserIndex == index, let analyser else { return }
        analyser.pointee.ring.pointee.write(UnsafePointer(unitInputs), count: channels, frames: frames, gain: 1, frameGains: nil)
    }
}
