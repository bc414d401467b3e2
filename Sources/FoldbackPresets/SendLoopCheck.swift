// Finds return strips that feed, directly or through other returns, the bus they return. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// Reports send loops as preset errors at the `return` that closes them.
enum SendLoopCheck {
    /// Logs one error per loop found, e.g. `send loop: vox_verb → verb → vox_verb`, at the first return on it.
    static func report(strips: [StripSpec], log: DiagnosticLog) {
        var reported = Set<String>()
        for start in strips where start.returnBus != nil && !reported.contains(start.name) {
            var visited: Set<String> = [start.name]
            guard let hops = search(from: start, to: start.name, strips: strips, visited: &visited) else { continue }
            let names = [start.name] + hops.flatMap { [$0.bus, $0.strip] }
            reported.formUnion(hops.map(\.strip))
            log.error("send loop: \(names.joined(separator: " → ")); a return must not feed the bus it returns", at: start.returnLocation ?? start.location)
        }
    }

    /// Depth-first: the (bus, return strip) hops from `strip` back to the strip called `target`.
    private static func search(from strip: StripSpec, to target: String, strips: [StripSpec], visited: inout Set<String>) -> [(bus: String, strip: String)]? {
        for send in strip.sends {
            for next in strips where next.returnBus == send.busName {
                if next.name == target { return [(send.busName, next.name)] }
                guard visited.insert(next.name).inserted else { continue }
                if let rest = search(from: next, to: target, strips: strips, visited: &visited) { return [(send.busName, next.name)] + rest }
            }
        }
        return nil
    }
}
