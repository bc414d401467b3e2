// A headless Chromium driven over the W3C WebDriver protocol (Debian's chromium-driver), for end-to-end page tests. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import XCTest
import FoldbackTestSupport

/// One chromedriver process and one browser session emulating a phone (360 × 740 CSS pixels, touch).
final class WebDriverSession {
    private let driver = Process()
    private let port: UInt16
    private var session = ""

    /// Starts chromedriver and a headless Chromium session; skips the test when either is not installed.
    /// A session emulating a screen of `width` × `height` CSS pixels (a phone by default).
    init(width: Int = 360, height: Int = 740) throws {
        let chromium = "/usr/bin/chromium", chromedriver = "/usr/bin/chromedriver"
        guard FileManager.default.isExecutableFile(atPath: chromium), FileManager.default.isExecutableFile(atPath: chromedriver) else {
            throw XCTSkip("chromium and chromium-driver are not installed (make test-deps installs them)")
        }
        let port = UInt16.random(in: 20_000...60_000)
        self.port = port
        driver.executableURL = URL(fileURLWithPath: chromedriver)
        driver.arguments = ["--port=\(port)", "--silent"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        let deadline = Date().addingTimeInterval(20)
        var status: Result<[String: Any], any Error> = .success([:])
        while (try? status.get())?["ready"] as? Bool != true {
            guard Date() < deadline, driver.isRunning else { throw FoldbackRun.Failure("chromedriver did not start: \(status)") }
            usleep(50_000)
            status = Result { try call("GET", "/status") }
        }
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("foldback-chromium-\(UUID().uuidString)").path
        let created = try call("POST", "/session", [
            "capabilities": ["alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": [
                "binary": chromium,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--user-data-dir=\(profile)"],
                "mobileEmulation": ["deviceMetrics": ["width": width, "height": height, "pixelRatio": 2, "touch": width < 800]],
            ]]],
        ])
        session = try XCTUnwrap(created["sessionId"] as? String, "a WebDriver session: \(created)")
    }

    deinit { close() }

    func close() {
        if !session.isEmpty { _ = try? call("DELETE", "/session/\(session)") }
        session = ""
        driver.stop(signal: SIGTERM, within: 10)
    }

    /// Opens `url` in the session's window.
    func open(_ url: String) throws { _ = try call("POST", "/session/\(session)/url", ["url": url]) }

    /// Runs `script` (a function body; `arguments[i]` are `args`) in the page and returns its result.
    @discardableResult
    func run(_ script: String, _ args: [Any] = []) throws -> Any? {
        try call("POST", "/session/\(session)/execute/sync", ["script": script, "args": args])["value"]
    }

    /// Waits until `script` returns true in the page.
    func wait(until script: String, timeout: Double = 10, _ what: String) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while (try run(script)) as? Bool != true {
            guard Date() < deadline else { throw FoldbackRun.Failure("the page never showed \(what)") }
            usleep(20_000)
        }
    }

    /// Opens a new tab and returns its handle (the session stays on the current one).
    func newTab() throws -> String {
        let reply = try call("POST", "/session/\(session)/window/new", ["type": "tab"])
        return try XCTUnwrap((reply["value"] as? [String: Any])?["handle"] as? String)
    }

    /// The current tab's handle.
    func currentTab() throws -> String { try XCTUnwrap(try call("GET", "/session/\(session)/window")["value"] as? String) }

    /// Makes tab `handle` the one commands go to.
    func switchTo(_ handle: String) throws { _ = try call("POST", "/session/\(session)/window", ["handle": handle]) }

    /// Drags with one finger (`pointerType` "touch") or the mouse from `points[0]` through each of the others (viewport CSS
    /// pixels), `stepMs` apart, and lifts: chromedriver dispatches them as real input events (CDP `Input.dispatch…`), so the
    /// page sees pointerdown, pointermove and pointerup as from a hand.
    func drag(_ points: [(x: Double, y: Double)], pointerType: String = "touch", stepMs: Int = 30) throws {
        guard let first = points.first else { return }
        var steps: [[String: Any]] = [["type": "pointerMove", "duration": 0, "x": Int(first.x.rounded()), "y": Int(first.y.rounded())], ["type": "pointerDown", "button": 0]]
        for point in points.dropFirst() {
            steps.append(["type": "pointerMove", "duration": stepMs, "origin": "viewport", "x": Int(point.x.rounded()), "y": Int(point.y.rounded())])
        }
        steps.append(["type": "pointerUp", "button": 0])
        _ = try call("POST", "/session/\(session)/actions", ["actions": [["type": "pointer", "id": "finger", "parameters": ["pointerType": pointerType], "actions": steps]]])
        _ = try call("DELETE", "/session/\(session)/actions")
    }

    /// A PNG of the window.
    func screenshot() throws -> Data {
        let text = try XCTUnwrap(try call("GET", "/session/\(session)/screenshot")["value"] as? String)
        return try XCTUnwrap(Data(base64Encoded: text))
    }

    /// One WebDriver request; the reply's JSON object (its `value` for most commands).
    private func call(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> [String: Any] {
        let data = try Self.exchange(port: port, method: method, path: path, body: body.map { try JSONSerialization.data(withJSONObject: $0) })
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        if let value = object["value"] as? [String: Any], let error = value["error"] as? String {
            throw FoldbackRun.Failure("WebDriver \(method) \(path): \(error): \(value["message"] ?? "")")
        }
        return (object["value"] as? [String: Any]).map { path.hasSuffix("/session") || path.hasSuffix("/status") ? $0 : object } ?? object
    }

    /// One HTTP/1.1 request to chromedriver on 127.0.0.1 and the body of its answer. A raw socket, because
    /// chromedriver writes `Content-Length:249` (no space), which Foundation's URLSession on Linux refuses.
    private static func exchange(port: UInt16, method: String, path: String, body: Data?) throws -> Data {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FoldbackRun.Failure("no socket") }
        defer { Glibc.close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw FoldbackRun.Failure("chromedriver is not listening on \(port)") }
        let payload = body ?? Data()
        var request = Data("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n".utf8)
        request += Data("Content-Type: application/json\r\nContent-Length: \(payload.count)\r\n\r\n".utf8) + payload
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)   // a stuck driver fails the test instead of hanging it
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var answer = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let end = answer.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: answer[..<end.lowerBound], as: UTF8.self).lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
                if let length, answer.count - end.upperBound >= length { return answer[end.upperBound..<(end.upperBound + length)] }
            }
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { break }
            answer.append(contentsOf: chunk[..<count])
        }
        guard let end = answer.range(of: Data("\r\n\r\n".utf8)) else { throw FoldbackRun.Failure("no HTTP answer from chromedriver") }
        return answer[end.upperBound...]
    }
}
