// One mono source rendered to two ears through an HRIR pair at its position, with click-free moves. Realtime (process, move, the hand-over of a built pair) after init.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Renders one mono signal at a ``BinauralPosition`` through an ``HRIRSet`` and adds it to a left and right buffer.
///
/// Each ear's filter is the minimum-phase response of the neighbours' blended cepstra (``HRIRSynthesis``) read from the
/// input at the ear's own delay (the interpolated arrival plus the distance's delay). The fractional part of the delay
/// is applied in the frequency domain as the filter is made, so the delay stays a pure delay. The filter runs without
/// added latency as a uniformly partitioned convolution (see `BinauralPartitions.swift`): the part of its first
/// ``partitionFrames`` taps that reads the current partition's input as a direct dot product per frame, everything
/// else in the frequency domain once every ``partitionFrames`` frames (FFTW), from the input spectra the source keeps
/// (one forward transform per partition, shared by both ears). A move builds the new filter pair in the spare slot
/// (``BinauralFilterBuilder``) and crossfades from the old pair's output to the new one's over ``crossfadeFrames``
/// frames; a move during a crossfade or a build waits for it to end (the latest position wins). The build runs in
/// the frame of the move by default, so the output does not depend on how the frames are split into blocks (offline
/// renders, tests); with ``buildsInline`` off (a live engine) the source only asks for it (``takeBuildRequest()``)
/// and the crossfade starts when the caller hands the built pair back (``finishBuild(_:)``), the building done on
/// another thread. No allocation after `init`; call ``deallocate()`` once.
public struct BinauralSource: @unchecked Sendable {
    /// Frames per partition: the direct part's taps, and how often the frequency-domain part runs.
    public static let partitionFrames = 64
    /// Frames of the crossfade between the old and the new filter pair.
    public let crossfadeFrames: Int
    /// Filter taps per ear (the response and its pre-roll, to a multiple of 16).
    public let filterLength: Int
    /// Builds the spare slot's filter pair for a move (on the audio thread while ``buildsInline``, else on the
    /// caller's worker between ``takeBuildRequest()`` and ``finishBuild(_:)``).
    public let builder: BinauralFilterBuilder
    /// The frequency-domain part: spectra, input spectra, the partitions' output (`BinauralSource+Partitions.swift`).
    var partitions: BinauralPartitions
    var active = 0
    var fadePosition = -1
    private var target: BinauralPosition
    /// The position the spare slot's filters render while crossfading in.
    private var incoming: BinauralPosition
    private var isPending = false
    /// A build was requested from another thread and not handed back yet.
    private var isAwaitingBuild = false
    /// Whether a move builds its filters in the frame it is taken (else see ``takeBuildRequest()``).
    public var buildsInline = true
    /// The position the active filters render (the target once a crossfade ends).
    public private(set) var position: BinauralPosition

    /// A source rendering `set` at `position`.
    public init(set: HRIRSet, position: BinauralPosition = BinauralPosition(), crossfadeSeconds: Double = 0.005) {
        crossfadeFrames = max(1, Int((crossfadeSeconds * set.sampleRate).rounded()))
        filterLength = (set.length + HRIRSet.preRoll + 15) / 16 * 16
        let maxDelay = Int(set.maxOnset.rounded(.up)) + 2
            + Int((BinauralPosition.distanceRange.upperBound - BinauralPosition.referenceDistance) / BinauralPosition.speedOfSound * Float(set.sampleRate)) + 2
        partitions = BinauralPartitions(filterLength: filterLength, maxDelay: maxDelay, partitionFrames: Self.partitionFrames)
        builder = BinauralFilterBuilder(set: set, filterLength: filterLength, partitions: partitions)
        self.position = position
        target = position
        incoming = position
        build(slot: 0, position: position)
    }

    /// Frees the buffers. Call once, after the last use of any copy.
    public func deallocate() {
        partitions.deallocate()
        builder.deallocate()
    }

    /// Moves the source to `newPosition`, crossfading from where it is (realtime-safe).
    public mutating func move(to newPosition: BinauralPosition) {
        target = newPosition
        isPending = newPosition != (fadePosition >= 0 || isAwaitingBuild ? incoming : position)
    }

    /// Frames of silence after which the source's output is silent (its longest delay and filter, and the input
    /// spectra its partitions read).
    public var historyFrames: Int { partitions.historyFrames }

    /// Whether a move is still under way (crossfading or waiting for one to end).
    public var isMoving: Bool { fadePosition >= 0 || isPending || isAwaitingBuild }

    /// Renders `frames` frames of `input` and adds them to `left` and `right` (realtime-safe).
    public mutating func process(input: UnsafePointer<Float>, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        for frame in 0..<frames {
            if partitions.phase == 0 { startPartition() }
            partitions.write(input[frame])
            if fadePosition < 0 && isPending && buildsInline {
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

    /// With ``buildsInline`` off: the slot and position to build when a move waits and no crossfade or build runs
    /// (the source then waits for ``finishBuild(_:)``), else nil. Realtime-safe.
    public mutating func takeBuildRequest() -> (slot: Int, position: BinauralPosition)? {
        guard !buildsInline, isPending, fadePosition < 0, !isAwaitingBuild else { return nil }
        isPending = false
        isAwaitingBuild = true
        incoming = target
        return (1 - active, target)
    }

    /// Takes the pair built for the last ``takeBuildRequest()`` into the spare slot and starts the crossfade to it
    /// (its output for the current partition rendered at once). Realtime-safe.
    public mutating func finishBuild(_ pair: BinauralFilterPair) {
        guard isAwaitingBuild else { return }
        isAwaitingBuild = false
        adopt(slot: 1 - active, pair: pair)
        fadePosition = 0
    }

    /// Builds the filter pair of `position` into `slot` in this frame (realtime-safe, bounded but heavy: see
    /// ``BinauralFilterBuilder``).
    private mutating func build(slot: Int, position: BinauralPosition) {
        adopt(slot: slot, pair: builder.build(slot: slot, position: position))
    }

    /// Makes `pair` (written into `slot`) `slot`'s filters and renders their output for the current partition.
    private mutating func adopt(slot: Int, pair: BinauralFilterPair) {
        partitions.adopt(slot: slot, ear: 0, placement: pair.left)
        partitions.adopt(slot: slot, ear: 1, placement: pair.right)
        partitions.renderTail(slot: slot)
    }
}
