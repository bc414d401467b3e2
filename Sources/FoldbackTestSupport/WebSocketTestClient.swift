// A small blocking WebSocket client (RFC 6455 text and binary frames over a TCP socket) for tests and probes; libcurl has no WebSocket. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import Foundation
import Glibc

/// A client of one WebSocket at `ws://127.0.0.1:port/path`: sends masked text frames, reads text, binary and close frames.
///
/// For tests (the web surface's own and the end-to-end ones): every read waits at most its timeout.
public final class WebSocketTestClient {
    private let socket: Int32
    private var buffer: [UInt8] = []
    /// Whether the server has closed the socket (a close frame or end of stream).
    public private(set) var isClosed = false

    /// What the upgrade answered when it was not 101 (e.g. `HTTP/1.1 401 Unauthorized`).
    public struct Refused: Error, CustomStringConvertible {
        public let statusLine: String
        public var description: String { "upgrade refused: \(statusLine)" }
    }

    /// Connects to `127.0.0.1:port` and upgrades `path` (e.g. `/ws?token=…`).
    /// - Throws: ``Refused`` when the server answers anything but 101, or an error for no connection.
    public init(port: UInt16, path: String, timeout: Double = 5) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Refused(statusLine: "no socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw Refused(statusLine: "cannot connect to port \(port): errno \(errno)")
        }
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        write(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n".utf8))
        let deadline = Date().addingTimeInterval(timeout)
        while buffer.firstRange(of: Array("\r\n\r\n".utf8)) == nil, fill(until: deadline) {}
        guard let end = buffer.firstRange(of: Array("\r\n\r\n".utf8)) else {
            close(socket)
            throw Refused(statusLine: "no answer to the upgrade")
        }
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
        buffer.removeSubrange(..<end.upperBound)
        let statusLine = head.split(separator: "\r\n").first.map(String.init) ?? ""
        guard statusLine.contains(" 101 ") else {
            close(socket)
            throw Refused(statusLine: statusLine)
        }
    }

    deinit { close(socket) }

    /// Sends `text` as one masked text frame.
    public func send(_ text: String) {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        write(frame)
    }

    /// One message from the server.
    public enum Message: Equatable {
        case text(String)
        case binary([UInt8])
    }

    /// The next text message (binary ones skipped), or nil when the socket closes or `timeout` seconds pass first.
    public func receive(timeout: Double = 5) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while let message = receiveMessage(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if case let .text(text) = message { return text }
        }
        return nil
    }

    /// The next text or binary message, or nil when the socket closes or `timeout` seconds pass first.
    public func receiveMessage(timeout: Double = 5) -> Message? {
        let deadline = Date().addingTimeInterval(timeout)
        var fragments: (opcode: UInt8, bytes: [UInt8])?   // a message sent in several frames (the server's frames are 16 KiB)
        while true {
            if let (opcode, payload, length) = frame() {
                let isFinal = buffer[0] & 0x80 != 0
                buffer.removeFirst(length)
                func message(_ opcode: UInt8, _ bytes: [UInt8]) -> Message {
                    opcode == 0x1 ? .text(String(decoding: bytes, as: UTF8.self)) : .binary(bytes)
                }
                switch opcode {
                case 0x1 where !isFinal, 0x2 where !isFinal: fragments = (opcode, Array(payload))
                case 0x0 where fragments != nil:
                    fragments?.bytes += payload
                    if isFinal, let whole = fragments { return message(whole.opcode, whole.bytes) }
                case 0x1, 0x2: return message(opcode, Array(payload))
                case 0x8:
                    isClosed = true
                    return nil
                default: continue   // ping, pong
                }
            }
            guard !isClosed, fill(until: deadline) else { return nil }
        }
    }

    /// The next message decoded as a JSON object whose `type` is `type` (others skipped), or nil.
    public func next(_ type: String, timeout: Double = 5, where matches: ([String: Any]) -> Bool = { _ in true }) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        while let text = receive(timeout: max(0, deadline.timeIntervalSinceNow)) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { continue }
            if object["type"] as? String == type, matches(object) { return object }
        }
        return nil
    }

    /// The send level of `strip` into `bus` in a pushed `state` message, dB (nil when it has no such send).
    public static func sendLevel(in state: [String: Any], strip: String, bus: String) -> Double? {
        let strips = state["strips"] as? [[String: Any]] ?? []
        let sends = strips.first { $0["name"] as? String == strip }?["sends"] as? [[String: Any]] ?? []
        return (sends.first { $0["bus"] as? String == bus }?[ParameterTree.Key.gain] as? NSNumber)?.doubleValue
    }

    /// One whole unmasked frame at the start of the buffer: opcode, payload, bytes it takes.
    private func frame() -> (UInt8, ArraySlice<UInt8>, Int)? {
        guard buffer.count >= 2 else { return nil }
        var length = Int(buffer[1] & 0x7F), header = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            header = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            header = 10
        }
        guard buffer.count >= header + length else { return nil }
        return (buffer[0] & 0x0F, buffer[header..<(header + length)], header + length)
    }

    /// Reads what arrives before `deadline` into the buffer; false at the deadline or the end of the stream.
    private func fill(until deadline: Date) -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(max(0, min(deadline.timeIntervalSinceNow, 60)) * 1000)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(socket, &chunk, chunk.count, 0)
        guard count > 0 else {
            isClosed = true
            return false
        }
        buffer += chunk[..<count]
        return true
    }

    private func write(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }
}
