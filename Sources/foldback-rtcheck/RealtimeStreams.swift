// The scenario's record taps, file-player source and loudness taps, serviced by the control and worker threads. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackAnalysis
import FoldbackEngine

/// Two record taps (a stereo bus and a strip, post-fader): the audio thread writes their rings; the control
/// loop drains them and stops and restarts the recording, so every tap path runs under the allocation count
/// (the file source, strip5, is ``RealtimeFilePlayer``'s stretched stream). Every
/// bus also has a loudness analysis tap, drained by the loudness monitor's own worker thread, and the spectrum
/// analyser's tap moves from bus `main` to strip `strip0` before and after its units, drained by `fb-analyser`.
final class RealtimeStreams {
    let loudness = BusLoudnessMonitor(showSeconds: 60) { _ in }
    let analyser = SpectrumMonitor()
    static let analyserPoints: [AnalyserPoint] = [.bus("main"), .stripPre("strip0"), .stripPost("strip0")]
    private weak var graph: EngineGraph?
    private var analyserPoint = -1
    static let loudnessBuses = [
        LoudnessBus(name: "main", channels: 2, isInEar: false), LoudnessBus(name: "iem_vox", channels: 2, isInEar: true),
        LoudnessBus(name: "iem_keys", channels: 2, isInEar: true),
    ]
    let control = TapSwitch()
    let busTap = TapRing(channels: 2, frames: 1 << 16)
    let stripTap = TapRing(channels: 2, frames: 1 << 16)
    private var drained = 0
    private var toggles = 0
    private let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 2 * (1 << 16))

    init() { control.request(on: true) }

    deinit { scratch.deallocate() }

    /// Attaches the taps (bus `main`, strip `strip0` after its mono → stereo reverb).
    func attach(to graph: EngineGraph) throws(EngineError) {
        try graph.attachTap(busTap, to: .bus("main"), control: control)
        try graph.attachTap(stripTap, to: .strip("strip0"), control: control)
        try loudness.attach(to: graph, buses: Self.loudnessBuses)
        analyser.attach(to: graph)
        if self.graph == nil {
            try analyser.select(Self.analyserPoints[0], in: graph)
            analyser.setInterest("rtcheck", true)
        }
        self.graph = graph
    }

    /// Drains the taps and toggles recording at a third and two thirds of the run.
    func service(cyclesDone: Int, cycles: Int) {
        for ring in [busTap, stripTap] { drained += ring.drain(into: scratch, maxFrames: 1 << 16) }
        let want = cyclesDone < cycles / 3 || cyclesDone >= 2 * cycles / 3
        if want != control.isOn {
            control.request(on: want)
            toggles += 1
        }
        let point = min(cyclesDone * Self.analyserPoints.count / max(cycles, 1), Self.analyserPoints.count - 1)
        if point != analyserPoint, let graph {   // each point in turn, a third of the run each
            try? analyser.select(Self.analyserPoints[point], in: graph)
            analyserPoint = point
        }
    }

    var failures: [String] {
        var failures: [String] = []
        if drained == 0 { failures.append("the record taps delivered nothing") }
        if busTap.overrunCount + stripTap.overrunCount > 0 { failures.append("record taps overran") }
        if toggles < 2 { failures.append("the recording was not stopped and restarted") }
        if !loudness.snapshot().contains(where: { $0.reading.momentaryLUFS.isFinite }) { failures.append("the loudness taps measured nothing") }
        if analyser.workerCPU.frames == 0 { failures.append("the analyser tap delivered no spectrum") }
        return failures
    }

    var summary: String {
        "\(drained) tapped frames, \(analyser.workerCPU.frames) analyser spectra"
    }
}
