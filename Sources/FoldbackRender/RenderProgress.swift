// The progress bar a render draws on a terminal, shared by parallel jobs. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Synchronization

/// Frames rendered by every job against the expected total, drawn at most ten times a second
/// (by default on standard error when it is a terminal, nothing otherwise).
public final class RenderProgress: Sendable {
    private let draw: (@Sendable (String) -> Void)?
    private let totalFrames: Int
    private let sampleRate: Double
    private let state: Mutex<(done: [Int], lastDraw: Double)>
    private let clock = RenderClock()

    /// A bar for `jobs` jobs rendering `totalFrames` frames in all at `sampleRate` Hz, drawn by `draw`
    /// (nil: on standard error when it is a terminal).
    public init(jobs: Int, totalFrames: Int, sampleRate: Double, draw: (@Sendable (String) -> Void)? = nil) {
        let terminal: (@Sendable (String) -> Void)? = isatty(STDERR_FILENO) != 0 ? Self.writeStandardError : nil
        self.draw = draw ?? terminal
        self.totalFrames = max(1, totalFrames)
        self.sampleRate = sampleRate
        state = Mutex((done: [Int](repeating: 0, count: jobs), lastDraw: -1))
    }

    /// Job `job` has rendered `frames` frames so far.
    public func update(job: Int, frames: Int) {
        guard let draw else { return }
        let now = clock.wallSeconds
        let line: String? = state.withLock { state in
            state.done[job] = frames
            guard now - state.lastDraw >= 0.1 else { return nil }
            state.lastDraw = now
            return Self.line(frames: state.done.reduce(0, +), totalFrames: totalFrames, sampleRate: sampleRate, wallSeconds: now)
        }
        if let line { draw(line) }
    }

    /// The bar for `frames` of `totalFrames` rendered in `wallSeconds`: `\r[###---] 50%  1.0 s  20× realtime `.
    public static func line(frames: Int, totalFrames: Int, sampleRate: Double, wallSeconds: Double) -> String {
        let fraction = min(1, Double(frames) / Double(max(1, totalFrames)))
        let filled = Int(fraction * 30)
        let speed = wallSeconds > 0 ? Double(frames) / sampleRate / wallSeconds : 0
        return "\r[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 30 - filled) + "] "
            + String(format: "%3.0f%%  %.1f s  %.0f× realtime ", fraction * 100, Double(frames) / sampleRate, speed)
    }

    @Sendable private static func writeStandardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Clears the bar before the summary is printed.
    public func finish() {
        draw?("\r" + String(repeating: " ", count: 72) + "\r")
    }
}
