// A binaural source's filters as uniform partitions: the first as a direct dot product, the rest as spectra (FFTW). Realtime after init.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The filter pairs of a ``BinauralSource``'s two slots (× two ears) split into ``partitionFrames``-frame partitions,
/// and the state that runs them without latency.
///
/// An ear whose filter `h` reads the input `base` frames back is rendered as `h` delayed by `base mod P` (P =
/// ``partitionFrames``) reading the input `q·P` frames back (`q = base / P`). Its first partition runs as a direct
/// dot product per frame (`output(slot:ear:history:newest:)`); partition `m ≥ 1` only needs input at least P frames
/// old, so at each partition's first frame (`renderTail(slot:)`) their sum for the next P frames is computed in one
/// go by overlap-save: Σ H_m · X_{j−m−q} over the spectra X of the input's two-partition windows (2P-point FFTs,
/// kept `depth` deep: one forward transform per P frames, shared by both ears and slots), one inverse transform per
/// ear. The result equals the direct convolution within float rounding (about −130 dB), at any block size.
struct BinauralPartitions: @unchecked Sendable {
    let partitionFrames: Int
    /// Floats per split (re, then im) spectrum half: P + 1 bins, padded to a multiple of 8.
    let stride: Int
    /// Partitions after the first, at most, per slot and ear.
    let maxTail: Int
    /// Input spectra kept.
    let depth: Int
    let plans: RealFFTPlans
    /// Each slot and ear's first partition, reversed (oldest input first): 4 × P.
    let heads: UnsafeMutablePointer<Float>
    /// Each slot and ear's later partitions' spectra, split, × 1/(2P): 4 × maxTail × 2 × stride.
    let spectra: UnsafeMutablePointer<Float>
    /// The input windows' spectra, split, a ring of `depth`.
    let inputs: UnsafeMutablePointer<Float>
    /// Each slot and ear's later partitions' output for the current partition: 4 × P.
    let tails: UnsafeMutablePointer<Float>
    /// Scratch: 2P frames, a half spectrum, a split sum, and a filter being built.
    let time: UnsafeMutablePointer<Float>
    let complex: UnsafeMutablePointer<Float>
    let sum: UnsafeMutablePointer<Float>
    let filter: UnsafeMutablePointer<Float>
    let filterCapacity: Int
    /// Each slot and ear's input delay, whole partitions × P, and its number of later partitions.
    var delays: SIMD4<Int32> = .zero
    var counts: SIMD4<Int32> = .zero
    var newestInput = 0
    /// The frame within the current partition.
    var phase = 0

    init(filterLength: Int, maxDelay: Int, partitionFrames: Int) {
        self.partitionFrames = partitionFrames
        stride = (partitionFrames + 1 + 7) / 8 * 8
        maxTail = (filterLength + partitionFrames - 1 + partitionFrames - 1) / partitionFrames - 1
        depth = maxDelay / partitionFrames + maxTail + 1
        plans = RealFFTPlans.plans(size: 2 * partitionFrames)
        heads = .allocate(capacity: 4 * partitionFrames)
        heads.initialize(repeating: 0, count: 4 * partitionFrames)
        spectra = RealFFTPlans.allocateReal(4 * max(1, maxTail) * 2 * stride)
        inputs = RealFFTPlans.allocateReal(depth * 2 * stride)
        tails = RealFFTPlans.allocateReal(4 * partitionFrames)
        time = RealFFTPlans.allocateReal(2 * partitionFrames)
        complex = RealFFTPlans.allocateComplex(stride)
        sum = RealFFTPlans.allocateReal(2 * stride)
        filterCapacity = filterLength + 2 * partitionFrames
        filter = .allocate(capacity: filterCapacity)
        filter.initialize(repeating: 0, count: filterCapacity)
    }

    func deallocate() {
        heads.deallocate()
        filter.deallocate()
        for memory in [spectra, inputs, tails, time, complex, sum] { RealFFTPlans.free(memory) }
    }

    /// Frames of silent input after which every input spectrum read is zero.
    var historyFrames: Int { (depth + 2) * partitionFrames }

    mutating func reset() {
        inputs.update(repeating: 0, count: depth * 2 * stride)
        tails.update(repeating: 0, count: 4 * partitionFrames)
    }

    /// A zeroed filter to build for an ear reading `base` frames back: index 0 is delay `base`.
    func filterScratch(base: Int) -> UnsafeMutablePointer<Float> {
        filter.update(repeating: 0, count: filterCapacity)
        return filter + base % partitionFrames
    }

    /// Takes the filter built in `filterScratch(base:)` as `slot`'s filter for `ear`.
    mutating func load(slot: Int, ear: Int, base: Int) {
        let index = slot * 2 + ear, frames = partitionFrames
        let partitionCount = (filterCapacity - 2 * frames + base % frames + frames - 1) / frames
        let head = heads + index * frames
        for tap in 0..<frames { head[frames - 1 - tap] = filter[tap] }
        let scale = 1 / Float(2 * frames)
        for partition in 1..<partitionCount {
            time.update(from: filter + partition * frames, count: frames)
            (time + frames).update(repeating: 0, count: frames)
            plans.forward(time, into: complex)
            let spectrum = spectra + (index * maxTail + partition - 1) * 2 * stride
            for bin in 0...frames {
                spectrum[bin] = complex[2 * bin] * scale
                spectrum[stride + bin] = complex[2 * bin + 1] * scale
            }
        }
        delays[index] = Int32(base / frames * frames)
        counts[index] = Int32(partitionCount - 1)
    }

    /// Adds the spectrum of the `2P` frames at `window` (the input's last two partitions) to the input spectra.
    mutating func pushInput(_ window: UnsafePointer<Float>) {
        newestInput = newestInput + 1 == depth ? 0 : newestInput + 1
        time.update(from: window, count: 2 * partitionFrames)
        plans.forward(time, into: complex)
        let spectrum = inputs + newestInput * 2 * stride
        for bin in 0...partitionFrames {
            spectrum[bin] = complex[2 * bin]
            spectrum[stride + bin] = complex[2 * bin + 1]
        }
    }

    /// `slot`'s later partitions' output for the current partition, both ears.
    mutating func renderTail(slot: Int) {
        for ear in 0..<2 {
            let index = slot * 2 + ear, frames = partitionFrames
            let count = Int(counts[index]), lag = Int(delays[index]) / frames
            sum.update(repeating: 0, count: 2 * stride)
            for partition in 1..<(count + 1) {
                var input = newestInput - (partition - 1 + lag)
                if input < 0 { input += depth }
                Self.multiplyAdd(spectra + (index * maxTail + partition - 1) * 2 * stride, inputs + input * 2 * stride, into: sum, stride: stride)
            }
            for bin in 0...frames {
                complex[2 * bin] = sum[bin]
                complex[2 * bin + 1] = sum[stride + bin]
            }
            plans.inverse(complex, into: time)
            (tails + index * frames).update(from: time + frames, count: frames)
        }
    }

    /// Slot `slot`, ear `ear`'s output for the frame whose input sits at `newest` in `history`.
    @inline(__always)
    func output(slot: Int, ear: Int, history: UnsafeMutablePointer<Float>, newest: Int) -> Float {
        let index = slot * 2 + ear
        let window = history + (newest - Int(delays[index]) - partitionFrames + 1)
        return Self.dot(heads + index * partitionFrames, window, count: partitionFrames) + tails[index * partitionFrames + phase]
    }

    /// Moves to the next frame of the partition.
    @inline(__always)
    mutating func advance() {
        phase += 1
        if phase == partitionFrames { phase = 0 }
    }

    /// `sum += a × b` over split spectra (`stride` re, then `stride` im; `stride` a multiple of 8).
    @inline(__always)
    static func multiplyAdd(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, into sum: UnsafeMutablePointer<Float>, stride: Int) {
        let rawA = UnsafeRawPointer(a), rawB = UnsafeRawPointer(b), rawSum = UnsafeMutableRawPointer(sum)
        let imaginary = stride * 4
        var offset = 0
        while offset < imaginary {
            let ar = rawA.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            let ai = rawA.loadUnaligned(fromByteOffset: offset + imaginary, as: SIMD8<Float>.self)
            let br = rawB.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            let bi = rawB.loadUnaligned(fromByteOffset: offset + imaginary, as: SIMD8<Float>.self)
            let sr = rawSum.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            let si = rawSum.loadUnaligned(fromByteOffset: offset + imaginary, as: SIMD8<Float>.self)
            rawSum.storeBytes(of: sr + ar * br - ai * bi, toByteOffset: offset, as: SIMD8<Float>.self)
            rawSum.storeBytes(of: si + ar * bi + ai * br, toByteOffset: offset + imaginary, as: SIMD8<Float>.self)
            offset += 32
        }
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
}
