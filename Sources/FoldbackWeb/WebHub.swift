// The connected pages and the 25 Hz push thread: the mix's state whenever it changed, meters at each page's rate. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FlyingFox
import FoldbackControl
import FoldbackEngine
import Foundation
import Synchronization

/// Pushes to every connected page from a thread of its own (never the audio thread).
///
/// Each page has a bounded outbox (the newest ``outboxLimit`` messages): a slow phone drops old meter
/// frames instead of growing memory. The parameter tree goes to a page once and again when it changes (a preset
/// switch; ``WebTree``); the state then carries the values alone. The state is read only when what it is read
/// from changed (``WebStateKey``), and each role's part of it (``WebState/seen(by:)``: a musician their bus's
/// nodes, strips and meters) is encoded only when that part changed, once for every page of the role. Any change
/// (web, OSC, MIDI, a preset switch) reaches every page within one tick (40 ms); the state is also pushed every 2 s
/// regardless, the tree every 10 s, so a page whose outbox dropped one catches up.
///
/// Meters: a page that asked for a rate (``WebRequest/meters(_:)``: app.js asks for 25 a second while its tab
/// is visible, none while hidden) gets its strips' and buses' levels as binary frames of the values that changed
/// (``WebMeterFrame``; all of them every 2 s) and the rest of the tick (gain reductions, loudness, load) as a
/// `meters` message with no levels, when it changed (a musician's at most 5 a second, without the load). A page
/// that never asked (an older client) gets the whole JSON `meters` message every tick, as before.
final class WebHub: @unchecked Sendable {
    /// Pushes per second (meters every tick, state when changed).
    static let rate = 25.0
    /// Messages a page's outbox holds before the oldest are dropped.
    static let outboxLimit = 64
    /// Ticks between unconditional state pushes (2 s), so a page whose outbox dropped one catches up.
    static let stateRefreshTicks = 50
    /// Ticks between unconditional tree pushes (10 s), so a page whose outbox dropped the tree catches up.
    static let treeRefreshTicks = 250
    /// Ticks between a musician's non-level meter messages (loudness and dose: 5 a second).
    static let musicianRestTicks = 5

    private struct Page {
        var role: WebRole
        var send: @Sendable (WSMessage) -> Void
        /// The role's state stamp and tree version the page was last sent (-1: none yet).
        var stateStamp = -1
        var treeVersion = 0
        /// Whether the page asked for the analyser's frames, and the last one it was sent.
        var wantsSpectrum = false
        var spectrumSequence = 0
        /// Ticks between the page's meter updates (0: none, a hidden tab), or nil: it never asked (JSON meters every tick).
        var meterTicks: Int?
        /// Counts the page's rate requests.
        var meterRequests = 0
        /// The level layout and the rest message last sent, and the levels it shows.
        var layoutID = -1
        var restStamp = -1
        var levels: [Int16] = []
    }

    /// What the pages of one role are pushed (the push thread's own), rebuilt only when the role's part changed.
    private struct Role {
        var fullVersion = -1
        var seen: WebState?
        var tree = (fingerprint: 0, version: 0, text: "")
        var state = ""
        /// Counts changes of ``state``.
        var stateStamp = 0
        var layout: (id: Int, indices: [Int], keys: [String]) = (-1, [], [])
        var layoutText = ""
        var rest: WebMeters?
        var restText = ""
        var restStamp = 0
        var restTick = 0
    }

    private let target: any LiveControlTarget
    private let setlist: SetlistController?
    private let status: @Sendable () -> (load: Double, xruns: Int)
    private let pages = Mutex<[UUID: Page]>([:])
    private var worker: PeriodicWorker?
    // The push thread's own:
    private var tickCount = 0
    private var roles: [WebRole: Role] = [:]
    /// Counts every tree and level layout built, of any role, so a page holding another role's never takes it for its own.
    private var treeCount = 0, layoutCount = 0
    private var full: WebState?
    private var fullKey: WebStateKey?
    private var fullVersion = 0
    /// The graph whose host-side nodes ``hostAddresses`` are.
    private var hostGraph: EngineGraph?, hostAddresses: [ParameterAddress] = []
    private var levelKeys: [String] = []

    init(target: any LiveControlTarget, setlist: SetlistController?, status: @escaping @Sendable () -> (load: Double, xruns: Int)) {
        self.target = target
        self.setlist = setlist
        self.status = status
        // Every tick while a page is connected; asleep (woken by ``add(send:)``) while none is.
        let worker = PeriodicWorker(name: "fb-web") { [self] in tick() ? .after(.seconds(1 / Self.rate)) : .whenWoken }
        self.worker = worker
        worker.start()
    }

    /// Adds a page of `role`; `send` queues one message to it. Returns its id for ``remove(_:)``.
    func add(role: WebRole, send: @escaping @Sendable (WSMessage) -> Void) -> UUID {
        let id = UUID()
        pages.withLock { $0[id] = Page(role: role, send: send) }
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

    /// Sends page `id` meters `perSecond` times a second (0: none) as binary level frames; the next frame carries every level.
    func setMeterRate(_ id: UUID, _ perSecond: Double) {
        let ticks = perSecond > 0 ? max(1, Int((Self.rate / perSecond).rounded())) : 0
        pages.withLock { pages in
            pages[id]?.meterTicks = ticks
            pages[id]?.meterRequests += 1
            pages[id]?.levels = []
            pages[id]?.restStamp = -1
        }
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
        tickCount += 1
        readState()
        let connected = Set(current.map(\.1.role))
        roles = roles.filter { connected.contains($0.key) }   // a role no page holds any more is forgotten
        for role in connected { updateState(of: role) }

        let due = current.filter { $0.1.meterTicks.map { $0 > 0 && tickCount % $0 == 0 } ?? true }
        var meters: WebMeters?, levels: WebLevels?, legacy: [WebRole: String] = [:]
        if !due.isEmpty {
            let (load, xruns) = status()
            let snapshot = target.engine.meters()
            var tick = WebMeters(snapshot, load: load, xruns: xruns, loudness: target.busLoudness())
            if let graph = target.engine.graph { tick.outputs = WebUnitOutput.values(snapshot, graph: graph) }
            meters = tick
            if due.contains(where: { $0.1.meterTicks != nil }) { levels = WebLevels(snapshot) }
        }
        if let levels, levels.keys != levelKeys {
            levelKeys = levels.keys
            for role in roles.keys { roles[role]?.layout.id = -1 }
        }
        let spectrum = current.contains { $0.1.wantsSpectrum } ? target.analyser?.latest : nil
        let spectrumText = spectrum.map { WebSpectrum($0.frame, target: target).jsonText() }
        var updated: [UUID: Page] = [:]
        for (id, page) in current {
            guard let role = roles[page.role] else { continue }
            var page = page
            if page.treeVersion != role.tree.version || tickCount % Self.treeRefreshTicks == 0 {   // again every 10 s, in case an outbox dropped it
                page.send(.text(role.tree.text))
                page.treeVersion = role.tree.version
                page.layoutID = -1
            }
            if page.stateStamp != role.stateStamp || tickCount % Self.stateRefreshTicks == 0 {
                page.send(.text(role.state))
                page.stateStamp = role.stateStamp
            }
            if let meters, due.contains(where: { $0.0 == id }) {
                if page.meterTicks == nil {
                    if legacy[page.role] == nil, let seen = role.seen { legacy[page.role] = meters.seen(by: page.role, state: seen).jsonText() }
                    page.send(.text(legacy[page.role] ?? "{}"))
                } else if let levels {
                    pushMeters(meters, levels, to: &page)
                }
            }
            if let spectrum, let spectrumText, page.wantsSpectrum, page.spectrumSequence != spectrum.sequence {
                page.send(.text(spectrumText))
                page.spectrumSequence = spectrum.sequence
            }
            updated[id] = page
        }
        pages.withLock { pages in
            for (id, page) in updated where pages[id] != nil {   // requests since the copy (rate, analyser) win
                pages[id]?.stateStamp = page.stateStamp
                pages[id]?.treeVersion = page.treeVersion
                pages[id]?.spectrumSequence = page.spectrumSequence
                if pages[id]?.meterRequests == page.meterRequests {   // else a new rate since the copy: its next frame carries every level
                    pages[id]?.levels = page.levels
                    pages[id]?.restStamp = page.restStamp
                    pages[id]?.layoutID = page.layoutID
                }
            }
        }
        return true
    }

    /// Reads the whole state again when what it is read from changed since the last tick.
    private func readState() {
        let graph = target.engine.graph
        if graph !== hostGraph || graph == nil {
            hostGraph = graph
            hostAddresses = WebStateKey.hostAddresses(of: target)
        }
        let key = WebStateKey(target, setlist: setlist, hostAddresses: hostAddresses)
        // Read again every 2 s regardless (the state refresh), so nothing the key might miss stays stale for longer.
        guard key != fullKey || full == nil || graph == nil || tickCount % Self.stateRefreshTicks == 0 else { return }
        full = WebState.read(target, setlist: setlist)
        fullKey = key
        fullVersion += 1
    }

    /// Rebuilds what `role`'s pages get when the state changed: its tree (encoded only when it changed) and state.
    private func updateState(of role: WebRole) {
        var cached = roles[role] ?? Role()
        guard cached.fullVersion != fullVersion, let full else { return }
        cached.fullVersion = fullVersion
        let seen = full.seen(by: role)
        if seen != cached.seen {
            let fingerprint = WebTree.fingerprint(seen)
            if fingerprint != cached.tree.fingerprint || cached.tree.version == 0 {
                treeCount += 1
                cached.tree = (fingerprint, treeCount, WebTree(seen, version: treeCount).jsonText())
            }
            cached.state = WebTree.valuesText(seen, version: cached.tree.version)
            cached.stateStamp += 1
            if cached.seen.map({ $0.strips.map(\.name) != seen.strips.map(\.name) || $0.buses.map(\.name) != seen.buses.map(\.name) }) ?? true {
                cached.layout.id = -1
            }
            cached.seen = seen
        }
        roles[role] = cached
    }

    /// A binary page's meters this tick: the level layout when it changed, the levels that changed, the rest when it changed.
    private func pushMeters(_ meters: WebMeters, _ levels: WebLevels, to page: inout Page) {
        guard var role = roles[page.role], let seen = role.seen else { return }
        if role.layout.id == -1 {
            layoutCount += 1
            let layout = levels.layout(for: page.role, seen: seen)
            role.layout = (layoutCount, layout.indices, layout.keys)
            role.layoutText = WebMeterKeys(id: layoutCount & 0xFFFF, keys: layout.keys).jsonText()
        }
        if page.layoutID != role.layout.id {
            page.send(.text(role.layoutText))
            page.layoutID = role.layout.id
            page.levels = []
        }
        if tickCount % Self.stateRefreshTicks == 0 { page.levels = [] }   // every level again every 2 s, in case an outbox dropped a frame
        if let frame = WebMeterFrame.encode(layout: role.layout.id, indices: role.layout.indices, levels: levels, sent: &page.levels) {
            page.send(.data(frame))
        }
        let isMusician = page.role != .engineer
        if role.restTick != tickCount, !isMusician || tickCount % Self.musicianRestTicks == 0 || role.rest == nil {
            role.restTick = tickCount
            var rest = meters.seen(by: page.role, state: seen)
            (rest.strips, rest.buses) = ([:], [:])
            if isMusician { (rest.dsp, rest.xruns) = (0, 0) }   // a musician's page shows neither
            if rest != role.rest {
                role.rest = rest
                role.restText = rest.jsonText()
                role.restStamp += 1
            }
        }
        if page.restStamp != role.restStamp {
            page.send(.text(role.restText))
            page.restStamp = role.restStamp
        }
        roles[page.role] = role
    }
}
