// The built-in `geq` unit (31-band ⅓-octave graphic EQ) on the unit interface. Setup non-realtime; render functions realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

/// A 31-band ISO ⅓-octave graphic EQ (``GraphicEQKernel``), mono or stereo, no latency.
///
/// Parameters, indexed as ``UnitRenderFunctions/setParameter`` takes them: 0 `gain_db` (output gain,
/// −24 … +24 dB), then 1 … 31 the faders in ``GraphicEQDesign/keys`` order (`g20` … `g20k`, ±15 dB).
public final class GraphicEQUnit: EngineUnit, @unchecked Sendable {
    public let typeName = "geq"
    public let parameters: [ParameterDescriptor]
    /// The fader settings the unit starts with, in dB (31 values).
    public let faders: [Double]
    private let initialGainDB: Double
    private let storage = UnitStateStorage<State>()

    private struct State: ~Copyable {
        var kernel: GraphicEQKernel
    }

    /// A graphic EQ with `faders` (dB, in band order; missing ones are 0) and an output gain of `gainDB` dB.
    public init(faders: [Double], gainDB: Double = 0) {
        self.faders = (0..<GraphicEQDesign.bandCount).map { $0 < faders.count ? faders[$0] : 0 }
        initialGainDB = gainDB
        parameters = Self.parameters(faders: self.faders, gainDB: gainDB)
    }

    /// A graphic EQ from values keyed by preset key (`gain_db`, `g20` … `g20k`); absent keys are 0 dB.
    /// The parameters of a graphic EQ with `faders` (dB, one per ``GraphicEQDesign/keys``) and output gain `gainDB`.
    public static func parameters(faders: [Double], gainDB: Double = 0) -> [ParameterDescriptor] {
        let range = Float(GraphicEQDesign.faderRange.lowerBound)...Float(GraphicEQDesign.faderRange.upperBound)
        return [ParameterDescriptor(key: "gain_db", range: -24...24, defaultValue: Float(gainDB), summary: "Output gain in dB.")]
            + zip(zip(GraphicEQDesign.keys, GraphicEQDesign.nominalNames), faders).map { names, value in
                ParameterDescriptor(key: names.0, range: range, defaultValue: Float(value), curve: .linear, summary: "The \(names.1) Hz band, in dB.")
            }
    }

    public convenience init(values: [String: Float]) {
        self.init(faders: GraphicEQDesign.keys.map { Double(values[$0] ?? 0) }, gainDB: Double(values["gain_db"] ?? 0))
    }

    public func prepare(channels: Int, sampleRate: Double, maxFrames: Int) throws(EngineError) -> UnitRenderSlot {
        guard channels == 1 || channels == 2 else { throw .unsupportedChannelCount(name: typeName, channels: channels) }
        guard sampleRate.isFinite, (8000...768_000).contains(sampleRate) else {
            throw .unitSetupFailed(unit: typeName, reason: "runs at 8 kHz to 768 kHz, not \(sampleRate) Hz")
        }
        let state = try storage.prepare(unit: typeName) {
            State(kernel: GraphicEQKernel(faders: faders, outputGainDB: initialGainDB, channels: channels, sampleRate: sampleRate))
        }
        return UnitRenderSlot(functions: Self.functions, state: state, inputChannels: channels, outputChannels: channels)
    }

    private static let functions = UnitRenderFunctions(
        process: { state, inputs, outputs, frames in
            state.assumingMemoryBound(to: State.self).pointee.kernel.process(inputs: inputs, outputs: outputs, frames: Int(frames))
        },
        setParameter: { state, index, value in
            let unit = state.assumingMemoryBound(to: State.self)
            if index == 0 {
                unit.pointee.kernel.setOutputGain(decibels: Double(value))
            } else {
                unit.pointee.kernel.setFader(Double(value), band: Int(index) - 1)
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
