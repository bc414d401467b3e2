// Momentary and short-term loudness assembled from libebur128's 100 ms window energies. Non-realtime (a worker thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The energies of the last 30 back-to-back 100 ms windows, and the momentary (400 ms) and short-term (3 s)
/// energies they add up to, as of the end of the newest.
///
/// Why: libebur128 computes a window's energy by summing its whole window of weighted samples on every call, so
/// reading the 3 s short-term 20 times a second sums 60 s of samples a second, more than the K-weighting itself
/// costs. One 100 ms window every 100 ms sums each sample once, and back-to-back windows tile the 400 ms and 3 s
/// windows exactly: their mean is the mean libebur128 computes over the long window (the same products, summed
/// in another order). 10 readings a second is EBU Tech 3341's rate for momentary and short-term.
struct LoudnessWindowHistory {
    /// Windows kept: the 3 s short-term window's.
    static let count = 30
    /// Frames in a 100 ms window as libebur128's `ebur128_loudness_window` counts them.
    let windowFrames: Int
    private var energies = [Double](repeating: 0, count: LoudnessWindowHistory.count)
    private var newest = LoudnessWindowHistory.count - 1
    /// Frames to feed before the current window ends.
    private(set) var framesToNextWindow: Int
    /// Mean energy over the last 400 ms and 3 s at the last window's end (0 before any sound).
    private(set) var momentaryEnergy = 0.0
    private(set) var shortTermEnergy = 0.0

    init(sampleRate: Int) {
        windowFrames = max(sampleRate * 100 / 1000, 1)
        framesToNextWindow = windowFrames
    }

    /// Counts `frames` frames fed; true when a window has just ended (the caller then calls ``close(loudness:)``).
    mutating func advance(by frames: Int) -> Bool {
        framesToNextWindow -= frames
        return framesToNextWindow == 0
    }

    /// Records the window that just ended, with libebur128's loudness of it (LUFS, −∞ or −HUGE_VAL for none).
    mutating func close(loudness: Double) {
        newest = (newest + 1) % Self.count
        // libebur128's loudness is 10·log10(energy) − 0.691: back to the energy, exactly enough (1e-15 relative).
        energies[newest] = loudness.isFinite ? pow(10, (loudness + 0.691) / 10) : 0
        framesToNextWindow = windowFrames
        momentaryEnergy = mean(of: 4)
        shortTermEnergy = mean(of: Self.count)
    }

    /// The mean energy of the newest `windows` windows.
    private func mean(of windows: Int) -> Double {
        var sum = 0.0
        for step in 0..<windows { sum += energies[(newest - step + Self.count) % Self.count] }
        return sum / Double(windows)
    }

    /// An energy as libebur128 turns it into LUFS (−∞ for none).
    static func loudness(energy: Double) -> Double { energy > 0 ? 10 * log10(energy) - 0.691 : -.infinity }
}
