// Every HTTP request of the web surface: the token check first (401 without a valid one), then the page or the WebSocket. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FlyingFox
import FoldbackControl
import FoldbackPresets
import Foundation

/// Answers `/`, `/app.js`, `/app.css`, `/qr.svg`, `/response` and `/curve` (engineer only) and `/ws`; anything else is 404 (after the token check).
struct WebRouteHandler: HTTPHandler {
    let access: WebAccess
    let pages: WebPages
    let hub: WebHub
    let control: WebControl

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let token = request.query.first { $0.name == "token" }?.value
        guard let role = access.role(for: token), let token else {
            return Self.text(.unauthorized, "a valid token is needed: use the link foldback printed at start\n")
        }
        guard request.method == .GET else { return Self.text(.methodNotAllowed, "GET only\n") }
        switch request.path {
        case "/", "/index.html":
            return Self.file(pages.index(token: token), type: "text/html; charset=utf-8")
        case "/app.js":
            return Self.file(pages.script, type: "text/javascript; charset=utf-8")
        case "/app.css":
            return Self.file(pages.style, type: "text/css; charset=utf-8")
        case "/qr.svg":
            return qrCode(for: request, role: role)
        case "/response":
            return unitJSON(request, role: role, missing: "no such eq or geq unit", hub.responseText(unit:))
        case "/curve":
            return unitJSON(request, role: role, missing: "no such compressor unit", hub.curveText(unit:))
        case "/ws":
            let links = role == .engineer ? access.busTokens.map { WebSocketSession.Link(bus: $0.bus, token: $0.token) } : []
            let session = WebSocketSession(role: role, hub: hub, control: control, links: links)
            return try await WebSocketHTTPHandler(handler: MessageFrameWSHandler(handler: session)).handleRequest(request)
        default:
            return Self.text(.notFound, "no such page\n")
        }
    }

    /// `/response` or `/curve?unit=PATH`: `make`'s JSON of that unit (engineer only), 404 saying `missing` when it has none.
    private func unitJSON(_ request: HTTPRequest, role: WebRole, missing: String, _ make: (String) -> String?) -> HTTPResponse {
        guard role == .engineer else { return Self.text(.forbidden, "only the engineer's page edits units\n") }
        guard let unit = request.query.first(where: { $0.name == "unit" })?.value, let json = make(unit) else {
            return Self.text(.notFound, missing + "\n")
        }
        return Self.file(Data(json.utf8), type: "application/json")
    }

    /// `/qr.svg?bus=NAME`: the QR code of that bus's link, as reached at the request's `Host` (engineer only).
    private func qrCode(for request: HTTPRequest, role: WebRole) -> HTTPResponse {
        guard role == .engineer else { return Self.text(.forbidden, "only the engineer's page shows the musicians' links\n") }
        let bus = request.query.first { $0.name == "bus" }?.value
        guard let token = access.busTokens.first(where: { $0.bus == bus })?.token,
              let host = request.headers[.host], host.utf8.count <= 255, !host.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" || $0.isWhitespace }),
              let code = QRCode("http://\(host)/?token=\(token)") else {
            return Self.text(.notFound, "no such bus\n")
        }
        return Self.file(Data(code.svg().utf8), type: "image/svg+xml")
    }

    private static func file(_ data: Data, type: String) -> HTTPResponse {
        HTTPResponse(statusCode: .ok, headers: [
            .contentType: type, .cacheControl: "no-store", HTTPHeader("Referrer-Policy"): "no-referrer",
            HTTPHeader("X-Content-Type-Options"): "nosniff",
        ], body: data)
    }

    private static func text(_ status: HTTPStatusCode, _ text: String) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"], body: Data(text.utf8))
    }
}

/// The page's files, read once from the installed or the repository's web folder (or the package's resources).
struct WebPages: Sendable {
    let indexTemplate: String
    let script: Data
    let style: Data

    /// The placeholder in `index.html` replaced by the page's token (tokens are URL-safe by construction).
    static let tokenPlaceholder = "__TOKEN__"

    /// The folder the files are read from: an installed `share/foldback/web` (`/usr/share/foldback/web` beside
    /// `/usr/bin/foldback`), else the repository's own, else nil (then the build's resource bundle).
    static var folder: String? {
        SharedData.searchedDirectories(repository: "Sources/FoldbackWeb/Resources", installed: "share/foldback/web")
            .first { FileManager.default.fileExists(atPath: $0 + "/index.html") }
    }

    static func load() throws(ControlError) -> WebPages {
        let folder = Self.folder
        func read(_ name: String, _ type: String) throws(ControlError) -> Data {
            let url = folder.map { URL(fileURLWithPath: "\($0)/\(name).\(type)") }
                ?? Bundle.module.url(forResource: name, withExtension: type, subdirectory: "Resources")
            guard let url, let data = try? Data(contentsOf: url) else {
                throw .failed("the web page's \(name).\(type) is missing from the FoldbackWeb resources")
            }
            return data
        }
        var script = Data()   // the console, the unit editors, their outputs, the analyser, groups and playback panels and binaural stage plots ride with app.js
        for name in ["app", "tree", "console", "editors", "outputs", "analyser", "groups", "playback", "stage"] { script += try read(name, "js") + Data("\n".utf8) }
        return WebPages(
            indexTemplate: String(decoding: try read("index", "html"), as: UTF8.self),
            script: script,
            style: try read("app", "css"))
    }

    /// `index.html` with its asset links carrying `token`.
    func index(token: String) -> Data {
        Data(indexTemplate.replacingOccurrences(of: Self.tokenPlaceholder, with: token).utf8)
    }
}
