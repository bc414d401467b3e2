// Hosts an Engine as a JACK client: ports from a GraphLayout, callbacks, connections, status. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
import CJack
public import FoldbackEngine
import Foundation

/// Runs an ``Engine`` as a JACK client.
///
/// Registers one JACK audio port per ``PortLayout`` (with its pretty name as JACK metadata), points the
/// engine's IO tables at the port buffers every cycle and runs the engine in the process callback.
/// Format changes (sample rate, buffer size) are reported to `onFormatChange` on a non-realtime thread
/// so the owner can rebuild and install a graph; xruns are counted and a server shutdown is recorded
/// for the owner to report (``shutdown``) and to ride out with ``reopen()``.
///
/// Typical use: build the graph, `engine.install(graph)`, create the host with `graph.layout`,
/// ``activate()``, then ``connect(_:)``; call ``close()`` before letting go of it. One host per engine;
/// call ``updatePorts(for:)`` from one thread at a time.
public final class JACKHost: @unchecked Sendable {
    /// The hosted engine.
    public let engine: Engine
    /// The JACK client (a new one after ``reopen()``).
    public var client: JACKClient { lock.withLock { openClient } }
    /// A handler for sample-rate and buffer-size changes: `(sampleRate in Hz, bufferSize in frames)`.
    public typealias FormatChangeHandler = @Sendable (_ sampleRate: Double, _ bufferSize: Int) -> Void

    let lock = NSLock()
    /// The open client: read it through ``client``; ``reopen()`` replaces it under `lock`.
    var openClient: JACKClient
    private var currentLayout: GraphLayout
    var inputPorts: [String: JACKPort] = [:]
    var outputPorts: [String: JACKPort] = [:]
    let process: UnsafeMutablePointer<JACKHostProcess>
    /// The MIDI input port, once ``registerMIDIInput(named:)`` has run.
    var midiInputPort: JACKPort? {
        get { lock.withLock { midiPort } }
        set { lock.withLock { midiPort = newValue } }
    }
    private var midiPort: JACKPort?
    let events = JACKClientEvents()
    let notifications: JACKHostNotifications
    var isActive = false
    /// Every connection of this client's ports, for ``reopen()`` to restore.
    let connectionTracker = JACKConnectionTracker()
    /// The engine's render workers (none with one render thread); they outlive a ``reopen()``.
    private lazy var renderWorkers = JACKRenderWorkers(engine: engine)
    /// The stuck-cycle watchdog, once ``startWatchdog(onStuck:)`` ran (guarded by `lock`).
    var watchdog: JACKProcessWatchdog?

    /// Opens the client and registers the layout's ports; call ``activate()`` to start processing.
    /// - Parameters:
    ///   - engine: the engine to run; keep a graph installed whose layout matches `layout`.
    ///   - layout: the ports to register (see ``updatePorts(for:)`` to change them later).
    ///   - clientName: the JACK client name to ask for; see ``actualName`` for the one granted.
    ///   - serverName: the server; `nil` means `$JACK_DEFAULT_SERVER`, else the default server.
    ///   - onFormatChange: called on JACK's notification thread after the sample rate or buffer size changes.
    public init(
        engine: Engine, layout: GraphLayout, clientName: String = "foldback", serverName: String? = nil,
        onFormatChange: FormatChangeHandler? = nil
    ) throws(JACKError) {
        self.engine = engine
        let client = try JACKClient(name: clientName, serverName: serverName)
        openClient = client
        currentLayout = layout   // no ports yet: updatePorts(for:) below registers them all
        notifications = JACKHostNotifications(
            sampleRate: client.sampleRate, bufferSize: client.bufferSize, onFormatChange: onFormatChange)
        notifications.tracker = connectionTracker
        let capacity = engine.configuration
        process = .allocate(capacity: 1)
        process.initialize(to: JACKHostProcess(
            inputs: PortSlotTable(count: capacity.inputCapacity), outputs: PortSlotTable(count: capacity.outputCapacity),
            io: engine.io, cycleContext: engine.cycleContext, cycleFunction: Engine.cycleFunction, cycles: .create(0),
            started: .create(0), frames: .create(0), midi: JACKMIDICapture(), skipsUnconnectedInputs: JACKHostProcess.asksConnections))
        try installCallbacks()
        try updatePorts(for: layout)
    }

    deinit {
        close()
        process.pointee.inputs.deallocate()
        process.pointee.outputs.deallocate()
        process.pointee.cycles.destroy()
        process.pointee.started.destroy()
        process.pointee.frames.destroy()
        process.pointee.midi.deallocate()
        process.deinitialize(count: 1).deallocate()
    }

    /// The client name JACK granted (`foldback-01` when `foldback` was taken).
    public var actualName: String { client.actualName }
    /// The layout whose ports are registered.
    public var layout: GraphLayout { lock.withLock { currentLayout } }
    /// The server's sample rate, in hertz.
    public var sampleRate: Double { client.sampleRate }
    /// The server's period, in frames.
    public var bufferSize: Int { client.bufferSize }
    /// The server's DSP load, in percent.
    public var cpuLoad: Double { client.cpuLoad }
    /// Xruns the server reported since the host opened.
    public var xrunCount: Int { events.xrunCount }
    /// Set once the server shut down or dropped the client; print it, then ``reopen()`` or exit.
    public var shutdown: JACKShutdown? { events.shutdown }
    /// Process cycles completed.
    public var cycleCount: Int { process.pointee.cycles.load(ordering: .acquiring) }

    /// Starts the process callback, and the engine's render workers on JACK threads (see ``Engine/workerCount``).
    public func activate() throws(JACKError) {
        try client.activate()
        lock.withLock { isActive = true }
        try renderWorkers.start(client: client.handle)
    }

    /// The SCHED_FIFO priority of this client's process thread when the server runs realtime, else nil (what a plugin
    /// sandbox's audio thread takes: it gets no priority inheritance from the thread waiting for it).
    public var realtimePriority: Int32? {
        let priority = jack_client_real_time_priority(client.handle)
        return jack_is_realtime(client.handle) != 0 && priority >= 0 ? priority : nil
    }

    /// Whether the engine's render workers run with realtime scheduling (false without workers).
    public var renderWorkersAreRealtime: Bool { renderWorkers.isRealtime }

    /// Stops the process callback and the render workers; the server drops this client's connections.
    public func deactivate() {
        renderWorkers.stop(client: client.handle)
        if shutdown == nil { client.deactivate() }   // a dead server's client is left alone: see close()
        lock.withLock { isActive = false }
    }

    /// Deactivates, removes the ports' metadata and closes the client. Safe to call twice. After a server
    /// shutdown nothing of the dead client is touched (``JACKClient/abandon()``): the program is leaving, and
    /// libjack's close of such a client can wait forever.
    public func close() {
        stopWatchdog()
        renderWorkers.stop(client: client.handle)
        if shutdown != nil { client.abandon() } else { client.close() }
        notifications.clientClosed()
        lock.withLock { isActive = false }
    }

    /// Makes the registered ports match `layout`: keeps ports whose names stay (re-pointing their
    /// channel), registers new ones and unregisters the rest once the process callback has let go of them.
    /// Install the graph with the new layout first, then call this.
    public func updatePorts(for layout: GraphLayout) throws(JACKError) {
        try validate(layout)
        let (oldInputs, oldOutputs) = lock.withLock { (inputPorts, outputPorts) }
        var created: [JACKPort] = []
        let newInputs: [String: JACKPort], newOutputs: [String: JACKPort]
        do {
            newInputs = try ports(for: layout.inputPorts, direction: .input, reusing: oldInputs, created: &created)
            newOutputs = try ports(for: layout.outputPorts, direction: .output, reusing: oldOutputs, created: &created)
        } catch {
            for port in created { client.unregister(port) }   // leave the running layout as it was
            throw error
        }
        publish(layout.inputPorts, ports: newInputs, into: process.pointee.inputs)
        publish(layout.outputPorts, ports: newOutputs, into: process.pointee.outputs)
        lock.withLock {
            currentLayout = layout
            inputPorts = newInputs
            outputPorts = newOutputs
        }
        let latencyChanged = notifications.update(
            latencyPaths: JACKLatencyPaths(layout: layout, inputs: newInputs, outputs: newOutputs))
        let removed = oldInputs.filter { newInputs[$0.key] == nil }.map(\.value)
            + oldOutputs.filter { newOutputs[$0.key] == nil }.map(\.value)
        if !removed.isEmpty {
            waitForCycles(2)
            for port in removed { client.unregister(port) }
        }
        if latencyChanged { jack_recompute_total_latencies(client.handle) }
    }

    /// Connects this client's ports to other clients' ports.
    /// - Parameter plan: this client's short port name → full names of the ports to connect it to
    ///   (`["main_L": ["system:playback_1"], "vox_in": ["system:capture_1"]]`).
    /// - Returns: a warning for each connection not made (a missing target never throws).
    public func connect(_ plan: [String: [String]]) -> [JACKConnectionWarning] {
        let (inputs, outputs) = lock.withLock { (inputPorts, outputPorts) }
        var warnings: [JACKConnectionWarning] = []
        for (portName, targets) in plan.sorted(by: { $0.key < $1.key }) {
            for target in targets {
                let warning: JACKConnectionWarning?
                if let port = inputs[portName] {
                    warning = client.connect(from: target, to: port.name)
                } else if let port = outputs[portName] {
                    warning = client.connect(from: port.name, to: target)
                } else {
                    warning = JACKConnectionWarning(
                        source: "\(actualName):\(portName)", destination: target,
                        reason: "\(actualName) has no port named '\(portName)'")
                }
                if let warning { warnings.append(warning) }
            }
        }
        return warnings
    }

    /// The full JACK name of this client's port with short name `portName`, if registered.
    public func fullName(ofPort portName: String) -> String? {
        lock.withLock { inputPorts[portName]?.name ?? outputPorts[portName]?.name }
    }

    private func validate(_ layout: GraphLayout) throws(JACKError) {
        let slots = [(layout.inputPorts, process.pointee.inputs.count, "input"),
                     (layout.outputPorts, process.pointee.outputs.count, "output")]
        for (ports, capacity, kind) in slots {
            if let bad = ports.first(where: { $0.channel < 0 || $0.channel >= capacity }) {
                throw .invalidArgument("Port '\(bad.name)' uses \(kind) channel \(bad.channel); the engine has \(capacity).")
            }
            if Set(ports.map(\.name)).count != ports.count {
                throw .invalidArgument("The layout names an \(kind) port twice.")
            }
        }
        let inputNames = Set(layout.inputPorts.map(\.name))
        if let clash = layout.outputPorts.first(where: { inputNames.contains($0.name) }) {
            throw .invalidArgument("Port name '\(clash.name)' is used for both an input and an output.")
        }
    }

    /// Registers what is missing (appending it to `created`), keeps what exists, refreshes every pretty name.
    private func ports(
        for layouts: [PortLayout], direction: JACKPortDirection, reusing existing: [String: JACKPort],
        created: inout [JACKPort]
    ) throws(JACKError) -> [String: JACKPort] {
        var result: [String: JACKPort] = [:]
        for port in layouts {
            if let kept = existing[port.name], kept.direction == direction {
                client.setPrettyName(port.prettyName, of: kept)
                result[port.name] = kept
            } else {
                let registered = try client.registerAudioPort(port.name, direction: direction, prettyName: port.prettyName)
                created.append(registered)
                result[port.name] = registered
            }
        }
        return result
    }

    private func publish(_ layouts: [PortLayout], ports: [String: JACKPort], into table: PortSlotTable) {
        var assignment = [OpaquePointer?](repeating: nil, count: table.count)
        for port in layouts { assignment[port.channel] = ports[port.name]?.handle }
        for channel in 0..<table.count where table.load(channel) != assignment[channel] {
            table.store(assignment[channel], at: channel)
        }
    }

    /// Waits (up to 1 s) until `count` more cycles complete, so no cycle still holds an old port.
    private func waitForCycles(_ count: Int) {
        guard lock.withLock({ isActive }) else { return }
        let target = cycleCount + count
        let deadline = Date().addingTimeInterval(1)
        while cycleCount < target && Date() < deadline && shutdown == nil { Thread.sleep(forTimeInterval: 0.001) }
    }

    func installCallbacks() throws(JACKError) {
        try events.install(on: client)
        try client.setProcessCallback(JACKHostProcess.process, context: process)
        guard jack_set_thread_init_callback(client.handle, JACKHostProcess.threadInit, nil) == 0 else {
            throw .callbackRegistrationFailed(callback: "thread-init")
        }
        try notifications.install(on: client)
    }
}
