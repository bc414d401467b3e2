// The progress bar `foldback render` draws on a terminal, shared by parallel jobs. Non-realtime.
import FoldbackLive
import Foundation
import FoldbackRender
import Synchronization

/// Frames rendered by every job against the expected total, drawn on standard error at most ten
/// times a second when it is a terminal (nothing otherwise).
final class RenderProgress: Sendable {
    private let isTerminal: Bool
    private let totalFrames: Int
    private let sampleRate: Double
    private let state: Mutex<(done: [Int], lastDraw: Double)>
    private let clock = RenderClock()

    init(jobs: Int, totalFrames: Int, sampleRate: Double) {
        isTerminal = isatty(STDERR_FILENO) != 0
        self.totalFrames = max(1, totalFrames)
        self.sampleRate = sampleRate
        state = Mutex((done: [Int](repeating: 0, count: jobs), lastDraw: -1))
    }

    /// Job `job` has rendered `frames` frames so far.
    func update(job: Int, frames: Int) {
        guard isTerminal else { return }
        let now = clock.wallSeconds
        let line: String? = state.withLock { state in
            state.done[job] = frames
            guard now - state.lastDraw >= 0.1 else { return nil }
            state.lastDraw = now
            let done = state.done.reduce(0, +)
            let fraction = min(1, Double(done) / Double(totalFrames))
            let filled = Int(fraction * 30)
            let speed = now > 0 ? Double(done) / sampleRate / now : 0
            return "\r[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 30 - filled) + "] "
                + String(format: "%3.0f%%  %.1f s  %.0f× realtime ", fraction * 100, Double(done) / sampleRate, speed)
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// Clears the bar before the summary is printed.
    func finish() {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data(("\r" + String(repeating: " ", count: 72) + "\r").utf8))
    }
}
