// Momentary and short-term loudness assembled from libebur128's 100 ms window energies, read every 50 ms. Non-realtime (a worker thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The energies of the last 3 s of 100 ms windows, one window ending every 50 ms, and the momentary (400 ms) and
/// short-term (3 s) energies they add up to.
///
/// Why: libebur128 computes a window's energy by summing its whole window of weighted samples on every call, so
/// reading the 3 s short-term 20 times a second sums 60 s of samples a second, twice the cost of the K-weighting
/// itself. A 100 ms window ending every 50 ms costs 1/15 of that, and the windows ending 100 ms apart tile the
/// 400 ms and 3 s windows exactly: their mean is the mean libebur128 would compute over the long window (the same
/// products, summed in another order).
struct LoudnessWindowHistory {
    /// Windows kept: the 3 s short-term window's 30, for each of the two 50 ms phases.
    static let count = 60
    /// Frames in a 100 ms window as libebur128's `ebur128_loudness_window` counts them.
    let windowFrames: Int
    private var energies = [Double](repeating: 0, count: LoudnessWindowHistory.count)
    private var newest = LoudnessWindowHistory.count - 1
    /// Frames to feed before the next window ends; the steps alternate between half a window and the rest.
    private(set) var framesToNextWindow: Int
    private var isHalfStep = true
    /// Mean energy over the last 400 ms and 3 s at the last window's end (0 before any sound).
    private(set) var momentaryEnergy = 0.0
    private(set) var shortTermEnergy = 0.0

    init(sampleRate: Int) {
        windowFrames = max(sampleRate * 100 / 1000, 2)
        framesToNextWindow = windowFrames / 2
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
        framesToNextWindow = isHalfStep ? windowFrames - windowFrames / 2 : windowFrames / 2
        isHalfStep.toggle()
        momentaryEnergy = mean(of: 4)
        shortTermEnergy = mean(of: 30)
    }

    /// The mean energy of the newest `windows` windows of the newest one's phase (100 ms apart).
    private func mean(of windows: Int) -> Double {
        var sum = 0.0
        for step in 0..<windows { sum += energies[(newest - 2 * step + 2 * Self.count) % Self.count] }
        return sum / Double(windows)
    }

    /// An energy as libebur128 turns it into LUFS (−∞ for none).
    static func loudness(energy: Double) -> Double { energy > 0 ? 10 * log10(energy) - 0.691 : -.infinity }
}
