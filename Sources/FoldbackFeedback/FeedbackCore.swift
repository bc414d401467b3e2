// Owns a feedback unit's running parts: realtime state (notch bank, rings), analysis and worker thread; shared by a unit and the units continuing it. Non-realtime (the state it owns is used on the audio thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine

/// The notch bank and rings the audio thread uses, the analysis and its worker: made once by a unit's
/// prepare, handed on to the unit of the next graph that continues it (a preset switch keeps the notches),
/// and freed when the last unit holding it is released, which the engine only does off the audio thread.
final class FeedbackCore: @unchecked Sendable {
    /// The audio thread's state.
    struct State: ~Copyable {
        var bank: NotchBank
        let samples: SampleRing
        let commands: SPSCRing<NotchCommand>
        let live: LiveSettings
    }

    let state: UnsafeMutablePointer<State>
    let analysis: FeedbackAnalysis
    let channels: Int
    let sampleRate: Double
    let maxFrames: Int
    private var worker: PeriodicWorker?

    /// Allocates the state for `channels` at `sampleRate` with `parameters`' defaults and starts the worker
    /// when `runsWorker`; nil when FFTW cannot plan the transform.
    init?(settings: FeedbackSettings, parameters: [Float], channels: Int, sampleRate: Double, maxFrames: Int,
          label: String, runsWorker: Bool, onEvent: (@Sendable (FeedbackEvent) -> Void)?) {
        let samples = SampleRing(capacity: max(Int(sampleRate), 4 * maxFrames))
        let commands = SPSCRing<NotchCommand>(capacity: 256)
        let live = LiveSettings(parameters)
        guard let analysis = FeedbackAnalysis(sampleRate: sampleRate, settings: settings, samples: samples, commands: commands,
                                              live: live, label: label, onEvent: onEvent) else {
            samples.destroy()
            commands.destroy()
            live.destroy()
            return nil
        }
        var bank = NotchBank(channels: channels, sampleRate: sampleRate)
        for notch in settings.fixedSettings {
            bank.setNotch(notch.slot, frequency: notch.frequency, depthDB: notch.depthDB, q: notch.q, depthRateDBPerSecond: 1)
        }
        bank.reset()
        state = .allocate(capacity: 1)
        state.initialize(to: State(bank: bank, samples: samples, commands: commands, live: live))
        self.analysis = analysis
        self.channels = channels
        self.sampleRate = sampleRate
        self.maxFrames = maxFrames
        // The audio thread fills the sample ring (1 s) and cannot wake anyone: a pass every 10 ms (about 2 hops)
        // while samples arrive, every 100 ms while none do (a graph not, or no longer, rendering) or while they have
        // been digital silence for a while (the first sound after it is analysed at most 100 ms later, from the ring).
        if runsWorker {
            let worker = PeriodicWorker(name: "fb-feedback") {
                analysis.pump() && !analysis.isResting ? .after(.milliseconds(10)) : .after(.milliseconds(100))
            }
            worker.start()
            self.worker = worker
        }
    }

    /// Stops the worker thread for good (an offline render runs the analysis itself from now on).
    func stopWorker() {
        worker?.stop()
        worker = nil
    }

    deinit {
        worker?.stop()
        let (samples, commands, live) = (state.pointee.samples, state.pointee.commands, state.pointee.live)
        state.deinitialize(count: 1)
        state.deallocate()
        samples.destroy()
        commands.destroy()
        live.destroy()
    }
}
