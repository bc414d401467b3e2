// One mono source rendered to two ears through an HRIR pair at its position, with click-free moves. Realtime (process, move) after init.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Renders one mono signal at a ``BinauralPosition`` through an ``HRIRSet`` and adds it to a left and right buffer.
///
/// Each ear's filter is the minimum-phase response of the neighbours' blended cepstra (``HRIRSynthesis``) read from the
/// input at the ear's own delay (the interpolated arrival plus the distance's delay). The fractional part of the delay
/// is applied in the frequency domain as the filter is made, so the delay stays a pure delay. The filter runs without
/// added latency as a uniformly partitioned convolution (see `BinauralPartitions.swift`): the part of its first
/// ``partitionFrames`` taps that reads the current partition's input as a direct dot product per frame, everything
/// else in the frequency domain once every ``partitionFrames`` frames (FFTW), from the input spectra the source keeps
/// (one forward transform per partition, shared by both ears). A move builds the new filter pair in the spare slot and crossfades from the old
/// pair's output to the new one's over ``crossfadeFrames`` frames; a move during a crossfade waits for it to end (the
/// latest position wins). The output does not depend on how the frames are split into blocks. No allocation after
/// `init`; call ``deallocate()`` once.
public struct BinauralSource: @unchecked Sendable {
    /// Frames per partition: the direct part's taps, and how often the frequency-domain part runs.
    public static let partitionFrames = 64
    /// Frames of the crossfade between the old and the new filter pair.
    public let crossfadeFrames: Int
    /// Filter taps per ear (the response and its pre-roll, to a multiple of 16).
    public let filterLength: Int
    /// The set's storage (the owner keeps the set alive while the source renders).
    let cepstra: UnsafeMutablePointer<Float>
    let onsets: UnsafeMutablePointer<Float>
    /// Makes each ear's response from the blended cepstra.
    let synthesis: HRIRSynthesis
    let rings: HRIRRings
    let measuredDistance: Float
    let setLength: Int
    let sampleRate: Float
    /// The frequency-domain part: spectra, input spectra, the partitions' output (`BinauralSource+Partitions.swift`).
    var partitions: BinauralPartitions
    var active = 0
    var fadePosition = -1
    private var target: BinauralPosition
    /// The position the spare slot's filters render while crossfading in.
    private var incoming: BinauralPosition
    private var isPending = false
    /// The position the active filters render (the target once a crossfade ends).
    public private(set) var position: BinauralPosition

    /// A source rendering `set` at `position`.
    public init(set: HRIRSet, position: BinauralPosition = BinauralPosition(), crossfadeSeconds: Double = 0.005) {
        cepstra = set.cepstra
        onsets = set.onsets
        synthesis = HRIRSynthesis(length: set.length, transformSize: set.transformSize)
        rings = set.rings
        measuredDistance = set.measuredDistance
        setLength = set.length
        sampleRate = Float(set.sampleRate)
        crossfadeFrames = max(1, Int((crossfadeSeconds * set.sampleRate).rounded()))
        filterLength = (set.length + HRIRSet.preRoll + 15) / 16 * 16
        let maxDelay = Int(set.maxOnset.rounded(.up)) + 2
            + Int((BinauralPosition.distanceRange.upperBound - BinauralPosition.referenceDistance) / BinauralPosition.speedOfSound * Float(set.sampleRate)) + 2
        partitions = BinauralPartitions(filterLength: filterLength, maxDelay: maxDelay, partitionFrames: Self.partitionFrames)
        self.position = position
        target = position
        incoming = position
        build(slot: 0, position: position)
    }

    /// Frees the buffers. Call once, after the last use of any copy.
    public func deallocate() {
        partitions.deallocate()
        synthesis.deallocate()
    }

    /// Moves the source to `newPosition`, crossfading from where it is (realtime-safe).
    public mutating func move(to newPosition: BinauralPosition) {
        target = newPosition
        isPending = newPosition != position || fadePosition >= 0
    }

    /// Frames of silence after which the source's output is silent (its longest delay and filter, and the input
    /// spectra its partitions read).
    public var historyFrames: Int { partitions.historyFrames }

    /// Whether a move is still under way (crossfading or waiting for one to end).
    public var isMoving: Bool { fadePosition >= 0 || isPending }

    /// Renders `frames` frames of `input` and adds them to `left` and `right` (realtime-safe).
    public mutating func process(input: UnsafePointer<Float>, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        for frame in 0..<frames {
            if partitions.phase == 0 { startPartition() }
            partitions.write(input[frame])
            if fadePosition < 0 && isPending {
                build(slot: 1 - active, position: target)
                incoming = target
                isPending = false
                fadePosition = 0
            }
            var out = partitions.output(slot: active)
            if fadePosition >= 0 {
                let share = Float(fadePosition + 1) / Float(crossfadeFrames)
                out += share * (partitions.output(slot: 1 - active) - out)
                fadePosition += 1
                if fadePosition == crossfadeFrames {
                    active = 1 - active
                    fadePosition = -1
                    position = incoming
                }
            }
            left[frame] += out.x
            right[frame] += out.y
            partitions.advance()
        }
    }

    /// Skips `frames` frames of silence when the source has taken in ``historyFrames`` frames of zeros since its
    /// last sound and no move is under way: its clocks move exactly as processing those zeros would (the output it
    /// would add is zeros), so sound that comes back is cut at the same partition boundaries, bit for bit. Returns
    /// false, doing nothing, while a move is under way (process the zeros then). Realtime-safe.
    public mutating func rest(frames: Int) -> Bool {
        guard !isMoving else { return false }
        partitions.rest(frames: frames)
        return true
    }

    /// Clears the input history (silence in, silence out at once).
    public mutating func reset() {
        partitions.reset()
    }

    /// At a partition's first frame: the spectra of the partition just ended, then the frequency-domain part's
    /// output for this partition of the slots that play.
    private mutating func startPartition() {
        partitions.pushInput()
        partitions.renderTail(slot: active)
        if fadePosition >= 0 { partitions.renderTail(slot: 1 - active) }
    }

    /// Builds the filter pair of `position` into `slot` (realtime-safe, bounded): each ear's arrival is the neighbours'
    /// interpolated arrival plus the distance's delay; its response is the minimum-phase response of the neighbours'
    /// cepstra blended by their weights, × the distance gain, delayed by the arrival's fraction. The filter then goes
    /// into the slot's partitions, whose output for the current partition is rendered at once.
    private mutating func build(slot: Int, position: BinauralPosition) {
        let weights = rings.weights(azimuthDeg: position.azimuthDeg, elevationDeg: position.elevationDeg)
        let added = position.addedDelaySeconds * sampleRate
        for ear in 0..<2 {
            var arrival = added
            synthesis.clear()
            for point in 0..<4 where weights.weights[point] > 0 {
                let response = Int(weights.indices[point]) * 2 + ear
                arrival += weights.weights[point] * onsets[response]
                synthesis.add(cepstra + response * setLength, weight: weights.weights[point])
            }
            let whole = Int(arrival)
            synthesis.synthesize(fraction: arrival - Float(whole), gain: position.gain(ear: ear, measuredDistance: measuredDistance))
            let start = whole - HRIRSet.preRoll, skip = max(0, -start), base = max(0, start)
            partitions.filterScratch(base: base).update(from: synthesis.output + skip, count: synthesis.outputLength - skip)
            partitions.load(slot: slot, ear: ear, base: base)
        }
        partitions.renderTail(slot: slot)
    }
}
