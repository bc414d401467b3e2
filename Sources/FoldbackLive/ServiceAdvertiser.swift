// Advertises a show's web page (_http._tcp) and OSC port (_osc._udp) on the LAN over DNS-SD/mDNS through Avahi's client library; withdrawn on close. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import CAvahi
import Glibc

/// One DNS-SD service a show offers.
package struct AdvertisedService: Sendable, Equatable {
    /// The instance name phones list ("Foldback – Vocal monitor").
    package var name: String
    /// The service type: `_http._tcp` or `_osc._udp`.
    package var type: String
    /// The port.
    package var port: UInt16
    /// TXT record strings (`path=/`).
    package var text: [String]

    /// The services a show with these surfaces offers: the web page when it listens beyond loopback, OSC when
    /// its port is open beyond loopback (a loopback-only surface is of no use to a phone). `presetName` names them.
    package static func services(presetName: String, web: (bind: String, port: UInt16)?, osc: (bind: String, port: UInt16)?) -> [AdvertisedService] {
        // DNS-SD instance names are at most 63 bytes of UTF-8.
        let name = String(decoding: "Foldback – \(presetName)".utf8.prefix(63), as: UTF8.self)
        var services: [AdvertisedService] = []
        if let web, !isLoopback(web.bind) { services.append(AdvertisedService(name: name, type: "_http._tcp", port: web.port, text: ["path=/"])) }
        if let osc, !isLoopback(osc.bind) { services.append(AdvertisedService(name: name, type: "_osc._udp", port: osc.port, text: [])) }
        return services
    }

    private static func isLoopback(_ address: String) -> Bool { address.hasPrefix("127.") }
}

/// The show's services registered with the Avahi daemon (one entry group on a threaded poll) until ``close()``,
/// which withdraws them. On a name conflict Avahi's alternative name is taken ("Foldback – Vocal monitor #2").
package final class ServiceAdvertiser: @unchecked Sendable {
    private let poll: OpaquePointer
    private let client: OpaquePointer
    private var group: OpaquePointer?
    /// The services, with the name finally used (guarded by the poll's lock once the poll runs).
    private var services: [AdvertisedService]
    /// This machine's mDNS name, e.g. `stagebox.local`.
    package let hostName: String
    private let log: @Sendable (String) -> Void

    /// Why advertising could not start.
    package struct Failure: Error, CustomStringConvertible {
        /// Avahi's error text.
        package let reason: String
        /// Whether no Avahi daemon runs (the usual case on a machine without one).
        package let isNoDaemon: Bool
        package var description: String { reason }
    }

    /// Registers `services` (none: throws nothing, advertises nothing) and starts Avahi's poll thread.
    /// `log` gets a line when a conflict renames them or the registration fails later.
    /// - Throws: ``Failure`` when no daemon runs or it refuses the registration.
    package init(services: [AdvertisedService], log: @escaping @Sendable (String) -> Void) throws(Failure) {
        guard let poll = avahi_threaded_poll_new() else { throw Failure(reason: "cannot start Avahi's poll", isNoDaemon: false) }
        var error: Int32 = 0
        guard let client = avahi_client_new(avahi_threaded_poll_get(poll), AvahiClientFlags(0), { _, _, _ in }, nil, &error) else {
            avahi_threaded_poll_free(poll)
            throw Failure(reason: String(cString: avahi_strerror(error)), isNoDaemon: Int(error) == Int(AVAHI_ERR_NO_DAEMON))
        }
        (self.poll, self.client, self.services, self.log) = (poll, client, services, log)
        hostName = avahi_client_get_host_name_fqdn(client).map { String(cString: $0) } ?? "localhost"
        do throws(Failure) {
            try register()   // before the poll thread runs: no lock needed yet
        } catch {
            close()
            throw error
        }
        avahi_threaded_poll_start(poll)
    }

    deinit { close() }

    /// The services as registered (renamed after a conflict).
    package var registered: [AdvertisedService] {
        avahi_threaded_poll_lock(poll)
        defer { avahi_threaded_poll_unlock(poll) }
        return services
    }

    private var isClosed = false

    /// Withdraws the services and stops Avahi's thread. Safe to call twice.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        avahi_threaded_poll_stop(poll)
        if let group { avahi_entry_group_free(group) }   // withdraws the records
        avahi_client_free(client)
        avahi_threaded_poll_free(poll)
    }

    /// (Re)adds every service to the entry group and commits it (on the poll thread after a collision).
    private func register() throws(Failure) {
        if group == nil {
            group = avahi_entry_group_new(client, { _, state, context in
                guard let context else { return }
                Unmanaged<ServiceAdvertiser>.fromOpaque(context).takeUnretainedValue().groupChanged(state)
            }, Unmanaged.passUnretained(self).toOpaque())
        }
        guard let group else { throw failure("cannot create an entry group") }
        avahi_entry_group_reset(group)
        for service in services {
            var text: UnsafeMutablePointer<AvahiStringList>?
            for string in service.text.reversed() { text = avahi_string_list_add(text, string) }
            defer { avahi_string_list_free(text) }
            let status = avahi_entry_group_add_service_strlst(
                group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0), service.name, service.type,
                nil, nil, service.port, text)
            guard status == 0 else { throw failure("cannot add \(service.type) port \(service.port)") }
        }
        guard avahi_entry_group_commit(group) == 0 else { throw failure("cannot commit the services") }
    }

    /// On Avahi's thread (lock held): a name conflict takes the alternative name and registers again.
    private func groupChanged(_ state: AvahiEntryGroupState) {
        switch state {
        case AVAHI_ENTRY_GROUP_COLLISION:
            guard let current = services.first?.name, let alternative = avahi_alternative_service_name(current) else { return }
            let name = String(cString: alternative)
            avahi_free(alternative)
            for index in services.indices { services[index].name = name }
            log("DNS-SD name taken on the LAN; advertising as '\(name)' instead")
            do { try register() } catch { log("DNS-SD: \(error)") }
        case AVAHI_ENTRY_GROUP_FAILURE:
            log("DNS-SD: the advertisement failed: \(String(cString: avahi_strerror(avahi_client_errno(client))))")
        default:
            break
        }
    }

    private func failure(_ what: String) -> Failure {
        Failure(reason: "\(what): \(String(cString: avahi_strerror(avahi_client_errno(client))))", isNoDaemon: false)
    }
}
