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
    /// The X32 protocol's UDP port (`--x32-port`; conventionally 10023), or nil for none.
    package var x32Port: UInt16?
    /// The X-Air protocol's UDP port (`--xair-port`; conventionally 10024), or nil for none.
    package var xairPort: UInt16?
    /// The address the X32 and X-Air ports listen on (the protocol has no authentication).
    package var x32Bind = "127.0.0.1"
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
        if x32Port == nil && xairPort == nil && x32Bind != "127.0.0.1" { return "--x32-bind needs --x32-port or --xair-port" }
        if let x32Port, x32Port == xairPort, x32Port != 0 { return "--x32-port and --xair-port must differ (both are \(x32Port))" }
        for (option, address) in [("--web-bind", webBind), ("--osc-bind", oscBind), ("--x32-bind", x32Bind)] where OSCPeer(host: address, port: 0) == nil {
            return "\(option) '\(address)' is not an IPv4 address (127.0.0.1 for this machine, 0.0.0.0 for every interface)"
        }
        do {
            _ = try filePolicy()
        } catch {
            return "--allow-dir: \(error)"
        }
        return nil
    }

    /// The first surface port that cannot be bound now (used, privileged, an address not on this machine), as the
    /// one line to print, or nil: checked before anything starts, so a show never half-starts on a taken port.
    package var portProblem: String? {
        var probes: [PortProbe] = []
        if let webPort { probes.append(PortProbe(surface: "web", option: "--web-port", transport: .tcp, host: webBind, port: webPort)) }
        if let oscPort { probes.append(PortProbe(surface: "OSC", option: "--osc-port", transport: .udp, host: oscBind, port: oscPort)) }
        if let x32Port { probes.append(PortProbe(surface: "X32", option: "--x32-port", transport: .udp, host: x32Bind, port: x32Port)) }
        if let xairPort { probes.append(PortProbe(surface: "X-Air", option: "--xair-port", transport: .udp, host: x32Bind, port: xairPort)) }
        return probes.lazy.compactMap { $0.problem() }.first
    }
}

/// A live session could not start; what went wrong was printed, and the process should exit with ``status``.
package struct LiveStartFailure: Error, Sendable {
    /// The exit status (2: bad input such as an unreadable source file).
    package let status: Int32
}
