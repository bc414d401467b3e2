// A binaural source's filters as uniform partitions: the current partition's input through a direct dot product, older input through spectra (FFTW). Realtime after init.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The filter pairs of a ``BinauralSource``'s two slots (× two ears) split into ``partitionFrames``-frame partitions,
/// and the state that runs them without latency.
///
/// An ear whose filter `h` reads the input `base` frames back is rendered as `h` delayed by `base mod P` (P =
/// ``partitionFrames``) reading the input `q·P` frames back (`q = base / P`). At each partition's first frame
/// (`renderTail(slot:)`) everything the next P frames need from input at least one partition old is computed in one
/// go by overlap-save: Σ H_m · X_{j−m−q} over the spectra X of the input's two-partition windows (2P-point FFTs,
/// kept `depth` deep, shared by both ears and slots), one inverse transform per ear. That is every partition m ≥ 1,
/// and the first (m = 0) too when q ≥ 1. When q = 0 the first partition's share of the previous partition's input
/// joins the same sum through the spectrum V of that partition alone, zero-padded (X is derived from it: X_j =
/// V_{j−1} + (−1)^k·V_j, so one forward transform per P frames still), and only the current partition's input runs
/// as a direct dot product per frame (`output(slot:)`): at the partition's frame t, t + 1 taps (rounded up to 8,
/// reading the zeros below the partition), 36 on average instead of 64, both ears on one window. The result equals
/// the direct convolution within float rounding (about −130 dB), at any block size.
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
    /// Each slot and ear's partitions' spectra (the first, then the later ones), split, × 1/(2P):
    /// 4 × (maxTail + 1) × 2 × stride.
    let spectra: UnsafeMutablePointer<Float>
    /// The input windows' spectra X, split, a ring of `depth`.
    let inputs: UnsafeMutablePointer<Float>
    /// The spectra V of the last two partitions alone (zero-padded), split: `latest` is the newest.
    var latest: UnsafeMutablePointer<Float>
    var earlier: UnsafeMutablePointer<Float>
    /// (−1)^k per bin, `stride` floats.
    let signs: UnsafeMutablePointer<Float>
    /// P zeros, then the current partition's input so far.
    let current: UnsafeMutablePointer<Float>
    /// Each slot and ear's partitions' output from older input for the current partition: 4 × P.
    let tails: UnsafeMutablePointer<Float>
    /// Scratch of the audio thread: 2P frames, a half spectrum, a split sum.
    let time: UnsafeMutablePointer<Float>
    let complex: UnsafeMutablePointer<Float>
    let sum: UnsafeMutablePointer<Float>
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
        spectra = RealFFTPlans.allocateReal(4 * (maxTail + 1) * 2 * stride)
        inputs = RealFFTPlans.allocateReal(depth * 2 * stride)
        latest = RealFFTPlans.allocateReal(2 * stride)
        earlier = RealFFTPlans.allocateReal(2 * stride)
        signs = RealFFTPlans.allocateReal(stride)
        for bin in 0..<stride { signs[bin] = bin % 2 == 0 ? 1 : -1 }
        current = RealFFTPlans.allocateReal(2 * partitionFrames)
        tails = RealFFTPlans.allocateReal(4 * partitionFrames)
        time = RealFFTPlans.allocateReal(2 * partitionFrames)
        complex = RealFFTPlans.allocateComplex(stride)
        sum = RealFFTPlans.allocateReal(2 * stride)
    }

    func deallocate() {
        heads.deallocate()
        for memory in [spectra, inputs, latest, earlier, signs, current, tails, time, complex, sum] { RealFFTPlans.free(memory) }
    }

    /// Frames of silent input after which every input read is zero.
    var historyFrames: Int { (depth + 2) * partitionFrames }

    mutating func reset() {
        inputs.update(repeating: 0, count: depth * 2 * stride)
        latest.update(repeating: 0, count: 2 * stride)
        earlier.update(repeating: 0, count: 2 * stride)
        current.update(repeating: 0, count: 2 * partitionFrames)
        tails.update(repeating: 0, count: 4 * partitionFrames)
    }

    /// Makes `placement` (from ``BinauralFilterBuilder``, which wrote the head and spectra) `slot`'s for `ear`.
    mutating func adopt(slot: Int, ear: Int, placement: BinauralPlacement) {
        delays[slot * 2 + ear] = placement.delay
        counts[slot * 2 + ear] = placement.laterPartitions
    }

    /// Takes the current frame's input (before `output(slot:)`).
    @inline(__always)
    func write(_ sample: Float) {
        current[partitionFrames + phase] = sample
    }

    /// At a partition's first frame: the spectrum V of the partition just ended, and from it the window X of the
    /// last two partitions into the input spectra.
    mutating func pushInput() {
        let frames = partitionFrames
        swap(&latest, &earlier)
        time.update(from: current + frames, count: frames)
        (time + frames).update(repeating: 0, count: frames)
        plans.forward(time, into: complex)
        for bin in 0...frames {
            latest[bin] = complex[2 * bin]
            latest[stride + bin] = complex[2 * bin + 1]
        }
        newestInput = newestInput + 1 == depth ? 0 : newestInput + 1
        Self.window(earlier: earlier, latest: latest, signs: signs, into: inputs + newestInput * 2 * stride, stride: stride)
    }

    /// `slot`'s partitions' output from input before the current partition, both ears.
    mutating func renderTail(slot: Int) {
        for ear in 0..<2 {
            let index = slot * 2 + ear, frames = partitionFrames
            let count = Int(counts[index]), lag = Int(delays[index]) / frames
            let spectrum = spectra + index * (maxTail + 1) * 2 * stride
            sum.update(repeating: 0, count: 2 * stride)
            if lag == 0 { Self.multiplyAdd(spectrum, latest, into: sum, stride: stride) }
            for partition in (lag == 0 ? 1 : 0)..<(count + 1) {
                var input = newestInput - (partition - 1 + lag)
                if input < 0 { input += depth }
                Self.multiplyAdd(spectrum + partition * 2 * stride, inputs + input * 2 * stride, into: sum, stride: stride)
            }
            for bin in 0...frames {
                complex[2 * bin] = sum[bin]
                complex[2 * bin + 1] = sum[stride + bin]
            }
            plans.inverse(complex, into: time)
            (tails + index * frames).update(from: time + frames, count: frames)
        }
    }

    /// Slot `slot`'s output (left, right) for the current frame: the tails, and the direct part of the ears that
    /// read the input undelayed.
    @inline(__always)
    func output(slot: Int) -> SIMD2<Float> {
        let left = slot * 2, right = left + 1, frames = partitionFrames
        var result = SIMD2(tails[left * frames + phase], tails[right * frames + phase])
        let taps = (phase + 8) & ~7
        let window = current + frames + phase + 1 - taps
        let first = frames - taps
        switch (delays[left] == 0, delays[right] == 0) {
        case (true, true): result += Self.dot2(heads + left * frames + first, heads + right * frames + first, window, count: taps)
        case (true, false): result.x += Self.dot2(heads + left * frames + first, heads + left * frames + first, window, count: taps).x
        case (false, true): result.y += Self.dot2(heads + right * frames + first, heads + right * frames + first, window, count: taps).y
        case (false, false): break
        }
        return result
    }

    /// Moves the partition clock by `frames` frames of zeros, as processing them would, when every input read is
    /// zero already (after ``historyFrames`` frames of zeros): the input spectra's ring turns once per partition
    /// started, the two partitions' spectra swap as often; every value stays zero.
    mutating func rest(frames: Int) {
        guard frames > 0 else { return }
        let starts = (phase + frames - 1) / partitionFrames + (phase == 0 ? 1 : 0)
        newestInput = (newestInput + starts) % depth
        if starts % 2 == 1 { swap(&latest, &earlier) }
        phase = (phase + frames) % partitionFrames
    }

    /// Moves to the next frame of the partition.
    @inline(__always)
    mutating func advance() {
        phase += 1
        if phase == partitionFrames { phase = 0 }
    }

    /// `into = earlier + signs × latest` over split spectra (the window of two partitions from each one's own).
    @inline(__always)
    static func window(earlier: UnsafePointer<Float>, latest: UnsafePointer<Float>, signs: UnsafePointer<Float>, into: UnsafeMutablePointer<Float>, stride: Int) {
        let rawE = UnsafeRawPointer(earlier), rawL = UnsafeRawPointer(latest), rawS = UnsafeRawPointer(signs)
        let rawInto = UnsafeMutableRawPointer(into)
        let imaginary = stride * 4
        var offset = 0
        while offset < imaginary {
            let sign = rawS.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            let real = rawE.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
                + sign * rawL.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            let imag = rawE.loadUnaligned(fromByteOffset: offset + imaginary, as: SIMD8<Float>.self)
                + sign * rawL.loadUnaligned(fromByteOffset: offset + imaginary, as: SIMD8<Float>.self)
            rawInto.storeBytes(of: real, toByteOffset: offset, as: SIMD8<Float>.self)
            rawInto.storeBytes(of: imag, toByteOffset: offset + imaginary, as: SIMD8<Float>.self)
            offset += 32
        }
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

    /// (Σ a[i]·w[i], Σ b[i]·w[i]) over `count` (a multiple of 8) floats.
    @inline(__always)
    static func dot2(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ w: UnsafePointer<Float>, count: Int) -> SIMD2<Float> {
        var sumA = SIMD8<Float>.zero, sumB = SIMD8<Float>.zero
        let rawA = UnsafeRawPointer(a), rawB = UnsafeRawPointer(b), rawW = UnsafeRawPointer(w)
        var offset = 0
        let bytes = count * 4
        while offset < bytes {
            let window = rawW.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            sumA += rawA.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self) * window
            sumB += rawB.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self) * window
            offset += 32
        }
        return SIMD2(sumA.sum(), sumB.sum())
    }
}
