// The realtime record and C entry points of an LV2 unit: runs each instance, forwards parameter changes to control ports. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
internal import CLilv
internal import FoldbackEngine

/// The state the audio thread reads for one ``LV2Unit``: its instances and shared buffers.
struct LV2UnitRender {
    var instances: UnsafeMutablePointer<LV2InstanceRender>
    var instanceCount: Int
    /// `maxFrames` zeros, read by unconnected inputs.
    var silence: UnsafeMutablePointer<Float>
    /// `maxFrames` floats written by discarded outputs.
    var scratch: UnsafeMutablePointer<Float>
    /// Parameter index → control input port index.
    var parameterPorts: UnsafeMutablePointer<UInt32>
    var parameterCount: Int
    /// Channels the unit's slot writes (silenced while a restart is pending).
    var outputChannelCount: Int
    /// Live: the NaN guard's restart request, ``RestartState`` raw values (see LV2UnitRestart.swift).
    var restartState: UnsafeAtomic<Int>
    /// Offline: a reset restarts the plugins at once, on the rendering thread.
    var isSynchronous: Bool
    /// The fade-in after a restart: its length and the frames of it already played (no fade when equal).
    var fadeFrames: Int
    var fadePosition: Int

    /// The render functions every LV2 unit shares.
    static let functions = UnitRenderFunctions(
        process: { state, inputs, outputs, frames in
            let unit = state.assumingMemoryBound(to: LV2UnitRender.self)
            if unit.pointee.isRestartPending {
                unit.pointee.writeSilence(to: outputs, frames: Int(frames))
                return
            }
            for index in 0..<unit.pointee.instanceCount {
                unit.pointee.instances[index].process(
                    inputs: inputs, outputs: outputs, silence: unit.pointee.silence, scratch: unit.pointee.scratch, frames: frames)
            }
            if unit.pointee.fadePosition < unit.pointee.fadeFrames { unit.pointee.fadeIn(outputs, frames: Int(frames)) }
        },
        setParameter: { state, index, value in
            let unit = state.assumingMemoryBound(to: LV2UnitRender.self)
            guard index >= 0, Int(index) < unit.pointee.parameterCount else { return }
            let port = Int(unit.pointee.parameterPorts[Int(index)])
            for instance in 0..<unit.pointee.instanceCount { unit.pointee.instances[instance].controls[port] = value }
        },
        // A plugin's state can only be cleared by deactivating it, which is not realtime-safe: the audio
        // thread only asks for it, the worker thread restarts the plugins (LV2UnitRestart.swift).
        reset: { state in
            state.assumingMemoryBound(to: LV2UnitRender.self).pointee.requestRestart()
        }
    )
}
