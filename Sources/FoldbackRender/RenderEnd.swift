// Where a render's output starts (after the latency) and ends (inputs plus tail), sample by sample. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Decides, block by block, which rendered frames are written and when to stop.
///
/// Output frame `o` is rendered frame `o + latency`, so outputs line up with inputs. The end is decided
/// per sample (never per block), so every block size gives the same length.
struct RenderEnd {
    let tail: RenderTail
    let latency: Int
    /// The longest input in frames, once every input has ended.
    var inputFrames: Int?
    /// Output frames written so far.
    private(set) var emitted = 0
    /// True when an automatic tail stopped at its cap.
    private(set) var isCapped = false
    private let threshold: Float
    private let windowFrames: Int
    private let capFrames: Int
    private var quietRun = 0

    init(tail: RenderTail, sampleRate: Double, latency: Int) {
        self.tail = tail
        self.latency = latency
        threshold = powf(10, RenderTail.silenceDBFS / 20)
        windowFrames = max(1, Int((RenderTail.silenceWindowSeconds * sampleRate).rounded()))
        capFrames = switch tail {
        case .auto(let capSeconds): Int((capSeconds * sampleRate).rounded())
        case .seconds(let seconds): Int((seconds * sampleRate).rounded())
        }
    }

    /// The frames of the block just rendered (starting at rendered frame `rendered`) to write, and
    /// whether this is the last block.
    mutating func advance(outputs: [UnsafeMutablePointer<Float>], rendered: Int, block: Int) -> (range: Range<Int>, isLast: Bool) {
        let start = min(block, max(0, latency - rendered))
        var stop = block
        var isLast = false
        if let inputFrames {
            for frame in start..<block {
                let output = rendered + frame - latency
                guard output >= inputFrames else { continue }
                if output - inputFrames >= capFrames {
                    stop = frame
                    isLast = true
                    if case .auto = tail { isCapped = true }
                    break
                }
                guard case .auto = tail else { continue }
                quietRun = outputs.contains { abs($0[frame]) >= threshold } ? 0 : quietRun + 1
                if quietRun >= windowFrames {
                    stop = frame + 1
                    isLast = true
                    break
                }
            }
        }
        emitted += stop - start
        return (start..<stop, isLast)
    }
}
