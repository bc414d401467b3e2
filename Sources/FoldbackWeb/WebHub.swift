// The connected pages and the 25 Hz push thread: meters every tick, the mix's state whenever it changed. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine
import Foundation
import Synchronization

/// Pushes JSON text to every connected page from a thread of its own (never the audio thread).
///
/// Each page has a bounded outbox (the newest ``outboxLimit`` messages): a slow phone drops old meter
/// frames instead of growing memory. The parameter tree goes to a page once and again when it changes (a preset
/// switch; ``WebTree``); the state then carries the values alone. State is compared as text, so any change (web,
/// OSC, MIDI, a preset switch) reaches every page within one tick (40 ms); it is also pushed every 2 s regardless, the
/// tree every 10 s.
final class WebHub: @unchecked Sendable {
    /// Pushes per second (meters every tick, state when changed).
    static let rate = 25.0
    /// Messages a page's outbox holds before the oldest are dropped.
    static let outboxLimit = 64
    /// Ticks between unconditional state pushes (2 s), so a page whose outbox dropped one catches up.
    static let stateRefreshTicks = 50
    /// Ticks between unconditional tree pushes (10 s), so a page whose outbox dropped the tree catches up.
    static let treeRefreshTicks = 250

    private struct Page {
        var send: @Sendable (String) -> Void
        var hasState: Bool
        /// The tree version the page was last sent.
        var treeVersion = 0
        /// Whether the page asked for the analyser's frames, and the last one it was sent.
        var wantsSpectrum = false
        var spectrumSequence = 0
    }

    private let target: any LiveControlTarget
    private let setlist: SetlistController?
    private let status: @Sendable () -> (load: Double, xruns: Int)
    private let pages = Mutex<[UUID: Page]>([:])
    private let lastState = Mutex<String>("")
    private var worker: PeriodicWorker?
    private var tickCount = 0   // the push thread's own
    /// The tree last sent (the push thread's own): its fingerprint, version and text.
    private var tree = (fingerprint: 0, version: 0, text: "")

    init(target: any LiveControlTarget, setlist: SetlistController?, status: @escaping @Sendable () -> (load: Double, xruns: Int)) {
        self.target = target
        self.setlist = setlist
        self.status = status
        // Every tick while a page is connected; asleep (woken by ``add(send:)``) while none is.
        let worker = PeriodicWorker(name: "fb-web") { [self] in tick() ? .after(.seconds(1 / Self.rate)) : .whenWoken }
        self.worker = worker
        worker.start()
    }

    /// Adds a page; `send` queues one text message to it. Returns its id for ``remove(_:)``.
    func add(send: @escaping @Sendable (String) -> Void) -> UUID {
        let id = UUID()
        pages.withLock { $0[id] = Page(send: send, hasState: false) }
        worker?.wake()
        return id
    }

    func remove(_ id: UUID) {
        _ = pages.withLock { $0.removeValue(forKey: id) }
        updateSpectrumInterest()
    }

    /// Starts (or stops) sending page `id` the analyser's frames; the analyser runs while any page wants them.
    func setWantsSpectrum(_ id: UUID, _ wants: Bool) {
        pages.withLock { $0[id]?.wantsSpectrum = wants }
        updateSpectrumInterest()
    }

    private func updateSpectrumInterest() {
        target.analyser?.setInterest("web", pages.withLock { $0.values.contains { $0.wantsSpectrum } })
    }

    /// Pages connected now.
    var pageCount: Int { pages.withLock { $0.count } }

    /// The live response of eq or geq unit `unit` (`strip/vox/unit/eq`) as JSON, or nil (``WebResponse``).
    func responseText(unit: String) -> String? { WebResponse.json(target, unit: unit) }

    /// The live static curve of compressor unit `unit` as JSON, or nil (``WebCompressorCurve``).
    func curveText(unit: String) -> String? { WebCompressorCurve.json(target, unit: unit) }

    func stop() { worker?.stop() }

    /// Pushes to every page; false when none is connected.
    private func tick() -> Bool {
        let current: [(UUID, Page)] = pages.withLock { Array($0) }
        guard !current.isEmpty else { return false }
        let full = WebState.read(target, setlist: setlist)
        let fingerprint = WebTree.fingerprint(full)
        if fingerprint != tree.fingerprint || tree.version == 0 {   // the tree is encoded only when it changed
            let version = tree.version + 1
            tree = (fingerprint, version, WebTree(full, version: version).jsonText())
        }
        let state = WebTree.valuesText(full, version: tree.version)
        tickCount += 1
        let isRefresh = tickCount % Self.stateRefreshTicks == 0
        let changed = lastState.withLock { last in
            defer { last = state }
            return last != state
        } || isRefresh
        let (load, xruns) = status()
        let snapshot = target.engine.meters()
        var meterTick = WebMeters(snapshot, load: load, xruns: xruns, loudness: target.busLoudness())
        if let graph = target.engine.graph { meterTick.outputs = WebUnitOutput.values(snapshot, graph: graph) }
        let meters = meterTick.jsonText()
        let spectrum = current.contains { $0.1.wantsSpectrum } ? target.analyser?.latest : nil
        let spectrumText = spectrum.map { WebSpectrum($0.frame, target: target).jsonText() }
        for (id, page) in current {
            if page.treeVersion != tree.version || tickCount % Self.treeRefreshTicks == 0 {   // again every 10 s, in case an outbox dropped it
                page.send(tree.text)
                pages.withLock { $0[id]?.treeVersion = tree.version }
            }
            if changed || !page.hasState {
                page.send(state)
                pages.withLock { $0[id]?.hasState = true }
            }
            page.send(meters)
            if let spectrum, let spectrumText, page.wantsSpectrum, page.spectrumSequence != spectrum.sequence {
                page.send(spectrumText)
                pages.withLock { $0[id]?.spectrumSequence = spectrum.sequence }
            }
        }
        return true
    }
}
