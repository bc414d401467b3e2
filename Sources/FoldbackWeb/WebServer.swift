// The HTTP + WebSocket server of the web control surface (FlyingFox), its token checks and static pages. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackControl
import FlyingFox
import Foundation

/// Serves the page (`/`, `/app.js`, `/app.css`) and its WebSocket (`/ws`) on one address and port.
///
/// Every request must carry a valid token (`?token=…`); without one the answer is 401 and nothing else
/// happens. The server runs on Swift concurrency's threads and its own push thread, never the audio thread;
/// changes go through the shared ``ControlRouter`` (see ``WebControl``). See docs/web.md.
public final class WebServer: @unchecked Sendable {
    /// Who holds which token.
    public let access: WebAccess
    private let server: HTTPServer
    private let hub: WebHub
    private let control: WebControl
    private let pages: WebPages
    private var task: Task<Void, any Error>?
    /// The bound port (the one asked for, or the one picked for port 0), set by ``start()``.
    public private(set) var port: UInt16 = 0
    /// The bound address.
    public let host: String

    /// A server for `target` on `host:port` (port 0 picks a free one); call ``start()`` to listen.
    /// `status` gives the DSP load (percent) and xrun count shown on the engineer's page.
    /// - Throws: ``ControlError/failed(_:)`` for an address that is not IPv4, or missing page resources.
    public init(
        target: any LiveControlTarget, router: ControlRouter, setlist: SetlistController?, access: WebAccess,
        host: String, port: UInt16, status: @escaping @Sendable () -> (load: Double, xruns: Int),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(ControlError) {
        guard OSCPeer(host: host, port: port) != nil, let address = try? sockaddr_in.inet(ip4: host, port: port) else {
            throw .failed("web address '\(host)' is not an IPv4 address")
        }
        self.access = access
        self.host = host
        self.port = port
        pages = try WebPages.load()
        control = WebControl(router: router, log: log)
        hub = WebHub(target: target, setlist: setlist, status: status)
        server = HTTPServer(address: address, timeout: 15, logger: .disabled)
    }

    deinit { stop() }

    /// Starts listening and waits (up to 5 s) until it does; returns the bound port.
    /// - Throws: ``ControlError/failed(_:)`` if the address cannot be bound.
    @discardableResult
    public func start() throws(ControlError) -> UInt16 {
        let handler = WebRouteHandler(access: access, pages: pages, hub: hub, control: control)
        let server = server
        let failure = ResultBox<Void>()
        task = Task {
            do { try await server.run() } catch { failure.result = .failure(error) }
        }
        let result = Self.wait { () async throws -> UInt16? in
            await server.appendRoute("*", to: handler)
            // Until it listens, or at once when its run ends (a port taken since foldback checked it: bind failed).
            for _ in 0..<500 where failure.result == nil {
                if await server.isListening, case let .ip4(_, port)? = await server.listeningAddress { return port }
                try await Task.sleep(for: .milliseconds(10))
            }
            if case let .failure(error)? = failure.result { throw error }
            return nil
        }
        guard case let .success(port?) = result else {
            stop()
            let reason: String
            switch result {
            case let .failure(error): reason = "\(error)"
            case .success: reason = "not listening after 5 s"
            }
            throw .failed("cannot serve the web surface on \(host):\(port): \(reason)")
        }
        self.port = port
        return port
    }

    /// Stops the server and its push thread. Safe to call twice.
    public func stop() {
        hub.stop()
        guard let task else { return }
        self.task = nil
        let server = server
        _ = Self.wait { await server.stop(timeout: 0.3) }
        task.cancel()
    }

    /// Pages connected now.
    public var pageCount: Int { hub.pageCount }

    /// The page's address for `token` when reached at `host` (the bound address unless a better one is known).
    public func link(token: String, host: String? = nil) -> String {
        "http://\(host ?? self.host):\(port)/?token=\(token)"
    }

    /// One line per role: the engineer's link, then each bus's.
    public func accessLines(host: String? = nil) -> [String] {
        ["engineer: \(link(token: access.engineerToken, host: host))"]
            + access.busTokens.map { "bus '\($0.bus)': \(link(token: $0.token, host: host))" }
    }

    /// Runs `work` to completion from synchronous code (never call from an async context).
    private static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task {
            do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return box.result ?? .failure(CancellationError())
    }
}

private final class ResultBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Result<T, any Error>?
    var result: Result<T, any Error>? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
