// One plugin instance's `log:log` feature: lines go into a lock-free ring (never blocking the audio thread) and are logged from the worker thread. Sink realtime; drain non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
internal import CFoldbackLV2
import Atomics
import Logging

/// What the sink touches: the ring and a producer flag (plugins may log from the audio, worker and
/// main threads; a line arriving while another is being queued is dropped rather than waited for).
struct LV2LogState {
    var ring: LV2MessageRing
    var isWriting: UnsafeAtomic<Bool>
    var dropped: UnsafeAtomic<Int>
}

/// The `log:log` feature of one plugin instance, and the drain that writes its lines to Foldback's logger.
final class LV2Log: @unchecked Sendable {
    let state: UnsafeMutablePointer<LV2LogState>
    let logger: UnsafeMutablePointer<fb_lv2_logger>
    private let plugin: String
    private let levels: [UInt32: Logger.Level]
    private var isRegistered = false
    private static let output = Logger(label: "foldback.lv2")

    init(plugin: String, urids: LV2URIDMap) {
        self.plugin = plugin
        levels = [
            urids.map(LV2URI.logError): .error, urids.map(LV2URI.logWarning): .warning,
            urids.map(LV2URI.logNote): .info, urids.map(LV2URI.logTrace): .trace,
        ]
        state = .allocate(capacity: 1)
        state.initialize(to: LV2LogState(ring: LV2MessageRing(capacity: 1 << 14), isWriting: .create(false), dropped: .create(0)))
        logger = .allocate(capacity: 1)
        fb_lv2_logger_init(logger, Self.sink, UnsafeMutableRawPointer(state))
    }

    deinit {
        stop()
        state.pointee.ring.destroy()
        state.pointee.isWriting.destroy()
        state.pointee.dropped.destroy()
        state.deallocate()
        logger.deallocate()
    }

    /// The `LV2_Log_Log` to hand to the plugin.
    var feature: UnsafeMutableRawPointer { UnsafeMutableRawPointer(logger) }

    /// Starts draining on the worker thread.
    func start() {
        guard !isRegistered else { return }
        LV2WorkerThread.shared.register(log: self)
        isRegistered = true
    }

    /// Stops draining (and writes what is left); call before the plugin is freed.
    func stop() {
        guard isRegistered else { return }
        LV2WorkerThread.shared.unregister(log: self)
        isRegistered = false
        _ = drain()
    }

    /// Writes every queued line to the logger; returns whether there were any. Non-realtime.
    func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 10)
        var any = false
        while let size = buffer.withUnsafeMutableBytes({ state.pointee.ring.pop(into: $0.baseAddress!, capacity: $0.count) }) {
            any = true
            guard size >= 4 else { continue }
            let type = buffer.withUnsafeBytes { $0.load(as: UInt32.self) }
            let text = String(decoding: buffer[4..<size], as: UTF8.self)
            Self.output.log(level: levels[type] ?? .info, "LV2 plugin \(plugin): \(text)")
        }
        let dropped = state.pointee.dropped.exchange(0, ordering: .relaxed)
        if dropped > 0 { Self.output.warning("LV2 plugin \(plugin): \(dropped) log lines dropped") }
        return any
    }

    /// The sink the C shim calls: realtime-safe (a try-flag and a ring push; never waits).
    private static let sink: fb_lv2_log_sink = { context, type, text, length in
        guard let context, let text else { return }
        let state = context.assumingMemoryBound(to: LV2LogState.self)
        guard state.pointee.isWriting.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            state.pointee.dropped.wrappingIncrement(ordering: .relaxed)
            return
        }
        if !state.pointee.ring.push(tag: type, text, size: Int(length)) {
            state.pointee.dropped.wrappingIncrement(ordering: .relaxed)
        }
        state.pointee.isWriting.store(false, ordering: .releasing)
    }
}
