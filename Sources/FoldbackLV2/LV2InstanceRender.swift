// One plugin instance's realtime cycle: connect audio, reset atom buffers, run, publish control outputs, deliver worker responses. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
internal import CLilv
import Atomics

/// Everything the audio thread needs to run one plugin instance, in preallocated memory.
/// Audio port `k` of the instance reads engine input `inputChannels[k]` (or silence when −1) and writes
/// engine output `outputChannels[k]` (or a scratch buffer when −1).
struct LV2InstanceRender {
    var handle: LV2_Handle?
    var connect: @convention(c) (LV2_Handle?, UInt32, UnsafeMutableRawPointer?) -> Void
    var run: @convention(c) (LV2_Handle?, UInt32) -> Void
    var endRun: (@convention(c) (LV2_Handle?) -> LV2_Worker_Status)?
    /// The descriptor's `activate` and `deactivate` (never called on the audio thread; see ``restart()``).
    var activate: (@convention(c) (LV2_Handle?) -> Void)?
    var deactivate: (@convention(c) (LV2_Handle?) -> Void)?
    var inputPorts: UnsafeMutablePointer<UInt32>
    var inputChannels: UnsafeMutablePointer<Int32>
    var inputCount: Int
    var outputPorts: UnsafeMutablePointer<UInt32>
    var outputChannels: UnsafeMutablePointer<Int32>
    var outputCount: Int
    /// Atom buffers (`LV2_Atom_Sequence` headers) and their capacities in bytes.
    var atomInputs: UnsafeMutablePointer<UnsafeMutableRawPointer>
    var atomInputCount: Int
    var atomOutputs: UnsafeMutablePointer<UnsafeMutableRawPointer>
    var atomOutputCapacities: UnsafeMutablePointer<UInt32>
    var atomOutputCount: Int
    var sequenceType: UInt32
    var chunkType: UInt32
    /// One value per port index (control ports read and write here).
    var controls: UnsafeMutablePointer<Float>
    /// Control outputs published for meters: port index and atomic Float bits.
    var publishedPorts: UnsafeMutablePointer<UInt32>
    var published: UnsafeMutablePointer<UnsafeAtomic<UInt32>>
    var publishedCount: Int
    var worker: UnsafeMutablePointer<LV2WorkerState>

    /// Runs the instance for `frames` frames from `inputs` into `outputs`.
    @inline(__always)
    mutating func process(
        inputs: UnsafePointer<UnsafePointer<Float>>, outputs: UnsafePointer<UnsafeMutablePointer<Float>>,
        silence: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>, frames: Int32
    ) {
        for port in 0..<inputCount {
            let channel = Int(inputChannels[port])
            let buffer = channel >= 0 ? UnsafeMutableRawPointer(mutating: inputs[channel]) : UnsafeMutableRawPointer(silence)
            connect(handle, inputPorts[port], buffer)
        }
        for port in 0..<outputCount {
            let channel = Int(outputChannels[port])
            connect(handle, outputPorts[port], UnsafeMutableRawPointer(channel >= 0 ? outputs[channel] : scratch))
        }
        for index in 0..<atomInputCount {
            let sequence = atomInputs[index].assumingMemoryBound(to: LV2_Atom_Sequence.self)
            sequence.pointee.atom.size = UInt32(MemoryLayout<LV2_Atom_Sequence_Body>.size)
            sequence.pointee.atom.type = sequenceType
            sequence.pointee.body.unit = 0
            sequence.pointee.body.pad = 0
        }
        for index in 0..<atomOutputCount {
            let atom = atomOutputs[index].assumingMemoryBound(to: LV2_Atom.self)
            atom.pointee.size = atomOutputCapacities[index] - UInt32(MemoryLayout<LV2_Atom>.size)
            atom.pointee.type = chunkType
        }
        run(handle, UInt32(frames))
        for index in 0..<publishedCount {
            published[index].store(controls[Int(publishedPorts[index])].bitPattern, ordering: .relaxed)
        }
        worker.pointee.deliverResponses()
        if let endRun { _ = endRun(handle) }
    }

    /// Deactivates and reactivates the plugin, clearing its internal state (delay lines, filters). Not
    /// realtime-safe: off the audio thread, or on it only while offline, and never while `run` can be called.
    func restart() {
        deactivate?(handle)
        activate?(handle)
    }
}
