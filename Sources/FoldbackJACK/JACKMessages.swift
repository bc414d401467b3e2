// Routes libjack's own error and info messages to swift-log at debug level. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Atomics
import CJack
import Logging

/// libjack prints several lines of noise ("Cannot connect to server socket…", "CheckRes error") when
/// a server is absent or goes away. FoldbackJACK turns those situations into one clear ``JACKError`` or
/// ``JACKShutdown``, so the library's own lines go to the `foldback.jack` logger at debug level (shown
/// when the program raises its log level) and are dropped entirely while a client is being opened.
enum JACKMessages {
    private static let quietDepth = ManagedAtomic<Int>(0)
    private static let installed = ManagedAtomic<Bool>(false)
    private static let logger = Logger(label: "foldback.jack")

    /// Installs the message handlers once per process.
    static func install() {
        guard installed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        jack_set_error_function(forward)
        jack_set_info_function(forward)
    }

    /// Runs `body` with libjack's messages dropped.
    static func quietly<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        install()
        quietDepth.wrappingIncrement(ordering: .acquiringAndReleasing)
        defer { quietDepth.wrappingDecrement(ordering: .acquiringAndReleasing) }
        return try body()
    }

    private static let forward: @convention(c) (UnsafePointer<CChar>?) -> Void = { message in
        guard let message, JACKMessages.quietDepth.load(ordering: .acquiring) == 0 else { return }
        JACKMessages.logger.debug("libjack: \(String(cString: message))")
    }
}
