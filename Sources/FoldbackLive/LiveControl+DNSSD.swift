// Starts a show's DNS-SD advertisement (web page, OSC port) and adds its .local link, or one line saying why there is none, to the start-up lines. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackPresets
import FoldbackWeb

extension LiveControl {
    /// Advertises the surfaces that listen beyond loopback (``AdvertisedService/services(presetName:web:osc:)``) and
    /// adds what phones will find, with the engineer's `.local` link, to `announcement` (printed after the ports and
    /// latency); without an Avahi daemon says so in one line and goes on. Nil when there is nothing to advertise or no daemon.
    static func advertise(
        preset: Preset, options: LiveControlSettings, web: WebServer?, osc: OSCServer?, announcement: inout [String]
    ) -> ServiceAdvertiser? {
        let presetName = preset.name ?? String(preset.path.split(separator: "/").last ?? "show").replacingOccurrences(of: ".toml", with: "")
        let services = AdvertisedService.services(
            presetName: presetName, web: web.map { (options.webBind, $0.port) }, osc: osc.map { (options.oscBind, $0.local.port) })
        guard !services.isEmpty else { return nil }
        let types = services.map { "\($0.type) port \($0.port)" }.joined(separator: ", ")
        do {
            let advertiser = try ServiceAdvertiser(services: services) { StandardError.writeLine("foldback: \($0)") }
            announcement.append("foldback: advertised on the LAN over DNS-SD as '\(services[0].name)' (\(types))")
            if let web { announcement.append("  engineer by name: \(web.link(token: web.access.engineerToken, host: advertiser.hostName))") }
            return advertiser
        } catch {
            let reason = error.isNoDaemon ? "no Avahi daemon is running (apt install avahi-daemon)" : error.reason
            announcement.append("foldback: not advertised on the LAN (DNS-SD): \(reason); phones need the links above")
            return nil
        }
    }
}
