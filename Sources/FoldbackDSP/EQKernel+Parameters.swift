// Live parameter changes of the EQ kernel: retargeting, the chunked glide, enable crossfades, reset. Realtime-safe (libm only, no allocation).
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension EQKernel {
    /// The output gain target, in dB.
    public var outputGainDB: Double { Double(Decibels.decibels(fromLinearGain: outputGain.target)) }

    /// Band `index` as it is heading: the targets of its glide and its enable switch.
    public func band(_ index: Int) -> EQBand {
        var band = bands[index].currentBand
        band.type = bands[index].headingType
        band.frequency = exp2(bands[index].target.x)
        band.gainDB = bands[index].target.y
        band.q = exp2(bands[index].target.z)
        return band
    }

    /// Band `index` at its current, possibly mid-glide, parameters (what it is filtering with now).
    public func currentBand(_ index: Int) -> EQBand { bands[index].currentBand }

    /// Whether any band is still gliding or crossfading.
    public var isSettled: Bool {
        glidingBands == 0 && (0..<bandCount).allSatisfy { bands[$0].fadeFrames == 0 }
    }

    /// Ramps the output gain to `decibels` over the smoothing time.
    public mutating func setOutputGain(decibels: Double) {
        guard !decibels.isNaN else { return }
        outputGain.setTarget(Decibels.linearGain(fromDecibels: Float(min(decibels, EQBand.gainRange.upperBound))))
    }

    /// Glides band `index`'s frequency to `hertz` (clamped to 10 Hz … 0.49 × the rate). NaN and unknown bands are ignored.
    public mutating func setFrequency(_ hertz: Double, band index: Int) {
        let top = EQBand.maximumFrequency(sampleRate: sampleRate)
        retarget(index, component: 0, to: log2(min(max(hertz, EQBand.frequencyRange.lowerBound), top)), isValid: !hertz.isNaN)
    }

    /// Glides band `index`'s gain to `decibels` (clamped to ±24 dB; peaks and shelves only).
    public mutating func setGain(_ decibels: Double, band index: Int) {
        let gain = min(max(decibels, EQBand.gainRange.lowerBound), EQBand.gainRange.upperBound)
        retarget(index, component: 1, to: gain, isValid: !decibels.isNaN)
    }

    /// Glides band `index`'s Q to `q` (clamped to 0.1 … 50; 24 dB/octave filters ignore it).
    public mutating func setQ(_ q: Double, band index: Int) {
        let clamped = min(max(q, EQBand.qRange.lowerBound), EQBand.qRange.upperBound)
        retarget(index, component: 2, to: log2(clamped), isValid: !q.isNaN)
    }

    /// Crossfades band `index` in or out over the smoothing time.
    public mutating func setEnabled(_ isEnabled: Bool, band index: Int) {
        guard index >= 0 && index < bandCount && bands[index].isEnabled != isEnabled else { return }
        invalidatePlan()
        bands[index].isEnabled = isEnabled
        startFade(index)
    }

    /// Changes band `index`'s shape to `type` without a click: the band fades out over the smoothing time,
    /// takes the new type (sections redesigned, state cleared) and fades back in if enabled. A band that is
    /// off switches at once. Unknown bands and the type it already has (or is heading to) are ignored.
    public mutating func setType(_ type: EQBandType, band index: Int) {
        guard index >= 0 && index < bandCount && bands[index].headingType != type else { return }
        invalidatePlan()
        if type == bands[index].type {   // back to the shape it still filters with: fade in again
            bands[index].isTypePending = false
            return startFade(index)
        }
        bands[index].pendingType = type
        bands[index].isTypePending = true
        if bands[index].mix == 0 { return switchType(index) }
        startFade(index)
    }

    /// Band `index` (faded out) takes its waiting type and fades in when enabled.
    func switchType(_ index: Int) {
        bands[index].takePendingType()
        bands[index].design(sampleRate: sampleRate)
        bands[index].clearState()
        bands[index].mix = 0
        bands[index].fadeFrames = 0
        if bands[index].fadeTarget > 0 { startFade(index) }
    }

    /// Starts band `index`'s crossfade from where it is to its ``EQBandRuntime/fadeTarget`` over the smoothing time.
    private func startFade(_ index: Int) {
        bands[index].fadeFrames = fadeFrames
        bands[index].fadeStep = (bands[index].fadeTarget - bands[index].mix) / Double(fadeFrames)
    }

    /// Clears every filter state and jumps every glide, crossfade and the output gain to its target.
    public mutating func reset() {
        invalidatePlan()
        for index in 0..<bandCount {
            bands[index].takePendingType()
            bands[index].clearState()
            bands[index].current = bands[index].target
            bands[index].glideSteps = 0
            bands[index].fadeFrames = 0
            bands[index].mix = bands[index].isEnabled ? 1 : 0
            bands[index].design(sampleRate: sampleRate)
        }
        glidingBands = 0
        chunkPhase = 0
        outputGain.reset(to: outputGain.target)
    }

    /// Sets one glide target (component 0 log₂ frequency, 1 gain, 2 log₂ Q) and starts a glide from where
    /// the band is now. A band that is fully off jumps instead: nothing is heard from it.
    private mutating func retarget(_ index: Int, component: Int, to value: Double, isValid: Bool) {
        guard isValid && index >= 0 && index < bandCount && bands[index].target[component] != value else { return }
        bands[index].target[component] = value
        if bands[index].mix == 0 && bands[index].fadeFrames == 0 {
            invalidatePlan()
            if bands[index].glideSteps > 0 { glidingBands -= 1 }
            bands[index].glideSteps = 0
            bands[index].current = bands[index].target
            bands[index].design(sampleRate: sampleRate)
            return
        }
        if bands[index].glideSteps == 0 { glidingBands += 1 }
        bands[index].glideSteps = glideSteps
        bands[index].step = (bands[index].target - bands[index].current) / Double(glideSteps)
    }

    /// Advances every gliding band one step and redesigns its sections (at a chunk boundary).
    mutating func stepGlides() {
        invalidatePlan()
        for index in 0..<bandCount where bands[index].glideSteps > 0 {
            bands[index].glideSteps -= 1
            let left = bands[index].glideSteps
            bands[index].current = left == 0 ? bands[index].target : bands[index].target - bands[index].step * Double(left)
            bands[index].design(sampleRate: sampleRate)
            if left == 0 { glidingBands -= 1 }
        }
    }
}
