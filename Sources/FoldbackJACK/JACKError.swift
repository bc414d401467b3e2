// The errors FoldbackJACK throws and the decoding of jack_status_t into plain words. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// What went wrong talking to JACK, worded for the person at the mixing desk.
public enum JACKError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No JACK server with this name is running (`serverName` is `"default"` for the default server).
    case serverNotRunning(serverName: String)
    /// The server refused or failed to open the client; `reasons` are the decoded jack_status_t bits.
    case clientOpenFailed(clientName: String, serverName: String, reasons: [String])
    /// The client was already closed.
    case clientClosed(clientName: String)
    /// jack_port_register failed, usually because the name is taken or too long.
    case portRegistrationFailed(port: String)
    /// jack_activate returned a non-zero code.
    case activationFailed(clientName: String, code: Int32)
    /// A callback could not be installed (the client was already active, or the server refused).
    case callbackRegistrationFailed(callback: String)
    /// No port with this full name exists on the server.
    case portNotFound(port: String)
    /// The `jackd` executable is not on PATH.
    case jackdNotInstalled
    /// `jackd` could not be launched or exited before it accepted clients.
    case serverStartFailed(serverName: String, detail: String, logPath: String)
    /// `jackd` was launched but did not accept clients before the deadline.
    case serverStartTimedOut(serverName: String, seconds: Double, logPath: String)
    /// The server shut down or threw the client out; `reason` is the server's own wording.
    case serverShutDown(reason: String)
    /// A recording or playback wait passed its deadline.
    case timedOut(what: String, seconds: Double)
    /// A caller passed a value FoldbackJACK cannot use.
    case invalidArgument(String)
    /// JACK could not create a render worker thread (jack_client_create_thread's error number).
    case workerThreadFailed(code: Int32)

    /// The message to print.
    public var description: String {
        switch self {
        case .serverNotRunning(let server):
            return "No JACK server named '\(server)' is running. Start one (for example with qjackctl or "
                + "`jackd -d alsa`), point --server at a running one, or let foldback start a private server "
                + "with `--start-server dummy`."
        case .clientOpenFailed(let client, let server, let reasons):
            let why = reasons.isEmpty ? "unknown reason" : reasons.joined(separator: "; ")
            return "JACK server '\(server)' refused to open client '\(client)': \(why)."
        case .clientClosed(let client):
            return "JACK client '\(client)' is already closed."
        case .portRegistrationFailed(let port):
            return "Could not register JACK port '\(port)' (name taken, too long, or the server is out of ports)."
        case .activationFailed(let client, let code):
            return "Could not activate JACK client '\(client)' (jack_activate returned \(code))."
        case .callbackRegistrationFailed(let callback):
            return "Could not install the JACK \(callback) callback."
        case .portNotFound(let port):
            return "No JACK port named '\(port)'. List the ports with `jack_lsp`."
        case .jackdNotInstalled:
            return "Cannot start a JACK server: `jackd` is not installed or not on PATH "
                + "(on Debian/Ubuntu: `sudo apt install jackd2`)."
        case .serverStartFailed(let server, let detail, let log):
            return "Could not start JACK server '\(server)': \(detail). See the server log at \(log)."
        case .serverStartTimedOut(let server, let seconds, let log):
            return "JACK server '\(server)' did not accept clients within \(seconds) s. See the server log at \(log)."
        case .serverShutDown(let reason):
            return "The JACK server shut down" + (reason.isEmpty ? "." : ": \(reason)")
        case .timedOut(let what, let seconds):
            return "Timed out after \(seconds) s waiting for \(what)."
        case .invalidArgument(let message):
            return message
        case .workerThreadFailed(let code):
            return "JACK could not create a render worker thread (jack_client_create_thread returned \(code)); try fewer --threads."
        }
    }

    /// The display name of a server: its explicit name, `$JACK_DEFAULT_SERVER`, or `"default"`.
    static func displayName(ofServer serverName: String?) -> String {
        serverName ?? "default"
    }

    /// Decodes the status bits jack_client_open reported into an error.
    static func openFailure(status: UInt32, clientName: String, serverName: String?) -> JACKError {
        let server = displayName(ofServer: serverName)
        if status & 0x10 != 0 /* JackServerFailed */ && status & 0x20 == 0 {
            return .serverNotRunning(serverName: server)
        }
        return .clientOpenFailed(clientName: clientName, serverName: server, reasons: statusReasons(status))
    }

    /// One phrase per failure bit of a jack_status_t (informational bits are left out).
    static func statusReasons(_ status: UInt32) -> [String] {
        let phrases: [(UInt32, String)] = [
            (0x02, "an option was not valid"),
            (0x04, "the client name was not unique"),
            (0x10, "could not connect to the server"),
            (0x20, "the server reported a communication error"),
            (0x40, "no such client"),
            (0x80, "an internal client failed to load"),
            (0x100, "the client failed to initialise"),
            (0x200, "shared memory could not be accessed (is /dev/shm writable?)"),
            (0x400, "the client and server JACK versions do not match"),
            (0x800, "the server's audio backend failed"),
            (0x1000, "the client was marked a zombie by the server"),
        ]
        let reasons = phrases.filter { status & $0.0 != 0 }.map(\.1)
        return reasons.isEmpty && status & 0x01 != 0 ? ["the operation failed"] : reasons
    }
}
