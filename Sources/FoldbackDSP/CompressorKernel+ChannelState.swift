// One channel's detector and envelope state inside the compressor kernel. Plain data, touched on the realtime thread.
// SPDX-License-Identifier: GPL-3.0-or-later

extension CompressorKernel {
    /// One channel's detector and envelope state.
    struct ChannelState {
        /// Smoothed compression and expansion in dB (≥ 0).
        var compression: Float = 0
        var expansion: Float = 0
        /// The detector's mean square (RMS mode), floored at ``CompressorKernel/powerFloor``.
        var meanSquare: Float = CompressorKernel.powerFloor
        /// The expander's held level, the maximum of the current hold window, and frames left in it.
        var heldLevel: Float = -Float.infinity
        var windowMaximum: Float = -Float.infinity
        var holdRemaining = 1
        /// RMS path: the mean square at the start of the current sub-block, the weighted squares of its
        /// frames so far, and the linear gains at its start and end.
        var meanSquareAtStart: Float = CompressorKernel.powerFloor
        var pendingPower: Float = 0
        var gainStart: Float = 1
        var gainEnd: Float = 1
    }
}
