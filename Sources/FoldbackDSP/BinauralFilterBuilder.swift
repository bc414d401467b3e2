// Builds a binaural source's filter pair for a position into one of its slots: synthesis and partition spectra. Any one thread at a time (a worker live, the audio thread offline); no allocation after init.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Where an ear's filter reads its input in a ``BinauralSource``'s slot: what the audio thread takes over once the
/// filter's head and spectra are written.
public struct BinauralPlacement: Sendable, Equatable {
    /// The input delay in whole partitions, frames.
    var delay: Int32 = 0
    /// The partitions after the first.
    var laterPartitions: Int32 = 0
}

/// A filter pair built for a slot: each ear's ``BinauralPlacement``.
public struct BinauralFilterPair: Sendable, Equatable {
    var left = BinauralPlacement()
    var right = BinauralPlacement()

    /// No filter yet.
    public init() {}
}

/// The work of a move: each ear's arrival is the neighbours' interpolated arrival plus the distance's delay; its
/// response the minimum-phase response of the neighbours' blended cepstra (``HRIRSynthesis``), × the distance gain,
/// delayed by the arrival's fraction; the response is then cut into partitions and transformed into the slot's
/// spectra (FFTW). It writes only its own scratch and the given slot's heads and spectra, so it may run on a thread
/// of its own while the audio thread plays the other slot. Two real FFTs of ``HRIRSet/transformSize`` frames per
/// ear plus one 2P-point FFT per partition: too much to do in one cycle for many sources at small periods, which is
/// why a live engine runs it on a worker. No allocation after `init`; call ``deallocate()`` once.
public struct BinauralFilterBuilder: @unchecked Sendable {
    let cepstra: UnsafeMutablePointer<Float>
    let onsets: UnsafeMutablePointer<Float>
    let rings: HRIRRings
    let measuredDistance: Float
    let setLength: Int
    let sampleRate: Float
    let synthesis: HRIRSynthesis
    /// The source's partitions' geometry and the two slots' storage (see ``BinauralPartitions``).
    let partitionFrames: Int
    let stride: Int
    let maxTail: Int
    let plans: RealFFTPlans
    let heads: UnsafeMutablePointer<Float>
    let spectra: UnsafeMutablePointer<Float>
    /// Scratch: the filter being built (``filterCapacity`` frames), 2P frames, a half spectrum.
    let filter: UnsafeMutablePointer<Float>
    let filterCapacity: Int
    let time: UnsafeMutablePointer<Float>
    let complex: UnsafeMutablePointer<Float>

    /// A builder of `set`'s filters of `filterLength` taps into `partitions`' slots.
    init(set: HRIRSet, filterLength: Int, partitions: BinauralPartitions) {
        cepstra = set.cepstra
        onsets = set.onsets
        rings = set.rings
        measuredDistance = set.measuredDistance
        setLength = set.length
        sampleRate = Float(set.sampleRate)
        synthesis = HRIRSynthesis(length: set.length, transformSize: set.transformSize)
        partitionFrames = partitions.partitionFrames
        stride = partitions.stride
        maxTail = partitions.maxTail
        plans = partitions.plans
        heads = partitions.heads
        spectra = partitions.spectra
        filterCapacity = filterLength + 2 * partitionFrames
        filter = .allocate(capacity: filterCapacity)
        filter.initialize(repeating: 0, count: filterCapacity)
        time = RealFFTPlans.allocateReal(2 * partitionFrames)
        complex = RealFFTPlans.allocateComplex(stride)
    }

    /// Frees the scratch. Call once, after the last build.
    func deallocate() {
        synthesis.deallocate()
        filter.deallocate()
        RealFFTPlans.free(time)
        RealFFTPlans.free(complex)
    }

    /// Writes the filter pair of `position` into `slot`'s heads and spectra; returns where each ear reads its input
    /// (for ``BinauralPartitions/adopt(slot:ear:placement:)``).
    public func build(slot: Int, position: BinauralPosition) -> BinauralFilterPair {
        let weights = rings.weights(azimuthDeg: position.azimuthDeg, elevationDeg: position.elevationDeg)
        let added = position.addedDelaySeconds * sampleRate
        var pair = BinauralFilterPair()
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
            filter.update(repeating: 0, count: filterCapacity)
            (filter + base % partitionFrames).update(from: synthesis.output + skip, count: synthesis.outputLength - skip)
            let placement = store(slot: slot, ear: ear, base: base)
            if ear == 0 { pair.left = placement } else { pair.right = placement }
        }
        return pair
    }

    /// Cuts ``filter`` (index `base mod P` is delay `base`) into `slot`'s head for `ear` (reversed) and its
    /// partitions' spectra (split, × 1/(2P)).
    private func store(slot: Int, ear: Int, base: Int) -> BinauralPlacement {
        let index = slot * 2 + ear, frames = partitionFrames
        let partitionCount = (filterCapacity - 2 * frames + base % frames + frames - 1) / frames
        let head = heads + index * frames
        for tap in 0..<frames { head[frames - 1 - tap] = filter[tap] }
        let scale = 1 / Float(2 * frames)
        for partition in 0..<partitionCount {
            time.update(from: filter + partition * frames, count: frames)
            (time + frames).update(repeating: 0, count: frames)
            plans.forward(time, into: complex)
            let spectrum = spectra + (index * (maxTail + 1) + partition) * 2 * stride
            for bin in 0...frames {
                spectrum[bin] = complex[2 * bin] * scale
                spectrum[stride + bin] = complex[2 * bin + 1] * scale
            }
        }
        return BinauralPlacement(delay: Int32(base / frames * frames), laterPartitions: Int32(partitionCount - 1))
    }
}
