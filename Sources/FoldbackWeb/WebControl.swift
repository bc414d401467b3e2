// Applies checked web requests through the shared ControlRouter (the same path as OSC and MIDI), role by role. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackControl

/// Turns a page's request into the OSC message the ``ControlRouter`` would get from an OSC client, after the
/// role check, so web moves are smoothed, range-checked and saved exactly like OSC and MIDI moves.
public final class WebControl: Sendable {
    private let router: ControlRouter
    private let log: @Sendable (String) -> Void
    /// The router needs a sender; web requests never subscribe to OSC meters, so nothing is sent to it.
    private static let peer = OSCPeer(host: "127.0.0.1", port: 9)!
    /// The one command a musician may run, where the preset allows it: a tap of the show tempo.
    private static let tap = "tempo/tap"

    /// Applies requests through `router`; `log` hears every refusal (and why).
    public init(router: ControlRouter, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.router = router
        self.log = log
    }

    /// Parses `text` and applies it as `role`; returns the request applied.
    /// - Throws: ``WebRefusal`` saying why nothing changed.
    @discardableResult
    public func apply(text: String, as role: WebRole) throws(WebRefusal) -> WebRequest {
        do {
            let request = try WebRequest.parse(text)
            try apply(request, as: role)
            return request
        } catch {
            log("web request from \(role) refused: \(error)")
            throw error
        }
    }

    /// Applies `request` as `role`: nothing changes unless the role may make the change and the router accepts it.
    public func apply(_ request: WebRequest, as role: WebRole) throws(WebRefusal) {
        let message: OSCMessage
        switch request {
        case let .set(path, value):
            let components = path.dropFirst(ControlRouter.root.count + 1).split(separator: "/", omittingEmptySubsequences: false)
            guard components.last != "get", components.last != "latency" else { throw .malformed("a page sets values; queries are not taken") }
            guard let tree = router.parameterTree else { throw .refused("no graph is running yet") }
            if role != .engineer, tree.node(at: components.joined(separator: "/")) == nil {
                throw .refused("no parameter \(path.prefix(WebRequest.maximumPathBytes)) in this show")
            }
            guard WebAccess.mayChange(role, components, in: tree) else {
                throw .forbidden("the \(role) may not change \(path.prefix(WebRequest.maximumPathBytes))")
            }
            message = OSCMessage(path, [.float(value)])
        case let .command(command):
            guard role == .engineer || (command == Self.tap && router.musiciansMayTapTempo) else {
                throw .forbidden(command == Self.tap
                    ? "the \(role) may not tap the tempo: the preset does not allow it ([web] musicians_tap_tempo = true does)"
                    : "only the engineer may run \(command)")
            }
            message = OSCMessage(ControlRouter.root + "/" + command)
        case .meters:
            return   // the page's own meter rate (WebHub): nothing in the show changes
        case let .analyser(source):
            guard role == .engineer else { throw .forbidden("only the engineer may use the analyser") }
            message = OSCMessage(ControlRouter.root + "/analyser/select", [.string(source)])
        }
        let replies = router.handle(message, from: Self.peer, surface: .web)
        if let error = replies.first(where: { $0.path == OSCServer.errorPath }) {
            throw .refused(error.arguments.last?.text ?? "refused")
        }
    }
}
