// Eight float lanes as two 4-lane halves: the vector type of the reverb network's per-sample loop. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Eight lanes kept as two `SIMD4<Float>` halves. On the baseline x86-64 target a register holds 4 floats;
/// with `SIMD8<Float>` the compiler combines shuffles across the whole vector and splits them afterwards
/// into many more, so the network loop computes on the halves and the mixing matrix shuffles within them.
struct ReverbLanes {
    var low: SIMD4<Float>
    var high: SIMD4<Float>

    @inline(__always) @_noLocks
    init(_ low: SIMD4<Float>, _ high: SIMD4<Float>) {
        self.low = low
        self.high = high
    }

    @inline(__always) @_noLocks
    init(_ vector: SIMD8<Float>) {
        low = vector.lowHalf
        high = vector.highHalf
    }

    /// The eight lanes as one vector.
    var vector: SIMD8<Float> {
        @inline(__always) @_noLocks get { SIMD8(lowHalf: low, highHalf: high) }
    }

    @inline(__always) @_noLocks
    static func + (a: ReverbLanes, b: ReverbLanes) -> ReverbLanes { ReverbLanes(a.low + b.low, a.high + b.high) }

    @inline(__always) @_noLocks
    static func - (a: ReverbLanes, b: ReverbLanes) -> ReverbLanes { ReverbLanes(a.low - b.low, a.high - b.high) }

    @inline(__always) @_noLocks
    static func * (a: ReverbLanes, b: ReverbLanes) -> ReverbLanes { ReverbLanes(a.low * b.low, a.high * b.high) }

    @inline(__always) @_noLocks
    static func * (a: Float, b: ReverbLanes) -> ReverbLanes { ReverbLanes(a * b.low, a * b.high) }

    @inline(__always) @_noLocks
    static func - (a: Float, b: ReverbLanes) -> ReverbLanes { ReverbLanes(a - b.low, a - b.high) }

    @inline(__always) @_noLocks
    static func += (a: inout ReverbLanes, b: ReverbLanes) { a = a + b }

    /// Every lane within ±1e-30 set to exactly 0 (``ReverbLoopMath/flushed(_:)`` on each half).
    @inline(__always) @_noLocks
    func flushed() -> ReverbLanes { ReverbLanes(ReverbLoopMath.flushed(low), ReverbLoopMath.flushed(high)) }

    /// Stores the eight lanes at `pointer` (32 bytes).
    @inline(__always) @_noLocks
    func store(to pointer: UnsafeMutableRawPointer) {
        pointer.storeBytes(of: low, as: SIMD4<Float>.self)
        (pointer + 16).storeBytes(of: high, as: SIMD4<Float>.self)
    }
}
