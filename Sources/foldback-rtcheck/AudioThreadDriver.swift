// A stand-in for the JACK process thread: paced cycles through fb_realtime_cycle on its own thread. Runs the realtime cycle.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import Foundation
import FoldbackEngine
import Synchronization

/// Runs `cycles` engine cycles on a dedicated thread, the way a JACK server would.
final class AudioThreadDriver: @unchecked Sendable {
    private let engine: Engine
    private let cycles: Int
    private let frames: Int
    private let paceMicroseconds: Int
    private let input: UnsafeMutablePointer<Float>
    private let outputs: [UnsafeMutablePointer<Float>]
    private let finished = Atomic<Bool>(false)
    /// The audio thread runs no cycle at or past this count until the control loop allows it (``allow(upTo:)``):
    /// a stand-in for JACK may wait where a real server would not, so that on a loaded machine the control loop's
    /// changes, swaps and tap drains keep up with the cycles instead of the scenario failing for lack of CPU.
    private let allowedCycles = Atomic<Int>(Int.max)
    private let done = DispatchSemaphore(value: 0)
    private(set) var cyclesRun = 0
    private(set) var ftzDazEnabled = false
    private(set) var peak: Float = 0
    private(set) var outputWasFinite = true

    private let injectFault: Bool
    /// Whether the disk-fed source holds the next cycle's frames: the thread waits for it (up to a second) between cycles.
    private let isSourceReady: @Sendable () -> Bool

    /// Every input plays a 440 Hz tone at −6 dBFS, or digital silence when `isSilent`.
    init(
        engine: Engine, cycles: Int, frames: Int, paceMicroseconds: Int, injectFault: Bool, isSilent: Bool = false,
        isSourceReady: @escaping @Sendable () -> Bool = { true }
    ) {
        self.injectFault = injectFault
        self.isSourceReady = isSourceReady
        self.engine = engine
        self.cycles = cycles
        self.frames = frames
        self.paceMicroseconds = paceMicroseconds
        input = .allocate(capacity: frames)
        for frame in 0..<frames { input[frame] = isSilent ? 0 : 0.5 * sinf(Float(frame) * 2 * .pi * 440 / 48000) }
        outputs = (0..<engine.configuration.outputCapacity).map { _ in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            buffer.initialize(repeating: 0, count: frames)
            return buffer
        }
    }

    deinit {
        input.deallocate()
        for buffer in outputs { buffer.deallocate() }
    }

    var isFinished: Bool { finished.load(ordering: .acquiring) }

    func start() {
        let io = engine.io
        io.pointee.inputCount = engine.configuration.inputCapacity
        io.pointee.outputCount = 8   // three stereo buses and the cue pair
        for channel in 0..<io.pointee.inputCount { io.pointee.inputs[channel] = UnsafePointer(input) }
        for channel in 0..<io.pointee.outputCount { io.pointee.outputs[channel] = outputs[channel] }
        let thread = Thread { [self] in run() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    func join() { done.wait() }

    /// Lets the audio thread run cycles up to (not including) `cycle`.
    func allow(upTo cycle: Int) { allowedCycles.store(cycle, ordering: .releasing) }

    /// A deliberately broken cycle: runs the engine, then allocates and frees on the audio path.
    private static let allocatingCycle: @convention(c) (UnsafeMutableRawPointer?, UInt32) -> Void = { context, frames in
        Engine.cycleFunction(context, frames)
        let leak = UnsafeMutablePointer<Float>.allocate(capacity: Int(frames) + 4096)
        leak.initialize(repeating: 0, count: 1)
        faultSink = leak
        faultSink?.deallocate()
    }

    private func run() {
        fb_realtime_enable_ftz_daz()
        ftzDazEnabled = fb_realtime_ftz_daz_enabled() != 0
        let context = engine.cycleContext
        for cycle in 0..<cycles {
            // Outside the realtime cycle, like the pace below: the wait a stand-in may make for its control loop.
            while cycle >= allowedCycles.load(ordering: .acquiring) { usleep(50) }
            // And for the disk thread: a real server runs in real time, which a stretching disk thread keeps up with.
            var waited = 0
            while !isSourceReady(), waited < 20_000 {
                usleep(50)
                waited += 1
            }
            if injectFault && cycle == cycles / 3 {
                fb_realtime_cycle(Self.allocatingCycle, context, UInt32(frames))
            } else {
                fb_realtime_cycle(RealtimeMIDIClock.cycleFunction, context, UInt32(frames))
            }
            cyclesRun += 1
            for channel in 0..<6 {
                for frame in 0..<frames {
                    let sample = outputs[channel][frame]
                    if !sample.isFinite { outputWasFinite = false }
                    peak = max(peak, abs(sample))
                }
            }
            if paceMicroseconds > 0 { usleep(UInt32(paceMicroseconds)) }
        }
        finished.store(true, ordering: .releasing)
        done.signal()
    }
}

nonisolated(unsafe) private var faultSink: UnsafeMutablePointer<Float>?
