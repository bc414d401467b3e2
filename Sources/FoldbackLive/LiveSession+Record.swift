// Run-time recording in a live session: first take, SIGUSR1 toggles, reports when a take ends. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CFoldback
import Foundation
package import FoldbackRender

extension LiveSession {
    /// Starts `recorder`'s first take (unless `paused`) and toggles takes on every SIGUSR1.
    package func record(with recorder: Recorder, paused: Bool) {
        var usr1 = SignalCounter(SIGUSR1)
        if !paused { Self.startTake(recorder, sampleRate: Int(host.sampleRate)) } else {
            StandardError.writeLine("foldback: recorder armed; send SIGUSR1 (kill -USR1 \(getpid())) to start a take")
        }
        statusParts.append { [host] in
            let overruns = recorder.overrunCount
            let tail = overruns > 0 ? " overruns \(overruns)" : ""
            guard recorder.isRecording else { return "rec off" + tail }
            let seconds = recorder.framesWritten / max(1, Int(host.sampleRate))
            return String(format: "REC %d:%02d", seconds / 60, seconds % 60) + tail
        }
        transport.setRecorder { [host] on in
            let start = on ?? !recorder.isRecording
            if start == recorder.isRecording { return recorder.isRecording ? "already recording" : "not recording" }
            if start { Self.startTake(recorder, sampleRate: Int(host.sampleRate)) } else { Self.finishTake(recorder) }
            return recorder.isRecording ? "recording" : "recording stopped"
        }
        tickHandlers.append { [transport] in
            if usr1.hasArrived() { _ = transport.record(nil) }
        }
    }

    /// Opens a take's files and prints where they are.
    package static func startTake(_ recorder: Recorder, sampleRate: Int) {
        do {
            let urls = try recorder.start(sampleRate: sampleRate)
            StandardError.writeLine("foldback: recording started: " + urls.map(\.path).joined(separator: " "))
        } catch {
            StandardError.writeLine("foldback: recording did not start: \(error)")
        }
    }

    /// Stops the take and prints, per file, the frames written and processed (and any lost).
    package static func finishTake(_ recorder: Recorder) {
        for report in recorder.stop() { StandardError.writeLine("foldback: recording stopped: \(report)") }
    }
}
