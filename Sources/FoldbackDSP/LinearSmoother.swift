// Click-free parameter smoothing by a fixed-length linear ramp. Realtime-safe.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Ramps a value linearly toward its target over a fixed number of frames.
///
/// The ramp reaches the target *exactly* on its last frame, so a parameter change is complete
/// `rampFrames` samples after it is made (the stated smoothing time, see ``defaultTime``).
/// A new target during a ramp restarts the ramp from the current value.
@frozen
public struct LinearSmoother: Sendable {
    /// The default smoothing time for gains, pans and sends, in seconds.
    public static let defaultTime: Double = 0.020

    /// The current value (the last one produced).
    @inlinable public var value: Float { @inline(__always) get { current } }
    /// The value the ramp is heading for.
    @inlinable public var target: Float { @inline(__always) get { goal } }
    @usableFromInline var current: Float
    @usableFromInline var goal: Float
    @usableFromInline var step: Float = 0
    @usableFromInline var remaining: Int32 = 0
    /// The ramp length in frames (at least 1).
    public let rampFrames: Int32

    /// A smoother resting at `value`, ramping over `rampFrames` frames on each change.
    public init(value: Float, rampFrames: Int) {
        self.current = value
        self.goal = value
        self.rampFrames = Int32(clamping: max(1, rampFrames))
    }

    /// A smoother resting at `value` whose ramp lasts `time` seconds at `sampleRate`.
    public init(value: Float, time: Double = LinearSmoother.defaultTime, sampleRate: Double) {
        self.init(value: value, rampFrames: Int((time * sampleRate).rounded()))
    }

    /// True when no ramp is in progress (``value`` equals ``target``).
    @inlinable
    public var isSettled: Bool { @inline(__always) get { remaining == 0 } }

    /// Starts a ramp toward `newTarget`; a target equal to the current one changes nothing.
    @inlinable @_noLocks
    public mutating func setTarget(_ newTarget: Float) {
        if newTarget == goal { return }
        goal = newTarget
        remaining = rampFrames
        step = (newTarget - current) / Float(rampFrames)
    }

    /// Jumps to `newValue` at once, with no ramp.
    @inlinable @_noLocks
    public mutating func reset(to newValue: Float) {
        current = newValue
        goal = newValue
        remaining = 0
        step = 0
    }

    /// Advances one frame and returns the new value.
    @inlinable @inline(__always) @_noLocks
    public mutating func next() -> Float {
        if remaining > 0 {
            remaining -= 1
            current = goal - step * Float(remaining)   // from the goal: no accumulated rounding, exact at 0
        }
        return current
    }

    /// Writes the next `count` values into `buffer`, advancing the ramp.
    @inlinable @_noLocks
    public mutating func fill(_ buffer: UnsafeMutablePointer<Float>, count: Int) {
        var frame = 0
        while frame < count && remaining > 0 {
            buffer[frame] = next()
            frame += 1
        }
        let settled = current
        while frame < count {
            buffer[frame] = settled
            frame += 1
        }
    }

    /// Advances `count` frames without producing values.
    @inlinable @_noLocks
    public mutating func advance(by count: Int) {
        if remaining == 0 || count <= 0 { return }
        if count >= Int(remaining) {
            reset(to: goal)
        } else {
            remaining -= Int32(count)
            current = goal - step * Float(remaining)
        }
    }
}
