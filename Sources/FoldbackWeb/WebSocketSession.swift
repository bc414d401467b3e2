// One page's WebSocket: its requests applied in order off the audio thread, its pushes queued with a bound. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FlyingFox
import Foundation

/// The messages of one connected page, holding the role its token granted at the upgrade.
///
/// Requests are applied one at a time on ``WebSocketSession/queue`` (shared by every page, so web moves are
/// applied in arrival order and never on the server's async threads). A malformed message (bad JSON, unknown
/// keys, too long, binary) gets an error and closes the connection; a refused one (another bus, out of range)
/// gets an error and the page stays connected. Either way nothing changes.
struct WebSocketSession: WSMessageHandler {
    let role: WebRole
    let hub: WebHub
    let control: WebControl
    /// The musicians' tokens, told to the engineer's page only (for its links and QR codes).
    let links: [Link]

    /// One bus's musician token.
    struct Link: Encodable {
        var bus: String
        var token: String
    }

    /// Where every page's requests run (a serial queue: a preset reload never blocks the server's threads).
    static let queue = DispatchQueue(label: "foldback-web-control")

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        let (outbox, continuation) = AsyncStream.makeStream(of: WSMessage.self, bufferingPolicy: .bufferingNewest(WebHub.outboxLimit))
        continuation.yield(.text(Hello(role: role, links: links).jsonText()))
        let id = hub.add(role: role) { continuation.yield($0) }
        continuation.onTermination = { [hub] _ in hub.remove(id) }
        let role = role, control = control, hub = hub
        Task {
            defer { continuation.finish() }
            for await message in client {
                guard case let .text(text) = message else {
                    if case .data = message {
                        continuation.yield(.text(Reply.error("malformed: binary messages are not taken")))
                        continuation.yield(.close(.unsupportedData))
                    }
                    return
                }
                let outcome: Result<WebRequest, WebRefusal> = await withCheckedContinuation { done in
                    Self.queue.async { done.resume(returning: Result { () throws(WebRefusal) in try control.apply(text: text, as: role) }) }
                }
                switch outcome {
                case let .success(request):
                    if case let .analyser(source) = request { hub.setWantsSpectrum(id, source != "off") }
                    if case let .meters(perSecond) = request { hub.setMeterRate(id, perSecond) }
                    continuation.yield(.text(Reply.ok))
                case let .failure(refusal):
                    continuation.yield(.text(Reply.error(refusal.description)))
                    if case .malformed = refusal {
                        continuation.yield(.close(.policyViolation))
                        return
                    }
                }
            }
        }
        return outbox
    }

    /// The first message a page gets: who it is.
    private struct Hello: Encodable {
        var type = "hello"
        var role: String
        var bus: String?
        var links: [Link]?
        /// The server takes `{"meters": rate}` and then sends levels as binary frames (``WebMeterFrame``).
        var meters = true

        init(role: WebRole, links: [Link]) {
            self.links = links.isEmpty ? nil : links
            switch role {
            case .engineer: self.role = "engineer"
            case let .musician(bus): self.role = "musician"; self.bus = bus
            }
        }
    }

    /// The answer to each request: `{"type":"ok"}` or `{"type":"error","reason":…}`.
    private enum Reply {
        static let ok = #"{"type":"ok"}"#
        static func error(_ reason: String) -> String {
            struct Error: Encodable { var type = "error"; var reason: String }
            return Error(reason: String(reason.prefix(500))).jsonText()
        }
    }
}
