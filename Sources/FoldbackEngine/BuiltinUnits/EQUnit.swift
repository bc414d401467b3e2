// The built-in `eq` unit (parametric EQ, up to 32 bands, output gain) on the unit interface. Setup non-realtime; render functions realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackDSP

/// A parametric EQ: any number of bands up to ``EQKernel/maximumBands``, mono or stereo, no latency.
///
/// Parameters, indexed as ``UnitRenderFunctions/setParameter`` takes them:
/// - 0 `gain_db`: output gain, −24 … +24 dB.
/// - for band *n* (1-based, in the order the bands were given), four parameters from index 4(*n* − 1) + 1:
///   `band<n>_freq_hz` (10 … 23520 Hz, clamped to 0.49 × the sample rate), `band<n>_gain_db` (±24 dB;
///   peaks and shelves only, but always present since the type can change), `band<n>_q` (0.1 … 50; ignored by 24 dB/octave filters) and
///   `band<n>_enabled` (0 off, 1 on).
///
/// - after every band's four, one `band<n>_type` per band (index 4 × bands + *n*): the band's shape, a choice
///   of ``EQBandType`` (`peak`, `low_shelf`, … as in presets, valued by ``EQBandType/choiceValue``).
///
/// So band 1 is 1…4, band 2 is 5…8, band *n*'s frequency is 4*n* − 3. Frequency, gain and Q glide over
/// ``LinearSmoother/defaultTime`` with the sections redesigned every ``EQKernel/chunkFrames`` frames;
/// enabling or disabling a band crossfades over the same time, and a type change fades the band out,
/// switches and fades it in (``EQKernel/setType(_:band:)``). Slopes are fixed when the unit is built.
public final class EQUnit: EngineUnit, @unchecked Sendable {
    public let typeName = "eq"
    public let parameters: [ParameterDescriptor]
    /// The bands the unit starts with.
    public let bands: [EQBand]
    private let initialGainDB: Double
    private let storage = UnitStateStorage<State>()

    private struct State: ~Copyable {
        var kernel: EQKernel
    }

    /// Parameters per band.
    public static let parametersPerBand = 4

    /// An EQ of `bands` (at most ``EQKernel/maximumBands``; more are reported by ``prepare(channels:sampleRate:maxFrames:)``)
    /// with an output gain of `gainDB` dB.
    public init(bands: [EQBand], gainDB: Double = 0) {
        self.bands = bands
        initialGainDB = gainDB
        parameters = Self.parameters(bands: bands, gainDB: gainDB)
    }

    /// The parameters of an EQ of `bands` with output gain `gainDB`: the gain, then each band's frequency, gain, Q and on/off,
    /// then each band's type (appended, so the first indexes stay as they were before types were live).
    public static func parameters(bands: [EQBand], gainDB: Double) -> [ParameterDescriptor] {
        var descriptors = [ParameterDescriptor(key: "gain_db", range: -24...24, defaultValue: Float(gainDB), summary: "Output gain in dB.")]
        for (index, band) in bands.enumerated() {
            let prefix = "band\(index + 1)_"
            descriptors += [
                ParameterDescriptor(key: prefix + "freq_hz", range: Self.floatRange(EQBand.frequencyRange), defaultValue: Float(band.frequency)),
                ParameterDescriptor(key: prefix + "gain_db", range: Self.floatRange(EQBand.gainRange), defaultValue: Float(band.gainDB),
                                    summary: "Peaks and shelves only; kept for a change of the band's type."),
                ParameterDescriptor(key: prefix + "q", range: Self.floatRange(EQBand.qRange), defaultValue: Float(band.q)),
                .toggle(key: prefix + "enabled", defaultValue: band.isEnabled ? 1 : 0),
            ]
        }
        let types = EQBandType.allCases.map { ParameterChoice(name: $0.rawValue, value: $0.choiceValue) }
        for (index, band) in bands.enumerated() {
            descriptors.append(ParameterDescriptor(
                key: "band\(index + 1)_type", range: 0...Float(types.count - 1), defaultValue: band.type.choiceValue, choices: types,
                isSmoothed: true, summary: "Band \(index + 1)'s shape; a change fades the band out and in again."))
        }
        return descriptors
    }

    /// The band whose `type` parameter is at `index` in an EQ of `bandCount` bands, nil when `index` is another parameter.
    public static func typeBand(parameter index: Int, bandCount: Int) -> Int? {
        let band = index - 1 - parametersPerBand * bandCount
        return band >= 0 && band < bandCount ? band : nil
    }

    private static func floatRange(_ range: ClosedRange<Double>) -> ClosedRange<Float> {
        Float(range.lowerBound)...Float(range.upperBound)
    }

    public func prepare(channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitRenderSlot {
        guard channels == 1 || channels == 2 else { throw .unsupportedChannelCount(name: typeName, channels: channels) }
        guard bands.count <= EQKernel.maximumBands else {
            throw .unitSetupFailed(unit: typeName, reason: "\(bands.count) bands; an eq holds at most \(EQKernel.maximumBands)")
        }
        let top = EQBand.maximumFrequency(sampleRate: sampleRate)
        if let (index, band) = bands.enumerated().first(where: { $0.element.frequency > top }) {
            throw .unitSetupFailed(unit: typeName, reason: "band \(index + 1) is at \(Self.hertz(band.frequency)) Hz, above 0.49 × the "
                                   + "sample rate (\(Self.hertz(top)) Hz at \(Self.hertz(sampleRate)) Hz); lower its freq_hz")
        }
        let state = try storage.prepare(unit: typeName) {
            State(kernel: EQKernel(bands: bands, outputGainDB: initialGainDB, channels: channels, sampleRate: sampleRate))
        }
        return UnitRenderSlot(functions: Self.functions, state: state, inputChannels: channels, outputChannels: channels)
    }

    private static func hertz(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    private static let functions = UnitRenderFunctions(
        process: { state, inputs, outputs, frames in
            state.assumingMemoryBound(to: State.self).pointee.kernel.process(inputs: inputs, outputs: outputs, frames: Int(frames))
        },
        setParameter: { state, index, value in
            let unit = state.assumingMemoryBound(to: State.self)
            guard index > 0 else {
                if index == 0 { unit.pointee.kernel.setOutputGain(decibels: Double(value)) }
                return
            }
            if let band = typeBand(parameter: Int(index), bandCount: unit.pointee.kernel.bandCount) {
                if let type = EQBandType(choiceValue: value) { unit.pointee.kernel.setType(type, band: band) }
                return
            }
            let band = Int(index - 1) / parametersPerBand
            switch Int(index - 1) % parametersPerBand {
            case 0: unit.pointee.kernel.setFrequency(Double(value), band: band)
            case 1: unit.pointee.kernel.setGain(Double(value), band: band)
            case 2: unit.pointee.kernel.setQ(Double(value), band: band)
            default: unit.pointee.kernel.setEnabled(value >= 0.5, band: band)
            }
        },
        reset: { state in
            state.assumingMemoryBound(to: State.self).pointee.kernel.reset()
        },
        rest: UnitRest(
            { state, frames in state.assumingMemoryBound(to: State.self).pointee.kernel.restsAtRest(frames: frames) },
            advance: { state, frames in state.assumingMemoryBound(to: State.self).pointee.kernel.advanceAtRest(frames: Int(frames)) })
    )
}
