// What a live session's control surfaces are: OSC, the web surface, the folders they may use, reloading, the meter view. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
package import FoldbackControl

/// The live-control settings of a session (the CLI's `ControlOptions` fill them from the command line).
package struct LiveControlSettings: Sendable {
    /// OSC's UDP port (0 picks a free one), or nil for no OSC.
    package var oscPort: UInt16?
    /// The address OSC listens on.
    package var oscBind = "127.0.0.1"
    /// The web surface's TCP port (0 picks a free one), or nil for none.
    package var webPort: UInt16?
    /// The address the web surface listens on.
    package var webBind = "127.0.0.1"
    /// More folders whose `.toml` files control requests may read and write.
    package var allowDir: [String] = []
    /// Reload the preset when its file changes.
    package var watch = false
    /// Show the full-screen meter view instead of the status line.
    package var meters = false
    /// Print each musician's link as a QR code in the terminal at start (`--qr`; the engineer's page shows them on demand).
    package var showsQR = false
    /// Make new web tokens instead of the show's stored ones, and store those (`--fresh-tokens`: rotates every link).
    package var freshTokens = false

    /// No OSC, no web, no watching, the status line.
    package init() {}

    /// The files control requests may read and write: `.toml` files in the running preset's folder, the
    /// setlist's (added by the router) and each ``allowDir`` folder.
    package func filePolicy() throws(ControlError) -> FilePathPolicy {
        try FilePathPolicy(folders: allowDir)
    }

    /// What is wrong with these options as given on the command line (a bind without its port, an address that is
    /// not IPv4, an `--allow-dir` that cannot be used), or nil.
    package var problem: String? {
        if oscPort == nil && oscBind != "127.0.0.1" { return "--osc-bind needs --osc-port" }
        if webPort == nil && webBind != "127.0.0.1" { return "--web-bind needs --web-port" }
        for (option, address) in [("--web-bind", webBind), ("--osc-bind", oscBind)] where OSCPeer(host: address, port: 0) == nil {
            return "\(option) '\(address)' is not an IPv4 address (127.0.0.1 for this machine, 0.0.0.0 for every interface)"
        }
        do {
            _ = try filePolicy()
        } catch {
            return "--allow-dir: \(error)"
        }
        return nil
    }
}

/// A live session could not start; what went wrong was printed, and the process should exit with ``status``.
package struct LiveStartFailure: Error, Sendable {
    /// The exit status (2: bad input such as an unreadable source file).
    package let status: Int32
}
