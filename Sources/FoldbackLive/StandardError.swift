// Writes diagnostics to standard error, one line at a time. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard error for diagnostics, so standard output carries only the report.
package enum StandardError {
    /// Writes `line` and a newline.
    package static func writeLine(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            offset += written
        }
    }
}
