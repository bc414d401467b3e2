// Encodes and decodes OSC packets with liblo (lo_message_serialise / lo_message_deserialise). Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CLo
import Glibc

/// Turns ``OSCMessage`` values into OSC packets and back, through liblo.
public enum OSCCodec {
    /// The packet for `message`.
    /// - Throws: ``ControlError/malformed(_:)`` if liblo cannot build it (an invalid path, say).
    public static func encode(_ message: OSCMessage) throws(ControlError) -> [UInt8] {
        guard let handle = lo_message_new() else { throw .malformed("cannot allocate an OSC message") }
        defer { lo_message_free(handle) }
        for argument in message.arguments {
            switch argument {
            case let .int(value): lo_message_add_int32(handle, value)
            case let .float(value): lo_message_add_float(handle, value)
            case let .string(value): lo_message_add_string(handle, value)
            case let .blob(bytes):
                guard let blob = bytes.withUnsafeBytes({ lo_blob_new(Int32(bytes.count), $0.baseAddress) }) else {
                    throw .malformed("cannot allocate an OSC blob")
                }
                defer { lo_blob_free(blob) }
                lo_message_add_blob(handle, blob)   // liblo copies the blob's bytes into the message
            }
        }
        var size = 0
        guard message.path.hasPrefix("/"),
              let raw = lo_message_serialise(handle, message.path, nil, &size) else {
            throw .malformed("cannot encode an OSC message to '\(message.path)'")
        }
        defer { free(raw) }
        return Array(UnsafeRawBufferPointer(start: raw, count: size))
    }

    /// The message in `packet`.
    /// - Throws: ``ControlError/malformed(_:)`` for a packet that is not one OSC message (bundles included)
    ///   or that carries an argument type other than `i`, `f`, `s`, `b` (`d` and `h` are narrowed to `f` and `i`).
    public static func decode(_ packet: [UInt8]) throws(ControlError) -> OSCMessage {
        guard let first = packet.first, first == UInt8(ascii: "/") else {
            throw .malformed(packet.starts(with: Array("#bundle".utf8)) ? "OSC bundles are not supported; send single messages" : "not an OSC message")
        }
        var result: Int32 = 0
        let decoded = packet.withUnsafeBytes { bytes in
            lo_message_deserialise(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count, &result)
        }
        guard let handle = decoded, result == 0 else { throw .malformed("not a well-formed OSC message (liblo error \(result))") }
        defer { lo_message_free(handle) }
        let path = packet.withUnsafeBytes { bytes in
            String(cString: bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        let count = Int(lo_message_get_argc(handle))
        guard count > 0 else { return OSCMessage(path) }
        guard let types = lo_message_get_types(handle), let argv = lo_message_get_argv(handle) else {
            throw .malformed("\(path): unreadable arguments")
        }
        var arguments: [OSCArgument] = []
        for index in 0..<count {
            guard let value = argv[index] else { throw .malformed("\(path): missing argument \(index + 1)") }
            let tag = UInt8(bitPattern: types[index])
            switch tag {
            case UInt8(ascii: "i"): arguments.append(.int(value.pointee.i))
            case UInt8(ascii: "h"): arguments.append(.int(Int32(clamping: value.pointee.h)))
            case UInt8(ascii: "f"): arguments.append(.float(value.pointee.f))
            case UInt8(ascii: "d"): arguments.append(.float(Float(value.pointee.d)))
            case UInt8(ascii: "s"), UInt8(ascii: "S"):
                arguments.append(.string(String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))))
            case UInt8(ascii: "b"):
                let blob = UnsafeMutableRawPointer(value)
                let size = Int(lo_blob_datasize(blob))
                let bytes = lo_blob_dataptr(blob).map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
                arguments.append(.blob(bytes))
            case UInt8(ascii: "T"): arguments.append(.int(1))
            case UInt8(ascii: "F"): arguments.append(.int(0))
            default:
                throw .malformed("\(path): argument \(index + 1) has OSC type '\(Character(Unicode.Scalar(tag)))'; Foldback reads i, f, s and b")
            }
        }
        return OSCMessage(path, arguments)
    }
}
