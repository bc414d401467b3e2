// One mono source rendered to two ears through an HRIR pair at its position, with click-free moves. Realtime (process, move) after init.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Renders one mono signal at a ``BinauralPosition`` through an ``HRIRSet`` and adds it to a left and right buffer.
///
/// Each ear is a direct-form FIR of the trimmed, interpolated response read from a history of the input at the ear's
/// own delay (the interpolated onset plus the distance's delay). The fractional part of the delay is folded into the
/// filter (third-order Lagrange, four taps), so the delay stays a pure, exact delay at the measured directions and
/// the filter runs as one contiguous vectorised dot product per ear and frame. A move builds the new filter pair in
/// the spare slot and crossfades from the old pair to the new one over ``crossfadeFrames`` frames; a move during a
/// crossfade waits for it to end (the latest position wins). Everything is per frame, so the output does not depend
/// on how the frames are split into blocks. No allocation after `init`; call ``deallocate()`` once.
public struct BinauralSource: @unchecked Sendable {
    /// Frames of the crossfade between the old and the new filter pair.
    public let crossfadeFrames: Int
    /// Filter taps per ear (the trimmed response, three Lagrange taps, padding to a multiple of 16).
    public let filterLength: Int
    /// The set's storage (the owner keeps the set alive while the source renders).
    private let taps: UnsafeMutablePointer<Float>
    private let onsets: UnsafeMutablePointer<Float>
    private let alignments: UnsafeMutablePointer<Float>
    private let rings: HRIRRings
    private let measuredDistance: Float
    private let setLength: Int
    private let sampleRate: Float
    /// Two slots × two ears × ``filterLength`` taps, stored reversed (oldest input first).
    private let filters: UnsafeMutablePointer<Float>
    /// Each slot's ear delays (whole frames the FIR's first tap reads back): [slot 0 L, slot 0 R, slot 1 L, slot 1 R].
    private var bases: SIMD4<Int32> = .zero
    /// The input, written twice (at `p` and `p + capacity`) so every window is contiguous.
    private let history: UnsafeMutablePointer<Float>
    private let capacity: Int
    private var writeIndex = 0
    private var active = 0
    private var fadePosition = -1
    private var target: BinauralPosition
    /// The position the spare slot's filters render while crossfading in.
    private var incoming: BinauralPosition
    private var isPending = false
    /// The position the active filters render (the target once a crossfade ends).
    public private(set) var position: BinauralPosition

    /// A source rendering `set` at `position`.
    public init(set: HRIRSet, position: BinauralPosition = BinauralPosition(), crossfadeSeconds: Double = 0.005) {
        taps = set.taps
        onsets = set.onsets
        alignments = set.alignments
        rings = set.rings
        measuredDistance = set.measuredDistance
        setLength = set.length
        sampleRate = Float(set.sampleRate)
        crossfadeFrames = max(1, Int((crossfadeSeconds * set.sampleRate).rounded()))
        filterLength = (set.length + 3 + 2 * HRIRSet.maxAlignment + 15) / 16 * 16
        let maxDelay = Int(set.maxOnset.rounded(.up)) + 2
            + Int((BinauralPosition.distanceRange.upperBound - BinauralPosition.referenceDistance) / BinauralPosition.speedOfSound * Float(set.sampleRate)) + 2
        capacity = maxDelay + filterLength + 1
        history = .allocate(capacity: capacity * 2)
        history.initialize(repeating: 0, count: capacity * 2)
        filters = .allocate(capacity: 4 * filterLength)
        filters.initialize(repeating: 0, count: 4 * filterLength)
        self.position = position
        target = position
        incoming = position
        build(slot: 0, position: position)
    }

    /// Frees the buffers. Call once, after the last use of any copy.
    public func deallocate() {
        history.deallocate()
        filters.deallocate()
    }

    /// Moves the source to `newPosition`, crossfading from where it is (realtime-safe).
    public mutating func move(to newPosition: BinauralPosition) {
        target = newPosition
        isPending = newPosition != position || fadePosition >= 0
    }

    /// Frames of silence after which the source's output is silent (its longest delay and filter).
    public var historyFrames: Int { capacity }

    /// Whether a move is still under way (crossfading or waiting for one to end).
    public var isMoving: Bool { fadePosition >= 0 || isPending }

    /// Renders `frames` frames of `input` and adds them to `left` and `right` (realtime-safe).
    public mutating func process(input: UnsafePointer<Float>, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        for frame in 0..<frames {
            history[writeIndex] = input[frame]
            history[writeIndex + capacity] = input[frame]
            let newest = writeIndex + capacity
            if fadePosition < 0 && isPending {
                build(slot: 1 - active, position: target)
                incoming = target
                isPending = false
                fadePosition = 0
            }
            var outLeft = ear(slot: active, ear: 0, newest: newest)
            var outRight = ear(slot: active, ear: 1, newest: newest)
            if fadePosition >= 0 {
                let share = Float(fadePosition + 1) / Float(crossfadeFrames)
                outLeft += share * (ear(slot: 1 - active, ear: 0, newest: newest) - outLeft)
                outRight += share * (ear(slot: 1 - active, ear: 1, newest: newest) - outRight)
                fadePosition += 1
                if fadePosition == crossfadeFrames {
                    active = 1 - active
                    fadePosition = -1
                    position = incoming
                }
            }
            left[frame] += outLeft
            right[frame] += outRight
            writeIndex += 1
            if writeIndex == capacity { writeIndex = 0 }
        }
    }

    /// Clears the input history (silence in, silence out at once).
    public mutating func reset() {
        history.update(repeating: 0, count: capacity * 2)
    }

    /// One ear's output for the frame whose input sits at `newest`.
    @inline(__always)
    private func ear(slot: Int, ear: Int, newest: Int) -> Float {
        let base = Int(bases[slot * 2 + ear])
        return Self.dot(filters + (slot * 2 + ear) * filterLength, history + (newest - base - filterLength + 1), count: filterLength)
    }

    /// Σ a[i]·b[i] over `count` (a multiple of 16) floats.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        var sum0 = SIMD8<Float>.zero, sum1 = SIMD8<Float>.zero
        let rawA = UnsafeRawPointer(a), rawB = UnsafeRawPointer(b)
        var offset = 0
        let bytes = count * 4
        while offset < bytes {
            sum0 += rawA.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self) * rawB.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            sum1 += rawA.loadUnaligned(fromByteOffset: offset + 32, as: SIMD8<Float>.self) * rawB.loadUnaligned(fromByteOffset: offset + 32, as: SIMD8<Float>.self)
            offset += 64
        }
        return (sum0 + sum1).sum()
    }

    /// Builds the filter pair of `position` into `slot` (realtime-safe): each ear's arrival is the neighbours'
    /// interpolated arrival (onset + alignment) plus the distance's delay; each neighbour's response, × its weight and
    /// the distance gain, is placed at that arrival less its own alignment, the fraction as four Lagrange taps.
    private mutating func build(slot: Int, position: BinauralPosition) {
        let weights = rings.weights(azimuthDeg: position.azimuthDeg, elevationDeg: position.elevationDeg)
        let added = position.addedDelaySeconds * sampleRate
        for ear in 0..<2 {
            let gain = position.gain(ear: ear, measuredDistance: measuredDistance)
            var arrival = added
            var earliest = Float.infinity
            for point in 0..<4 where weights.weights[point] > 0 {
                let response = Int(weights.indices[point]) * 2 + ear
                arrival += weights.weights[point] * (onsets[response] + alignments[response])
            }
            for point in 0..<4 where weights.weights[point] > 0 {
                earliest = min(earliest, arrival - alignments[Int(weights.indices[point]) * 2 + ear])
            }
            let base = max(0, Int(earliest) - 1)
            let filter = filters + (slot * 2 + ear) * filterLength
            filter.update(repeating: 0, count: filterLength)
            for point in 0..<4 where weights.weights[point] > 0 {
                let response = Int(weights.indices[point]) * 2 + ear
                let delay = max(0, arrival - alignments[response])
                let whole = Int(delay), f = delay - Float(whole)
                // Lagrange taps at delays whole−1 … whole+2 (below delay 0 the first is dropped).
                let lagrange = SIMD4<Float>(-f * (f - 1) * (f - 2) / 6, (f + 1) * (f - 1) * (f - 2) / 2, -(f + 1) * f * (f - 2) / 2, (f + 1) * f * (f - 1) / 6)
                    * (weights.weights[point] * gain)
                let measured = taps + response * setLength
                for tap in 0..<4 {
                    let shift = whole - 1 + tap - base
                    guard shift >= 0, lagrange[tap] != 0 else { continue }
                    let end = min(setLength, filterLength - shift)
                    let coefficient = lagrange[tap]
                    let reversed = filter + (filterLength - 1 - shift)
                    for frame in 0..<end { reversed[-frame] += coefficient * measured[frame] }
                }
            }
            bases[slot * 2 + ear] = Int32(base)
        }
    }
}
