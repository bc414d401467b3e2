// A JACK client that closes a feedback loop for tests: a wedge output played back through a room into a mic input. Realtime: the process callback; setup and gain changes are non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
import CJack
public import FoldbackJACK
public import FoldbackDSP
import Foundation

/// A simulated stage as a live JACK client: `wedge_in` hears a bus output (the wedge), `mic_out` feeds a strip
/// input (the mic). Each sample: the wedge's amplifier clips softly (tanh), the sound travels `delayFrames` to the
/// mic through the room's biquad sections, is scaled by the loop gain, and room noise is added.
///
/// Everything the process callback touches is allocated in `init`; ``setLoopGain(decibels:)`` hands it a new
/// gain through an atomic, and the callback notes the frame time at which it took it (``gainFrameTime``), so a
/// test can find the step in a recording. JACK runs the loop's connection a period late on one side, so the loop
/// delay is `delayFrames` plus at most one period.
public final class JACKTestStage: @unchecked Sendable {
    private struct Context {
        var client: OpaquePointer
        var wedge: OpaquePointer
        var mic: OpaquePointer
        var line: UnsafeMutablePointer<Float>
        var lineLength: Int
        var delay: Int
        var position: Int
        var sections: UnsafeMutablePointer<BiquadCoefficients>
        var state: UnsafeMutablePointer<SIMD2<Double>>
        var sectionCount: Int
        var requested: UnsafeAtomic<UInt64>              // (request number << 32) | Float bits of the gain, by the owner
        var taken: UnsafeAtomic<UInt64>                  // the request the callback plays with
        var gainFrameTime: UnsafeAtomic<Int>             // frame time the callback took it at; −1 before
        var gain: Float
        var noise: UInt32
        var noiseAmplitude: Float
    }

    /// The client; its ``JACKClient/actualName`` prefixes the port names.
    public let client: JACKClient
    /// `wedge_in` (connect the wedge bus output to it) and `mic_out` (connect it to the mic strip input).
    public let wedgePort: JACKPort, micPort: JACKPort
    private let context: UnsafeMutablePointer<Context>
    private let events = JACKClientEvents()

    /// Opens and activates the client: the loop gain starts at −∞ (open loop, room noise only).
    /// - Parameters:
    ///   - sections: the room's response (biquads at the server's rate).
    ///   - delayFrames: the wedge-to-mic delay, 1 … 2^20 frames.
    ///   - noiseLevelDB: the room noise at the mic, dBFS peak (white, deterministic).
    public init(name: String, serverName: String?, sections: [BiquadCoefficients], delayFrames: Int, noiseLevelDB: Double = -60) throws(JACKError) {
        guard (1...(1 << 20)).contains(delayFrames) else { throw .invalidArgument("The stage's delay must be 1 to 2^20 frames, not \(delayFrames).") }
        client = try JACKClient(name: name, serverName: serverName)
        wedgePort = try client.registerAudioPort("wedge_in", direction: .input)
        micPort = try client.registerAudioPort("mic_out", direction: .output)
        let length = delayFrames + 1
        let line = UnsafeMutablePointer<Float>.allocate(capacity: length)
        line.initialize(repeating: 0, count: length)
        let table = UnsafeMutablePointer<BiquadCoefficients>.allocate(capacity: max(sections.count, 1))
        table.initialize(from: sections, count: sections.count)
        let state = UnsafeMutablePointer<SIMD2<Double>>.allocate(capacity: max(sections.count, 1))
        state.initialize(repeating: SIMD2(), count: max(sections.count, 1))
        context = .allocate(capacity: 1)
        context.initialize(to: Context(
            client: client.handle, wedge: wedgePort.handle, mic: micPort.handle, line: line, lineLength: length, delay: delayFrames,
            position: 0, sections: table, state: state, sectionCount: sections.count, requested: .create(0),
            taken: .create(0), gainFrameTime: .create(-1), gain: 0, noise: 0x1234_5678, noiseAmplitude: Float(pow(10, noiseLevelDB / 20))))
        try client.startProcessing(Self.process, context: context, events: events)
    }

    deinit {
        close()
        let shared = context.pointee
        shared.line.deallocate()
        shared.sections.deinitialize(count: shared.sectionCount).deallocate()
        shared.state.deallocate()
        shared.requested.destroy()
        shared.taken.destroy()
        shared.gainFrameTime.destroy()
        context.deinitialize(count: 1).deallocate()
    }

    /// Sets the loop gain (dB; −∞ opens the loop) from the next cycle on.
    public func setLoopGain(decibels: Double) {
        let number = (context.pointee.requested.load(ordering: .relaxed) >> 32) &+ 1
        context.pointee.requested.store(number << 32 | UInt64(Float(pow(10, decibels / 20)).bitPattern), ordering: .releasing)
    }

    /// The frame time of the first sample played with the gain last set, or nil until the callback took it.
    public var gainFrameTime: UInt32? {
        let time = context.pointee.gainFrameTime.load(ordering: .acquiring)
        return time < 0 ? nil : UInt32(truncatingIfNeeded: time)
    }

    /// Waits until the callback has taken the gain last set (polling every millisecond); returns its frame time.
    public func waitForGain(timeout: Double = 5) throws(JACKError) -> UInt32 {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if context.pointee.taken.load(ordering: .acquiring) == context.pointee.requested.load(ordering: .acquiring),
               let time = gainFrameTime { return time }
            if let shutdown = events.shutdown { throw .serverShutDown(reason: shutdown.reason) }
            guard Date() < deadline else { throw .timedOut(what: "the stage's new loop gain", seconds: timeout) }
            Thread.sleep(forTimeInterval: 0.001)
        }
    }

    /// Xruns the server has reported to this client.
    public var xrunCount: Int { events.xrunCount }

    /// Closes the client. Safe to call twice.
    public func close() { client.close() }

    private static let process: @convention(c) (jack_nframes_t, UnsafeMutableRawPointer?) -> Int32 = { frames, arg in
        guard let context = arg?.assumingMemoryBound(to: Context.self),
              let wedgeRaw = jack_port_get_buffer(context.pointee.wedge, frames),
              let micRaw = jack_port_get_buffer(context.pointee.mic, frames) else { return 0 }
        let wedge = wedgeRaw.assumingMemoryBound(to: Float.self)
        let mic = micRaw.assumingMemoryBound(to: Float.self)
        let requested = context.pointee.requested.load(ordering: .acquiring)
        if requested != context.pointee.taken.load(ordering: .relaxed) {
            context.pointee.gain = Float(bitPattern: UInt32(truncatingIfNeeded: requested))
            context.pointee.gainFrameTime.store(Int(jack_last_frame_time(context.pointee.client)), ordering: .releasing)
            context.pointee.taken.store(requested, ordering: .releasing)
        }
        let gain = Double(context.pointee.gain)
        let length = context.pointee.lineLength
        for index in 0..<Int(frames) {
            let position = context.pointee.position
            context.pointee.line[position] = tanh(wedge[index])
            var x = Double(context.pointee.line[(position + length - context.pointee.delay) % length])
            for section in 0..<context.pointee.sectionCount {
                let c = context.pointee.sections[section]
                let s = context.pointee.state[section]
                let y = c.b0 * x + s.x
                context.pointee.state[section] = SIMD2(c.b1 * x - c.a1 * y + s.y, c.b2 * x - c.a2 * y)
                x = y
            }
            context.pointee.noise = context.pointee.noise &* 1_664_525 &+ 1_013_904_223
            let white = Float(Int32(bitPattern: context.pointee.noise)) / Float(Int32.max)
            mic[index] = Float(gain * x) + context.pointee.noiseAmplitude * white
            context.pointee.position = (position + 1) % length
        }
        return 0
    }
}
