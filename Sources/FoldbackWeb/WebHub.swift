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
/// tree every 10 s. Each role gets its own part (``WebState/seen(by:)``: a musician their bus's nodes, strips and
/// meters), each text built once a tick per role connected, not per page; a state's values index its role's tree.
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
        var role: WebRole
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
    private var worker: PeriodicWorker?
    private var tickCount = 0   // the push thread's own
    /// Each connected role's tree last sent (the push thread's own): its fingerprint, version and text. Versions
    /// count every tree built, of any role, so a page holding another role's tree never takes it for its own.
    private var trees: [WebRole: (fingerprint: Int, version: Int, text: String)] = [:]
    private var treeCount = 0
    /// Each connected role's state text last sent (the push thread's own).
    private var lastStates: [WebRole: String] = [:]

    /// What the pages of one role are pushed this tick.
    private struct RolePush {
        var treeVersion: Int
        /// The role's tree, state and meter tick texts, and whether the state differs from the last one sent.
        var tree, state, meters: String
        var stateChanged: Bool
    }

    init(target: any LiveControlTarget, setlist: SetlistController?, status: @escaping @Sendable () -> (load: Double, xruns: Int)) {
        self.target = target
        self.setlist = setlist
        self.status = status
        // Every tick while a page is connected; asleep (woken by ``add(send:)``) while none is.
        let worker = PeriodicWorker(name: "fb-web") { [self] in tick() ? .after(.seconds(1 / Self.rate)) : .whenWoken }
        self.worker = worker
        worker.start()
    }

    /// Adds a page of `role`; `send` queues one text message to it. Returns its id for ``remove(_:)``.
    func add(role: WebRole, send: @escaping @Sendable (String) -> Void) -> UUID {
        let id = UUID()
        pages.withLock { $0[id] = Page(role: role, send: send, hasState: false) }
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
        tickCount += 1
        let (load, xruns) = status()
        let snapshot = target.engine.meters()
        var meterTick = WebMeters(snapshot, load: load, xruns: xruns, loudness: target.busLoudness())
        if let graph = target.engine.graph { meterTick.outputs = WebUnitOutput.values(snapshot, graph: graph) }
        var pushes: [WebRole: RolePush] = [:]
        for role in Set(current.map(\.1.role)) { pushes[role] = push(full, meters: meterTick, to: role) }
        trees = trees.filter { pushes[$0.key] != nil }   // a role no page holds any more is forgotten
        lastStates = lastStates.filter { pushes[$0.key] != nil }
        let spectrum = current.contains { $0.1.wantsSpectrum } ? target.analyser?.latest : nil
        let spectrumText = spectrum.map { WebSpectrum($0.frame, target: target).jsonText() }
        for (id, page) in current {
            guard let push = pushes[page.role] else { continue }
            if page.treeVersion != push.treeVersion || tickCount % Self.treeRefreshTicks == 0 {   // again every 10 s, in case an outbox dropped it
                page.send(push.tree)
                pages.withLock { $0[id]?.treeVersion = push.treeVersion }
            }
            if push.stateChanged || !page.hasState {
                page.send(push.state)
                pages.withLock { $0[id]?.hasState = true }
            }
            page.send(push.meters)
            if let spectrum, let spectrumText, page.wantsSpectrum, page.spectrumSequence != spectrum.sequence {
                page.send(spectrumText)
                pages.withLock { $0[id]?.spectrumSequence = spectrum.sequence }
            }
        }
        return true
    }

    /// The texts `role`'s pages get this tick, of the whole state `full` and meter tick `meters`.
    private func push(_ full: WebState, meters: WebMeters, to role: WebRole) -> RolePush {
        let seen = full.seen(by: role)
        let fingerprint = WebTree.fingerprint(seen)
        var tree = trees[role] ?? (fingerprint: 0, version: 0, text: "")
        if fingerprint != tree.fingerprint || tree.version == 0 {   // the tree is encoded only when it changed
            treeCount += 1
            tree = (fingerprint, treeCount, WebTree(seen, version: treeCount).jsonText())
            trees[role] = tree
        }
        let state = WebTree.valuesText(seen, version: tree.version)
        let changed = lastStates[role] != state || tickCount % Self.stateRefreshTicks == 0
        lastStates[role] = state
        return RolePush(treeVersion: tree.version, tree: tree.text, state: state, meters: meters.seen(by: role, state: seen).jsonText(),
                        stateChanged: changed)
    }
}
