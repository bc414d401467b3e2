// The limiter's step 5: audio through the lookahead line, times the gains, clamped at the ceiling. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

extension LimiterKernel {
    /// How a chunk's frames are scaled on their way out of the line.
    enum LineGains {
        /// Every gain is exactly 1 (the at-rest case): the line's samples are only clamped.
        case unity
        /// Each frame's gain from ``chunkGain``; the ceiling is constant over the chunk.
        case scaled
        /// Each frame's gain from ``chunkGain`` and ceiling from ``chunkLimit`` (a ceiling glide is running).
        case scaledAndGliding
    }

    /// Step 5 for `frames` frames from `offset`: each channel through the lookahead line, scaled as `gains`
    /// says and clamped at the ceiling in force, run by run up to the line's wrap point.
    @inline(__always) @_noLocks
    mutating func throughLine(
        _ inputs: UnsafePointer<UnsafePointer<Float>>, _ outputs: UnsafePointer<UnsafeMutablePointer<Float>>,
        channels count: Int, offset: Int, frames: Int, gains mode: LineGains
    ) {
        let lineFrames = delay.frames, limit = ceiling
        for channel in 0..<count {
            let input = inputs[channel] + offset, output = outputs[channel] + offset
            guard lineFrames > 0 else {
                exchange(nil, input, output, chunk: 0, frames: frames, gains: mode, limit: limit)
                continue
            }
            let line = delay.storage + channel * lineFrames
            var position = delay.position, done = 0
            while done < frames {
                let run = min(frames - done, lineFrames - position)
                exchange(line + position, input + done, output + done, chunk: done, frames: run, gains: mode, limit: limit)
                done += run
                position += run
                if position == lineFrames { position = 0 }
            }
        }
        if lineFrames > 0 { delay.position = (delay.position + frames) % lineFrames }
    }

    /// The at-rest path: every gain is 1 and stays 1 (nothing in the block is over), so each channel only
    /// goes through the lookahead line and the safety clamp (gain 1.0 is exact); the gain history moves on as
    /// the per-frame path would leave it (all holds 1, the deque holding this block's last frame).
    @_noLocks
    mutating func passThrough(
        inputs: UnsafePointer<UnsafePointer<Float>>, outputs: UnsafePointer<UnsafeMutablePointer<Float>>,
        channels count: Int, frames: Int
    ) {
        throughLine(inputs, outputs, channels: count, offset: 0, frames: frames, gains: .unity)
        restHistory(frames: frames)
        blockMaximumDepth = 0
    }

    /// `frames` samples of `line` (or, without a line, of `input`) scaled as `mode` says (gains from
    /// ``chunkGain`` and ceilings from ``chunkLimit`` at `chunk` on) and clamped to `output`; `input`'s to
    /// the line (`input` may be `output`). Eight at a time where the ceiling is constant: an 8-frame group
    /// with nothing beyond ±`limit` is stored as it is (what the clamp gives), another sample by sample.
    @inline(__always) @_noLocks
    func exchange(
        _ line: UnsafeMutablePointer<Float>?, _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
        chunk: Int, frames: Int, gains mode: LineGains, limit: Float
    ) {
        let gains = chunkGain + chunk, limits = chunkLimit + chunk
        var index = 0
        if mode != .scaledAndGliding {
            while index &+ 8 <= frames {
                var samples = UnsafeRawPointer(input + index).loadUnaligned(as: SIMD8<Float>.self)
                if let line {
                    let delayed = UnsafeRawPointer(line + index).loadUnaligned(as: SIMD8<Float>.self)
                    UnsafeMutableRawPointer(line + index).storeBytes(of: samples, as: SIMD8<Float>.self)
                    samples = delayed
                }
                if mode == .scaled { samples *= UnsafeRawPointer(gains + index).loadUnaligned(as: SIMD8<Float>.self) }
                Self.store(samples, clampedTo: limit, at: output + index)
                index &+= 8
            }
        }
        while index < frames {
            var sample = input[index]
            if let line {
                let delayed = line[index]
                line[index] = sample
                sample = delayed
            }
            if mode != .unity { sample *= gains[index] }
            output[index] = Self.clamped(sample, to: mode == .scaledAndGliding ? limits[index] : limit)
            index &+= 1
        }
    }

    /// Whether every sample of `channels` × `frames` from `offset` is within ±`limit` (NaN is not), eight at a time.
    @inline(__always) @_noLocks
    static func isWithin(
        _ inputs: UnsafePointer<UnsafePointer<Float>>, channels: Int, offset: Int, frames: Int, limit: Float
    ) -> Bool {
        for channel in 0..<channels {
            let samples = inputs[channel] + offset
            var inside = SIMDMask<SIMD8<Int32>>(repeating: true)
            var index = 0
            while index &+ 8 <= frames {
                let group = UnsafeRawPointer(samples + index).loadUnaligned(as: SIMD8<Float>.self)
                inside .&= (group .<= limit) .& (group .>= -limit)
                index &+= 8
            }
            if !all(inside) { return false }
            while index < frames {
                if !(abs(samples[index]) <= limit) { return false }
                index &+= 1
            }
        }
        return true
    }

    /// Stores eight samples, each as ``clamped(_:to:)`` gives it.
    @inline(__always) @_noLocks
    static func store(_ samples: SIMD8<Float>, clampedTo limit: Float, at output: UnsafeMutablePointer<Float>) {
        if all((samples .<= limit) .& (samples .>= -limit)) {   // (false for NaN)
            UnsafeMutableRawPointer(output).storeBytes(of: samples, as: SIMD8<Float>.self)
        } else {
            for lane in 0..<8 { output[lane] = clamped(samples[lane], to: limit) }
        }
    }

    /// `sample` within ±`limit`; beyond it (or non-finite) ±`limit`, NaN 0: the per-frame path's safety net.
    @inline(__always) @_noLocks
    static func clamped(_ sample: Float, to limit: Float) -> Float {
        if abs(sample) <= limit { return sample }
        return sample > 0 ? limit : (sample < 0 ? -limit : 0)
    }
}
