// One plugin instance's LV2 worker (`worker:schedule`): rings to and from the worker thread. Schedule and delivery realtime; setup non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
internal import CLilv

/// The realtime side of a plugin's worker: what `schedule_work`, `respond` and the cycle's delivery touch.
struct LV2WorkerState {
    var requests: LV2MessageRing
    var responses: LV2MessageRing
    /// The plugin's worker interface, once instantiated (nil: the plugin has none; scheduling fails).
    var interface: UnsafePointer<LV2_Worker_Interface>?
    var pluginHandle: LV2_Handle?
    /// Offline: `schedule_work` runs the work at once on the calling thread.
    var isSynchronous: Bool
    /// Where the audio thread copies a response before handing it to the plugin.
    var responseBuffer: UnsafeMutableRawPointer
    /// Where the worker thread copies a request before handing it to the plugin.
    var requestBuffer: UnsafeMutableRawPointer
    var bufferSize: Int

    /// Audio thread, after `run`: hands every queued response to the plugin.
    @inline(__always)
    mutating func deliverResponses() {
        guard let interface, let respond = interface.pointee.work_response else { return }
        while let size = responses.pop(into: responseBuffer, capacity: bufferSize) {
            _ = respond(pluginHandle, UInt32(size), responseBuffer)
        }
    }

    /// Worker thread (or the audio thread offline): runs every queued request. Returns whether any ran.
    mutating func performRequests(_ state: UnsafeMutablePointer<LV2WorkerState>) -> Bool {
        guard let interface, let work = interface.pointee.work else { return false }
        var didWork = false
        while let size = requests.pop(into: requestBuffer, capacity: bufferSize) {
            _ = work(pluginHandle, LV2Worker.respond, UnsafeMutableRawPointer(state), UInt32(size), requestBuffer)
            didWork = true
        }
        return didWork
    }
}

/// Owns a plugin instance's worker state and the `worker:schedule` feature pointing at it.
final class LV2Worker: @unchecked Sendable {
    /// Ring and buffer size in bytes; a request or response larger than this is refused.
    static let capacity = 1 << 16
    let state: UnsafeMutablePointer<LV2WorkerState>
    let schedule: UnsafeMutablePointer<LV2_Worker_Schedule>
    private var isRegistered = false

    init(hosting: PluginHosting) {
        state = .allocate(capacity: 1)
        state.initialize(to: LV2WorkerState(
            requests: LV2MessageRing(capacity: Self.capacity), responses: LV2MessageRing(capacity: Self.capacity),
            interface: nil, pluginHandle: nil, isSynchronous: hosting.isSynchronous,
            responseBuffer: .allocate(byteCount: Self.capacity, alignment: 16),
            requestBuffer: .allocate(byteCount: Self.capacity, alignment: 16), bufferSize: Self.capacity))
        schedule = .allocate(capacity: 1)
        schedule.initialize(to: LV2_Worker_Schedule(handle: UnsafeMutableRawPointer(state), schedule_work: Self.scheduleWork))
    }

    /// Connects the worker to an instantiated plugin and, live, to the worker thread.
    func attach(interface: UnsafePointer<LV2_Worker_Interface>?, pluginHandle: LV2_Handle?) {
        state.pointee.interface = interface
        state.pointee.pluginHandle = pluginHandle
        if interface != nil && !state.pointee.isSynchronous {
            LV2WorkerThread.shared.register(state)
            isRegistered = true
        }
    }

    /// Stops serving the plugin; call before freeing the instance.
    func detach() {
        if isRegistered { LV2WorkerThread.shared.unregister(state) }
        isRegistered = false
    }

    deinit {
        detach()
        state.pointee.requests.destroy()
        state.pointee.responses.destroy()
        state.pointee.responseBuffer.deallocate()
        state.pointee.requestBuffer.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
        schedule.deallocate()
    }

    /// `schedule_work`: realtime (live: a ring push) or synchronous (offline: the work runs now).
    static let scheduleWork: @convention(c) (LV2_Worker_Schedule_Handle?, UInt32, UnsafeRawPointer?) -> LV2_Worker_Status = { handle, size, data in
        guard let handle else { return LV2_WORKER_ERR_UNKNOWN }
        let worker = handle.assumingMemoryBound(to: LV2WorkerState.self)
        guard worker.pointee.interface != nil else { return LV2_WORKER_ERR_UNKNOWN }
        guard worker.pointee.requests.push(data, size: Int(size)) else { return LV2_WORKER_ERR_NO_SPACE }
        if worker.pointee.isSynchronous { _ = worker.pointee.performRequests(worker) }
        return LV2_WORKER_SUCCESS
    }

    /// `respond`: queues a response for the audio thread's next delivery.
    static let respond: @convention(c) (LV2_Worker_Respond_Handle?, UInt32, UnsafeRawPointer?) -> LV2_Worker_Status = { handle, size, data in
        guard let handle else { return LV2_WORKER_ERR_UNKNOWN }
        let worker = handle.assumingMemoryBound(to: LV2WorkerState.self)
        return worker.pointee.responses.push(data, size: Int(size)) ? LV2_WORKER_SUCCESS : LV2_WORKER_ERR_NO_SPACE
    }
}
