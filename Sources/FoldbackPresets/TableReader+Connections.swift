// Reads `connect = [...]`: the JACK ports each of a strip's or bus's ports connects to. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import TOMLKit

extension TableReader {
    /// `connect`: element i lists the JACK ports for port i, as a string or an array of strings.
    /// Returns exactly `channels` elements (empty ones for ports left unconnected).
    /// `owner` names the strip or bus in messages (`strip 'vox'`). With `isChannelCountKnown`
    /// false (its `channels` was invalid), surplus entries are not reported again.
    func connections(channels: Int, isChannelCountKnown: Bool = true, owner: String) -> [[String]] {
        var result = [[String]](repeating: [], count: channels)
        guard let value = table["connect"] else { return result }
        guard let array = value.array else {
            reportType("connect", expected: "an array with one entry per channel", found: value)
            return result
        }
        let connectPath = path.appending("connect")
        if array.count > channels, isChannelCountKnown {
            let plural = channels == 1 ? "channel" : "channels"
            log.error(
                "'connect' has \(array.count) entries but \(owner) has \(channels) \(plural); entry \(channels + 1) has no port to connect",
                at: locator.valueLocation(of: connectPath.appending(channels))
            )
        }
        for index in 0..<min(array.count, channels) {
            result[index] = ports(in: array[index], at: connectPath.appending(index))
        }
        return result
    }

    /// One `connect` entry: a port name or an array of them.
    private func ports(in entry: any TOMLValueConvertible, at entryPath: TOMLPath) -> [String] {
        if let port = entry.string {
            return checkedPort(port, at: entryPath).map { [$0] } ?? []
        }
        guard let list = entry.array else {
            let found = Self.describe(entry)
            log.error("'connect' entry: expected a port name or an array of port names, found \(found)", at: locator.valueLocation(of: entryPath))
            return []
        }
        var ports: [String] = []
        for index in 0..<list.count {
            let portPath = entryPath.appending(index)
            guard let port = list[index].string else {
                let found = Self.describe(list[index])
                log.error("'connect' entry: expected a port name, found \(found)", at: locator.valueLocation(of: portPath))
                continue
            }
            if let port = checkedPort(port, at: portPath) { ports.append(port) }
        }
        return ports
    }

    /// A full JACK port name (`client:port`), or nil after reporting why not.
    private func checkedPort(_ port: String, at portPath: TOMLPath) -> String? {
        guard let colon = port.firstIndex(of: ":"), colon != port.startIndex, port.index(after: colon) != port.endIndex else {
            log.error(
                "'connect' port \"\(port)\" is not a full JACK port name; write 'client:port', for example \"system:playback_1\"",
                at: locator.valueLocation(of: portPath)
            )
            return nil
        }
        return port
    }
}
