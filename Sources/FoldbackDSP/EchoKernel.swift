// The `echo` unit's kernel: two 2-second lines with feedback, loop filters, mono/stereo/ping-pong, ducking, freeze and self-bypass. Realtime: process, update, setBypassed and reset run on the audio thread.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A feedback echo: one or two input channels in, a stereo pair out.
///
/// setup: `init` (allocates both lines for ``maximumTime`` at the sample rate; nothing is allocated
/// afterwards); update: ``update(_:)``, ``setBypassed(_:)``; process: ``process(left:right:outputLeft:outputRight:frames:)``.
///
/// Each frame a line is read at the echo time (``EchoReadHead``: exactly that many frames back when
/// settled) and written with `F(input + feedback · read)`, F being the loop's high- and low-pass
/// (``EchoLoopFilter``): so the n-th repeat of an impulse arrives n × time later, (feedback)ⁿ⁻¹ · |H|ⁿ high,
/// with nothing in the loop but F when both corners are off. In `ping_pong` the left line is fed by the
/// input and the right line's repeats, the right line by the left's only: repeats alternate left, right.
/// Freeze crossfades each line's write to its own read (ping-pong: the other line's) so the loop holds what
/// it has, unchanged, and takes no input. The wet pair is ducked (``EchoDucker``) and mixed equal-power
/// with the dry input; feedback, freeze, mix and bypass glide over ``smoothingTime``.
///
/// Bypass is the unit's own: the input stops feeding the lines and the dry path returns to unity, but the
/// lines keep running, so the tail rings out under the dry signal instead of being cut.
public struct EchoKernel: ~Copyable {
    /// The longest echo time, in seconds.
    public static let maximumTime = 2.0
    /// The ramp time of feedback, freeze, mix and bypass changes, in seconds.
    public static let smoothingTime = 0.020
    /// Frames between updates of the loop filters' gliding corners.
    static let chunkFrames = 32
    /// The level below which the loop writes exact zeros (1e-10, −200 dB; see `flushed`).
    static let loopFloor: Float = 1e-10

    /// The rate it runs at, in Hz.
    public let sampleRate: Double
    /// Whether it reads two input channels (else one, heard on both sides as dry).
    public let isStereoInput: Bool
    /// The settings last applied (sanitised).
    public private(set) var parameters: EchoParameters
    /// Whether the unit's own bypass is on.
    public private(set) var isBypassed = false

    private let leftLine: UnsafeMutablePointer<Float>
    private let rightLine: UnsafeMutablePointer<Float>
    private let capacity: Int
    private let mask: Int
    private var write = 0
    private var head: EchoReadHead
    private var filter: EchoLoopFilter
    private var leftState = EchoLoopFilter.State()
    private var rightState = EchoLoopFilter.State()
    private var ducker: EchoDucker
    private var feedback: LinearSmoother
    private var hold: LinearSmoother
    private var feed: LinearSmoother
    private var dryGain: LinearSmoother
    private var wetGain: LinearSmoother
    /// Frames since either line was last written anything but +0.0 (at least ``capacity``: both lines are exact zeros).
    private var zeroRun: Int

    /// A silent echo with `parameters` at `sampleRate` Hz, reading one input channel or two. Allocates;
    /// call off the audio thread.
    public init(parameters: EchoParameters, sampleRate: Double, isStereoInput: Bool) {
        let settings = parameters.sanitized
        self.sampleRate = sampleRate
        self.isStereoInput = isStereoInput
        self.parameters = settings
        var size = 1
        while size < Int((Self.maximumTime * sampleRate).rounded(.up)) + 8 { size <<= 1 }
        capacity = size
        zeroRun = size
        mask = size - 1
        leftLine = .allocate(capacity: size)
        leftLine.initialize(repeating: 0, count: size)
        rightLine = .allocate(capacity: size)
        rightLine.initialize(repeating: 0, count: size)
        var head = EchoReadHead(delay: max(2, settings.frames(sampleRate: sampleRate)),
                                fadeFrames: Int((EchoParameters.crossfadeTime * sampleRate).rounded()))
        head.change = settings.timeChange
        self.head = head
        filter = EchoLoopFilter(lowCut: settings.lowCut, highCut: settings.highCut, sampleRate: sampleRate)
        ducker = EchoDucker(depth: settings.ducking, threshold: settings.duckThreshold, sampleRate: sampleRate)
        let gains = Self.mixGains(settings.mix)
        feedback = LinearSmoother(value: settings.feedback / 100, time: Self.smoothingTime, sampleRate: sampleRate)
        hold = LinearSmoother(value: settings.isFrozen ? 1 : 0, time: Self.smoothingTime, sampleRate: sampleRate)
        feed = LinearSmoother(value: 1, time: Self.smoothingTime, sampleRate: sampleRate)
        dryGain = LinearSmoother(value: gains.dry, time: Self.smoothingTime, sampleRate: sampleRate)
        wetGain = LinearSmoother(value: gains.wet, time: Self.smoothingTime, sampleRate: sampleRate)
    }

    deinit {
        leftLine.deallocate()
        rightLine.deallocate()
    }

    /// The echo time the lines are read at (or heading to), in frames.
    public var delayFrames: Int { head.delay }

    /// Whether no change of time is running or waiting.
    public var isTimeSettled: Bool { head.isSettled }

    /// Equal-power dry and wet gains of `mix`: cos and sin of mix·90°, exactly 1 and 0 at the ends.
    static func mixGains(_ mix: Float) -> (dry: Float, wet: Float) {
        if mix <= 0 { return (1, 0) }
        if mix >= 1 { return (0, 1) }
        let angle = Double(mix) * Double.pi / 2
        return (Float(cos(angle)), Float(sin(angle)))
    }

    /// Applies `newParameters` (sanitised): the time moves as its ``EchoParameters/timeChange`` says, the
    /// loop corners glide, the rest ramps.
    public mutating func update(_ newParameters: EchoParameters) {
        let settings = newParameters.sanitized
        parameters = settings
        head.change = settings.timeChange
        head.request(settings.frames(sampleRate: sampleRate))
        filter.setTargets(lowCut: settings.lowCut, highCut: settings.highCut)
        ducker.set(depth: settings.ducking, threshold: settings.duckThreshold)
        feedback.setTarget(settings.feedback / 100)
        hold.setTarget(settings.isFrozen ? 1 : 0)
        retargetGains()
    }

    /// Turns the unit's own bypass on (the input stops feeding the lines, the dry path returns to unity,
    /// the tail rings on) or off.
    public mutating func setBypassed(_ bypassed: Bool) {
        isBypassed = bypassed
        feed.setTarget(bypassed ? 0 : 1)
        retargetGains()
    }

    private mutating func retargetGains() {
        let gains = Self.mixGains(parameters.mix)
        dryGain.setTarget(isBypassed ? 1 : gains.dry)
        wetGain.setTarget(gains.wet)
    }

    /// Clears the lines, the filters and the ducker, and jumps every ramp and the time to its target.
    public mutating func reset() {
        leftLine.update(repeating: 0, count: capacity)
        rightLine.update(repeating: 0, count: capacity)
        write = 0
        zeroRun = capacity
        head.settle()
        leftState = EchoLoopFilter.State()
        rightState = EchoLoopFilter.State()
        filter.glide(frames: Int(sampleRate) * 10)
        ducker.reset()
        feedback.reset(to: feedback.target)
        hold.reset(to: hold.target)
        feed.reset(to: feed.target)
        dryGain.reset(to: dryGain.target)
        wetGain.reset(to: wetGain.target)
    }

    /// Echoes `frames` frames of `left` (and `right` when ``isStereoInput``; else pass `left` again) into
    /// the stereo pair. Outputs must not alias inputs.
    public mutating func process(
        left: UnsafePointer<Float>, right: UnsafePointer<Float>,
        outputLeft: UnsafeMutablePointer<Float>, outputRight: UnsafeMutablePointer<Float>, frames: Int
    ) {
        var done = 0
        while done < frames {
            let count = min(frames - done, Self.chunkFrames)
            filter.glide(frames: count)
            for frame in done..<(done + count) {
                let inputLeft = left[frame], inputRight = isStereoInput ? right[frame] : left[frame]
                let wet = step(inputLeft, inputRight)
                let duck = ducker.next(level: max(abs(inputLeft), abs(inputRight)))
                let wetLevel = wetGain.next() * duck, dryLevel = dryGain.next()
                outputLeft[frame] = dryLevel * inputLeft + wetLevel * wet.left
                outputRight[frame] = dryLevel * inputRight + wetLevel * wet.right
            }
            done += count
        }
        ducker.flushTinyEnvelope()
    }

    /// Whether processing zeros would write exact +0.0 and change nothing but the write position (silence
    /// gating): both lines exact zeros, the loop filters' state zero and their corners still, the read head and
    /// every ramp settled, the ducker released, the mix levels not negative.
    public mutating func isAtRest() -> Bool {
        zeroRun >= capacity && head.isSettled && filter.isSettled && leftState.isZero && rightState.isZero
            && ducker.isReleased && feedback.isSettled && hold.isSettled && feed.isSettled && dryGain.isSettled
            && wetGain.isSettled && dryGain.value.sign == .plus && wetGain.value.sign == .plus
    }

    /// Moves the write position by `frames`, as ``process(left:right:outputLeft:outputRight:frames:)`` does at rest.
    public mutating func advanceAtRest(frames: Int) {
        write = (write &+ frames) & mask
        zeroRun = min(zeroRun &+ frames, capacity)
    }

    /// One frame of the lines: reads, writes the loop and returns the wet pair.
    @inline(__always)
    private mutating func step(_ inputLeft: Float, _ inputRight: Float) -> (left: Float, right: Float) {
        head.advance()
        let readLeft = head.read(leftLine, write: write, mask: mask)
        let mode = parameters.mode
        let readRight = mode == .mono ? readLeft : head.read(rightLine, write: write, mask: mask)
        let gain = feedback.next(), held = hold.next(), input = feed.next()
        let mono = isStereoInput ? 0.5 * (inputLeft + inputRight) : inputLeft
        var writeLeft: Float, writeRight: Float
        switch mode {
        case .mono:
            writeLeft = filter.process(input * mono + gain * readLeft, &leftState)
            writeLeft = Self.hold(writeLeft, readLeft, held)
            writeRight = 0
        case .stereo:
            writeLeft = filter.process(input * inputLeft + gain * readLeft, &leftState)
            writeRight = filter.process(input * inputRight + gain * readRight, &rightState)
            writeLeft = Self.hold(writeLeft, readLeft, held)
            writeRight = Self.hold(writeRight, readRight, held)
        case .pingPong:
            writeLeft = filter.process(input * mono + gain * readRight, &leftState)
            writeRight = filter.process(gain * readLeft, &rightState)
            writeLeft = Self.hold(writeLeft, readRight, held)
            writeRight = Self.hold(writeRight, readLeft, held)
        }
        writeLeft = Self.flushed(writeLeft)
        writeRight = Self.flushed(writeRight)
        leftLine[write] = writeLeft
        rightLine[write] = writeRight
        zeroRun = (writeLeft.bitPattern | writeRight.bitPattern) == 0 ? zeroRun &+ 1 : 0
        write = (write &+ 1) & mask
        return (readLeft, readRight)
    }

    /// What the loop keeps of `written`: exact +0.0 below ``loopFloor``. A tail that far down (−200 dB, under any
    /// converter's noise) is silence; without the floor a 35 % loop recirculates for half a minute before it underflows,
    /// and the echo could not rest in a song's gap.
    @inline(__always)
    private static func flushed(_ written: Float) -> Float {
        abs(written) < loopFloor ? 0 : written
    }

    /// The loop's write crossfaded by `held` (0…1) to what it holds: exactly `kept` once frozen, so nothing
    /// that arrives while frozen leaks in, not even by rounding.
    @inline(__always)
    private static func hold(_ written: Float, _ kept: Float, _ held: Float) -> Float {
        held >= 1 ? kept : written + held * (kept - written)
    }
}
