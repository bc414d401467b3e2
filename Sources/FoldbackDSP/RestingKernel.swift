// The silence-gating side of a DSP kernel: whether it is at rest on digital silence, and its clocks' advance. Realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// A kernel that can tell when it is at rest: processing frames of exact +0.0 would write +0.0 and change nothing of
/// its state but its clocks (phases, counters), which ``advanceAtRest(frames:)`` moves as processing would. A unit
/// built on it offers silence gating (FoldbackEngine's `UnitRest`) through ``restsAtRest(frames:)``.
public protocol RestingKernel: ~Copyable {
    /// Whether the kernel is at rest. `mutating` so that callers pass the kernel by address (a plain method on a
    /// large kernel was copied whole for each call).
    mutating func isAtRest() -> Bool
    /// Moves the clocks by `frames` frames of zeros, as processing them at rest does.
    mutating func advanceAtRest(frames: Int)
}

extension RestingKernel where Self: ~Copyable {
    /// Whether the kernel is at rest for `frames` frames of zeros; when it is, its clocks have moved by them.
    @inline(__always)
    public mutating func restsAtRest(frames: Int32) -> Bool {
        guard isAtRest() else { return false }
        advanceAtRest(frames: Int(frames))
        return true
    }
}

extension EQKernel: RestingKernel {}
extension GraphicEQKernel: RestingKernel {}
extension CompressorKernel: RestingKernel {}
extension ReverbKernel: RestingKernel {}
extension EchoKernel: RestingKernel {}
