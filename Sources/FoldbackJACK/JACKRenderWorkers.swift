// The engine's render workers on threads JACK creates at the client's realtime priority. Non-realtime (the threads run realtime work).
// SPDX-License-Identifier: GPL-3.0-or-later
import CJack
import FoldbackEngine

/// Runs ``Engine/workerCount`` render workers on threads made by `jack_client_create_thread`, at
/// `jack_client_real_time_priority` (the priority of the client's process thread) when the server runs
/// realtime. They share each cycle's strips and buses with the process callback (see ``Engine/workerEntry``).
final class JACKRenderWorkers {
    private let engine: Engine
    private var threads: [jack_native_thread_t] = []
    /// Whether the running workers have realtime scheduling.
    private(set) var isRealtime = false

    init(engine: Engine) {
        self.engine = engine
    }

    /// Starts the workers for `client` (nothing when already running or the engine has none). A server
    /// running realtime whose priority this process may not take gets workers without it.
    func start(client: OpaquePointer) throws(JACKError) {
        guard threads.isEmpty, engine.workerCount > 0 else { return }
        engine.prepareWorkers()
        let priority = jack_client_real_time_priority(client)
        var realtime = jack_is_realtime(client) != 0 && priority >= 0
        for worker in 0..<engine.workerCount {
            var thread: jack_native_thread_t = 0
            var code = jack_client_create_thread(client, &thread, priority, realtime ? 1 : 0, Engine.workerEntry, engine.workerContext(worker))
            if code != 0, realtime {
                realtime = false
                code = jack_client_create_thread(client, &thread, 0, 0, Engine.workerEntry, engine.workerContext(worker))
            }
            guard code == 0 else {
                stop(client: client)
                throw .workerThreadFailed(code: code)
            }
            threads.append(thread)
        }
        isRealtime = realtime
    }

    /// Makes the workers return and joins their threads; the process callback renders alone meanwhile.
    func stop(client: OpaquePointer?) {
        guard !threads.isEmpty else { return }
        engine.stopWorkers()
        for thread in threads { jack_client_stop_thread(client, thread) }
        threads = []
    }
}
