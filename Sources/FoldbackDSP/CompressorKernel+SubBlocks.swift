// The compressor kernel's RMS path: the gain computer and ballistics run once per sub-block, the gain is interpolated. Realtime: runs on the audio thread.
// SPDX-License-Identifier: GPL-3.0-or-later

extension CompressorKernel {
    /// Frames per sub-block of the RMS path (a power of two). Sub-blocks are aligned to the kernel's own
    /// running frame count, so the output does not depend on how the host splits its blocks.
    static var subBlockFrames: Int { @_noLocks get { 16 } }

    /// The RMS path. The mean square of a 10 ms window moves slowly, so everything after it runs once per
    /// sub-block of ``subBlockFrames`` frames instead of once per frame: at the end of each sub-block the
    /// mean square is advanced over the sub-block's samples in one weighted sum (exactly the per-frame
    /// one-pole's value there, `y[n+N] = c^N·y[n] + Σ (1−c)·c^(N−1−j)·x²[n+j]`), then level in dB, stereo
    /// link, expander hold, static curve, attack/release one-poles (poles raised to the N-th power) and
    /// makeup give the gain at the end of the next sub-block; across it the linear gain moves in a straight
    /// line from the gain at its start. The gain therefore reads the level 1…N frames late and holds the
    /// target over a sub-block; the hot loop per frame is a multiply–add for the power and one for the gain.
    @inline(__always) @_noLocks
    mutating func processSubBlocks(
        inputs: UnsafePointer<UnsafePointer<Float>>, outputs: UnsafePointer<UnsafeMutablePointer<Float>>, count: Int, frames: Int
    ) {
        if !isSubBlockStateCurrent { enterSubBlocks(count) }
        var most = Reductions()
        for channel in 0..<count {
            most.compression = max(most.compression, channelStates[channel].compression)
            most.expansion = max(most.expansion, channelStates[channel].expansion)
        }
        var done = 0
        while done < frames {
            if subBlockPhase == 0 && frames - done >= Self.subBlockFrames {
                let blocks = min((frames - done) / Self.subBlockFrames, Self.batchSubBlocks)
                batchOfSubBlocks(inputs, outputs, count, offset: done, blocks, most: &most)
                done += blocks * Self.subBlockFrames
                continue
            }
            let length = min(frames - done, Self.subBlockFrames - subBlockPhase)
            partialSubBlock(inputs, outputs, count, offset: done, length)
            subBlockPhase = (subBlockPhase + length) & (Self.subBlockFrames - 1)
            if subBlockPhase == 0 {
                for channel in 0..<count {
                    levels[channel * Self.chunkFrames] = channelStates[channel].pendingPower
                    channelStates[channel].pendingPower = 0
                }
                endSubBlocks(count, 1, most: &most)
            }
            done += length
        }
        blockCompressionDB = most.compression
        blockExpansionDB = most.expansion
    }

    /// The most sub-blocks handled at once by ``batchOfSubBlocks(_:_:_:offset:_:most:)`` (at most 6: see
    /// ``endSubBlocks(_:_:most:)``; ``batchSubBlocks`` · ``subBlockFrames`` must fit a scratch row).
    static var batchSubBlocks: Int { @_noLocks get { 4 } }

    /// `blocks` (1…``batchSubBlocks``) whole sub-blocks of every channel, from a sub-block's start (the common case):
    /// the squares of each sub-block summed first, then the gain computers of all their ends (independent
    /// chains but for the one-poles, so they overlap), then the gains applied (through the lookahead, if any).
    @inline(__always) @_noLocks
    mutating func batchOfSubBlocks(
        _ inputs: UnsafePointer<UnsafePointer<Float>>, _ outputs: UnsafePointer<UnsafeMutablePointer<Float>>,
        _ count: Int, offset: Int, _ blocks: Int, most: inout Reductions
    ) {
        for channel in 0..<count {
            for block in 0..<blocks {
                let input = inputs[channel] + offset + block * Self.subBlockFrames
                levels[channel * Self.chunkFrames + block] = Self.weightedPower(input, rmsWeights)
            }
        }
        endSubBlocks(count, blocks, most: &most)
        for channel in 0..<count {
            let row = levels + channel * Self.chunkFrames
            let gains = UnsafeRawPointer(row + Self.gainSlot).loadUnaligned(as: SIMD8<Float>.self)   // before the row is overwritten
            for block in 0..<blocks {
                let ramp = Self.ramp(from: gains[block], to: gains[block + 1])
                let frame = offset + block * Self.subBlockFrames
                if delay.frames == 0 {
                    let samples = UnsafeRawPointer(inputs[channel] + frame).loadUnaligned(as: SIMD16<Float>.self)
                    UnsafeMutableRawPointer(outputs[channel] + frame).storeBytes(of: samples * ramp, as: SIMD16<Float>.self)
                } else {
                    UnsafeMutableRawPointer(row + block * Self.subBlockFrames).storeBytes(of: ramp, as: SIMD16<Float>.self)
                }
            }
        }
        if delay.frames > 0 { applyLinearGains(inputs, outputs, count, offset: offset, blocks * Self.subBlockFrames) }
    }

    /// The squares of one whole sub-block weighted by `weights`, summed (in SIMD lanes).
    @inline(__always) @_noLocks
    static func weightedPower(_ input: UnsafePointer<Float>, _ weights: SIMD16<Float>) -> Float {
        let samples = UnsafeRawPointer(input).loadUnaligned(as: SIMD16<Float>.self)
        let weighted = samples * samples * weights
        let quarters = weighted.lowHalf.lowHalf + weighted.lowHalf.highHalf + weighted.highHalf.lowHalf + weighted.highHalf.highHalf
        return (quarters.lowHalf + quarters.highHalf).sum()
    }

    /// The gains of a sub-block's frames on a straight line from `start` (before its first frame) to `end` (at its last).
    @inline(__always) @_noLocks
    static func ramp(from start: Float, to end: Float) -> SIMD16<Float> {
        let step = (end - start) * (1 / Float(Self.subBlockFrames))
        let positions = SIMD16<Float>(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)
        return SIMD16<Float>(repeating: start) + SIMD16<Float>(repeating: step) * positions
    }

    /// `length` frames from the current position inside a sub-block (not past its end), all channels,
    /// through the lookahead (if any): each channel's gains go to its scratch row, then are applied.
    @inline(__always) @_noLocks
    mutating func partialSubBlock(
        _ inputs: UnsafePointer<UnsafePointer<Float>>, _ outputs: UnsafePointer<UnsafeMutablePointer<Float>>,
        _ count: Int, offset: Int, _ length: Int
    ) {
        let scale = 1 / Float(Self.subBlockFrames)
        for channel in 0..<count {
            let state = channelStates + channel, row = levels + channel * Self.chunkFrames, input = inputs[channel] + offset
            let start = state.pointee.gainStart, step = (state.pointee.gainEnd - start) * scale
            var pending = state.pointee.pendingPower
            for frame in 0..<length {
                let position = subBlockPhase + frame
                row[frame] = start + step * Float(position + 1)
                pending += input[frame] * input[frame] * rmsWeights[position]
            }
            state.pointee.pendingPower = pending
        }
        applyLinearGains(inputs, outputs, count, offset: offset, length)
    }

    /// Where the compression targets (then the gains in dB) and the linear gains start in a channel's
    /// scratch row (see ``endSubBlocks(_:_:most:)``).
    static var targetSlot: Int { @_noLocks get { 16 } }
    static var gainSlot: Int { @_noLocks get { 32 } }

    /// The ends of `boundaries` (1…8) consecutive sub-blocks. On entry, slots `0..<boundaries` of each
    /// channel's scratch row hold the weighted squares of those sub-blocks; they become the levels (dB,
    /// linked). On return, slots ``gainSlot`` + `0…boundaries` hold the linear gains the sub-blocks run
    /// between (slot 0 → 1 for the first): the gains at the start and end of the first one, then at the end of each next one. Per
    /// sub-block (each step once per sub-block, plain scalar code): mean square and level, stereo link,
    /// makeup, then the envelopes and the gain at the end of the next sub-block.
    @inline(__always) @_noLocks
    mutating func endSubBlocks(_ count: Int, _ boundaries: Int, most: inout Reductions) {
        let loudest = levels + channels * Self.chunkFrames, makeups = loudest + Self.chunkFrames
        for block in 0..<boundaries { loudest[block] = -Float.infinity }
        for channel in 0..<count {
            let state = channelStates + channel, row = levels + channel * Self.chunkFrames
            var meanSquare = state.pointee.meanSquareAtStart
            for block in 0..<boundaries {   // the one chain here: a multiply–add per sub-block
                let power = meanSquare * rmsDecay + row[block]
                meanSquare = power > Self.powerFloor ? power : Self.powerFloor   // NaN reads as the floor
                row[block] = meanSquare
            }
            state.pointee.meanSquareAtStart = meanSquare
            for block in 0..<boundaries {
                row[block] = Self.log2Approx(row[block]) * Self.tenLog10Of2
                loudest[block] = max(loudest[block], row[block])
            }
        }
        for block in 0..<boundaries {
            makeupDB += (makeupTargetDB - makeupDB) * (1 - makeupPerSubBlock)
            if abs(makeupTargetDB - makeupDB) < 1e-5 { makeupDB = makeupTargetDB }
            makeups[block] = makeupDB
        }
        for channel in 0..<count {
            let state = channelStates + channel, row = levels + channel * Self.chunkFrames
            let (targets, gains) = (row + Self.targetSlot, row + Self.gainSlot)
            for block in 0..<boundaries {   // the targets first: independent of each other
                row[block] += link * (loudest[block] - row[block])
                targets[block] = curve.compression(atLevel: row[block])
            }
            var compressed = state.pointee.compression
            for block in 0..<boundaries {   // the one-poles: the second chain
                compressed = Self.follow(compressed, toward: targets[block], rising: attackPerSubBlock, falling: releasePerSubBlock)
                compressed = compressed < 1e-9 ? 0 : compressed
                holdSubBlock(level: row[block], state: state)
                let expanded = isCompressionOnly(channel) ? 0 : expandSubBlock(state)
                most.compression = max(most.compression, compressed)
                most.expansion = max(most.expansion, expanded)
                targets[block] = makeups[block] - compressed - expanded
            }
            state.pointee.compression = compressed
            gains[0] = state.pointee.gainStart
            gains[1] = state.pointee.gainEnd
            for block in 0..<boundaries { gains[block + 2] = Self.exp2Approx(targets[block] * Self.log2OfTenOver20) }
            state.pointee.gainStart = gains[boundaries]
            state.pointee.gainEnd = gains[boundaries + 1]
        }
    }

    /// The expander's envelope over one sub-block (its target read through the peak hold); returns it (dB ≥ 0).
    @inline(__always) @_noLocks
    func expandSubBlock(_ state: UnsafeMutablePointer<ChannelState>) -> Float {
        let target = curve.expansion(atLevel: state.pointee.heldLevel)
        let current = state.pointee.expansion
        var expanded = target + (current - target) * (target < current ? attackPerSubBlock : releasePerSubBlock)
        if expanded < 1e-9 { expanded = 0 }
        state.pointee.expansion = expanded
        return expanded
    }

    /// The expander's peak hold over one sub-block whose level is `level` (it counts frames, as per frame).
    @inline(__always) @_noLocks
    func holdSubBlock(level: Float, state: UnsafeMutablePointer<ChannelState>) {
        state.pointee.windowMaximum = max(state.pointee.windowMaximum, level)
        state.pointee.heldLevel = max(state.pointee.heldLevel, level)
        state.pointee.holdRemaining -= Self.subBlockFrames
        if state.pointee.holdRemaining <= 0 {
            state.pointee.heldLevel = state.pointee.windowMaximum
            state.pointee.windowMaximum = -Float.infinity
            state.pointee.holdRemaining = max(state.pointee.holdRemaining + holdFrames, 1)
        }
    }

    /// Takes over from the per-frame path (after a reset or a switch from peak detection) part-way into a
    /// sub-block: the mean square is moved back to the sub-block's start, and the gain holds where it is
    /// until the sub-block ends.
    @_noLocks
    mutating func enterSubBlocks(_ count: Int) {
        let decay = Self.power(rmsCoefficient, subBlockPhase)
        for channel in 0..<count {
            let state = channelStates + channel
            state.pointee.meanSquareAtStart = state.pointee.meanSquare / decay
            state.pointee.pendingPower = 0
            let gain = Self.exp2Approx((makeupDB - state.pointee.compression - state.pointee.expansion) * Self.log2OfTenOver20)
            state.pointee.gainStart = gain
            state.pointee.gainEnd = gain
        }
        isSubBlockStateCurrent = true
    }

    /// Hands over to the per-frame path part-way into a sub-block: the mean square of the current frame.
    @_noLocks
    mutating func leaveSubBlocks() {
        let (done, left) = (Self.power(rmsCoefficient, subBlockPhase), Self.power(rmsCoefficient, Self.subBlockFrames - subBlockPhase))
        for channel in 0..<channels {
            let state = channelStates + channel
            let power = state.pointee.meanSquareAtStart * done + state.pointee.pendingPower / left
            state.pointee.meanSquare = power > Self.powerFloor ? power : Self.powerFloor
        }
        isSubBlockStateCurrent = false
    }

    /// `base` to the power `exponent` (≥ 0) by repeated multiplication.
    @inline(__always) @_noLocks
    static func power(_ base: Float, _ exponent: Int) -> Float {
        var result: Float = 1
        for _ in 0..<exponent { result *= base }
        return result
    }

    /// The weights of a sub-block's squares in the mean square at its end: `(1 − c)·c^(N−1−j)` for frame j.
    static func rmsWeights(coefficient: Float) -> SIMD16<Float> {
        var weights = SIMD16<Float>()
        for frame in 0..<subBlockFrames { weights[frame] = (1 - coefficient) * power(coefficient, subBlockFrames - 1 - frame) }
        return weights
    }
}
