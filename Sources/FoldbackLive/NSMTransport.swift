// OSC over UDP for the NSM protocol through liblo: one socket to send from and receive on. Non-realtime.
import CLo
import Foundation

/// One OSC argument as NSM uses them.
package enum NSMArgument: Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case int(Int32)
    case float(Float)

    /// The string, if this is one.
    package var string: String? { if case .string(let value) = self { value } else { nil } }
    /// The integer, if this is one.
    package var int: Int32? { if case .int(let value) = self { value } else { nil } }

    package var description: String {
        switch self {
        case .string(let value): return "\"\(value)\""
        case .int(let value): return "\(value)"
        case .float(let value): return "\(value)"
        }
    }
}

/// A received OSC message and where it came from (so it can be answered).
package struct NSMMessage: Sendable, Equatable {
    /// The OSC path, e.g. `/nsm/client/open`.
    package var path: String
    /// The arguments, in order (types other than s, i and f are left out).
    package var arguments: [NSMArgument]
    /// The sender's URL, `osc.udp://host:port/`.
    package var sourceURL: String
}

/// Why an NSM connection could not be set up.
package struct NSMError: Error, CustomStringConvertible {
    package let description: String
}

/// A liblo UDP server on a free port: sends messages from its own socket (so replies come back to it)
/// and receives every message into a queue that ``receive(timeout:)`` returns. Use from one thread.
package final class NSMTransport {
    private let server: lo_server
    private let inbox: UnsafeMutablePointer<[NSMMessage]>

    /// Opens a UDP socket on a free port (or `port`).
    package init(port: String? = nil) throws(NSMError) {
        guard let server = lo_server_new(port, nil) else {
            throw NSMError(description: "cannot open an OSC (UDP) socket\(port.map { " on port \($0)" } ?? "")")
        }
        self.server = server
        inbox = .allocate(capacity: 1)
        inbox.initialize(to: [])
        lo_server_add_method(server, nil, nil, Self.handler, inbox)
    }

    deinit {
        lo_server_free(server)
        inbox.deinitialize(count: 1).deallocate()
    }

    /// This socket's URL, `osc.udp://host:port/`.
    package var url: String {
        guard let text = lo_server_get_url(server) else { return "" }
        defer { free(text) }
        return String(cString: text)
    }

    /// Sends `path` with `arguments` to the OSC server at `url`; false if it could not be sent.
    @discardableResult
    package func send(to url: String, _ path: String, _ arguments: [NSMArgument] = []) -> Bool {
        guard let address = lo_address_new_from_url(url) else { return false }
        defer { lo_address_free(address) }
        guard let message = lo_message_new() else { return false }
        defer { lo_message_free(message) }
        for argument in arguments {
            switch argument {
            case .string(let value): lo_message_add_string(message, value)
            case .int(let value): lo_message_add_int32(message, value)
            case .float(let value): lo_message_add_float(message, value)
            }
        }
        return lo_send_message_from(address, server, path, message) >= 0
    }

    /// Waits up to `timeout` seconds for messages and returns every one received (empty on timeout).
    package func receive(timeout: Double) -> [NSMMessage] {
        var waitMs = Int32(max(0, timeout * 1000))
        while lo_server_recv_noblock(server, waitMs) > 0 { waitMs = 0 }
        defer { inbox.pointee.removeAll() }
        return inbox.pointee
    }

    private static let handler: lo_method_handler = { path, types, argv, argc, message, userData in
        guard let path, let userData else { return 1 }
        let typeText = types.map { String(cString: $0) } ?? ""
        var arguments: [NSMArgument] = []
        for (index, type) in typeText.utf8.prefix(Int(argc)).enumerated() {
            guard let argument = argv?[index] else { continue }
            switch type {
            case UInt8(ascii: "s"), UInt8(ascii: "S"):
                arguments.append(.string(String(cString: UnsafeRawPointer(argument).assumingMemoryBound(to: CChar.self))))
            case UInt8(ascii: "i"): arguments.append(.int(argument.pointee.i))
            case UInt8(ascii: "f"): arguments.append(.float(argument.pointee.f))
            default: continue
            }
        }
        var source = ""
        if let message, let address = lo_message_get_source(message), let text = lo_address_get_url(address) {
            source = String(cString: text)
            free(text)
        }
        let inbox = userData.assumingMemoryBound(to: [NSMMessage].self)
        inbox.pointee.append(NSMMessage(path: String(cString: path), arguments: arguments, sourceURL: source))
        return 0
    }
}
