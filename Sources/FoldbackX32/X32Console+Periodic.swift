// An X32 port's periodic requests: /subscribe, /meters, /batchsubscribe and /formatsubscribe, checked and answered. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackEngine

extension X32Console {
    /// At most this many addresses one `/formatsubscribe` packs.
    static let formatLimit = 256

    /// A periodic request from `sender`, checked whole before it is kept (every request lapses after 10 s unless renewed):
    /// - `/subscribe ,s[i] ADDRESS [TF]`: that address's value every TF × 50 ms (TF 1…200).
    /// - `/meters ,s[i…] PAGE [… TF]`: a meter page's blob (``X32Meters``), under the page's name.
    /// - `/batchsubscribe ,ss[iii] ALIAS PAGE|ADDRESS [I1 I2 TF]`: a page's blob or an address's value, under ALIAS.
    /// - `/formatsubscribe ,ss…iii ALIAS ADDRESS… FIRST LAST TF`: every ADDRESS, a `**` in it standing for each index
    ///   FIRST…LAST (written as the console numbers that address), packed into one blob under ALIAS: a little-endian
    ///   count, then each value as 4 little-endian bytes (a float's bits or an integer; 0 for a string).
    func periodic(_ message: OSCMessage, from sender: OSCPeer, now: Double) -> [Outgoing] {
        let arguments = message.arguments
        let texts = arguments.prefix { $0.text != nil }.compactMap(\.text)
        let numbers = arguments.dropFirst(texts.count).compactMap { argument -> Int32? in if case let .int(value) = argument { value } else { nil } }
        guard texts.count + numbers.count == arguments.count, numbers.count <= 3, texts.allSatisfy({ (1...Self.stringLimit).contains($0.utf8.count) }) else {
            return refuse(message, "takes address strings, then up to three integers")
        }
        let factor = numbers.last.map { Double(min(max($0, 1), 200)) } ?? 1
        let address: String, source: X32Subscriptions.Source
        switch (message.path, texts.count) {
        case ("/subscribe", 1):
            guard value(at: texts[0]) != nil else { return refuse(message, "no such address") }
            (address, source) = (texts[0], .value(texts[0]))
        case ("/meters", 1):
            guard X32Meters.pages(dialect)[texts[0]] != nil else { return refuse(message, "no such meter page on \(dialect.model)") }
            (address, source) = (texts[0], .meter(texts[0]))
        case ("/batchsubscribe", 2):
            if X32Meters.pages(dialect)[texts[1]] != nil {
                source = .meter(texts[1])
            } else if value(at: texts[1]) != nil {
                source = .value(texts[1])
            } else {
                return refuse(message, "no such meter page or address")
            }
            address = texts[0]
        case ("/formatsubscribe", 2...):
            guard numbers.count == 3, let leaves = formatLeaves(Array(texts.dropFirst()), first: Int(numbers[0]), last: Int(numbers[1])) else {
                return refuse(message, "takes an alias, known addresses (** for FIRST…LAST) and FIRST LAST TF")
            }
            (address, source) = (texts[0], .format(leaves))
        default:
            return refuse(message, "wrong number of strings")
        }
        if !subscriptions.request(sender, address: address, source: source, interval: 0.05 * factor, now: now) {
            return refuse(message, "too many subscriptions")
        }
        return []
    }

    /// The addresses `patterns` name for indexes `first…last` (at most ``formatLimit``), each one the console has; nil otherwise.
    private func formatLeaves(_ patterns: [String], first: Int, last: Int) -> [String]? {
        guard (0...999).contains(first), (first...999).contains(last) else { return nil }
        var leaves: [String] = []
        for pattern in patterns {
            guard pattern.contains("**") else {
                guard value(at: pattern) != nil else { return nil }
                leaves.append(pattern)
                continue
            }
            for index in first...last {
                // The console's own numbering: /ch/01, /bus/1 on an X-Air, /headamp/000.
                let candidates = [2, 1, 3].map { pattern.replacingOccurrences(of: "**", with: X32Dialect.padded(index, $0)) }
                guard let leaf = candidates.first(where: { value(at: $0) != nil }) else { return nil }
                leaves.append(leaf)
            }
            guard leaves.count <= Self.formatLimit else { return nil }
        }
        return leaves.count <= Self.formatLimit ? leaves : nil
    }

    /// The answers to the periodic requests `due` now.
    func answers(_ due: [(peer: OSCPeer, request: X32Subscriptions.Periodic)]) -> [Outgoing] {
        guard !due.isEmpty else { return [] }
        let meters = due.contains { if case .meter = $0.request.source { true } else { false } } ? target.engine.meters() : nil
        return due.compactMap { peer, request in
            let argument: OSCArgument?
            switch request.source {
            case let .value(leaf): argument = value(at: leaf)
            case let .meter(page): argument = meters.flatMap { X32Meters.blob(page, snapshot: $0, mapping: mapping) }.map(OSCArgument.blob)
            case let .format(leaves): argument = .blob(packed(leaves))
            }
            // An alias written without the leading slash (X-Air-Edit's "meters/1") is answered with one: OSC needs it.
            let path = request.address.hasPrefix("/") ? request.address : "/" + request.address
            return argument.map { (OSCMessage(path, [$0]), peer) }
        }
    }

    /// `leaves`' values as a `/formatsubscribe` blob.
    private func packed(_ leaves: [String]) -> [UInt8] {
        var bytes = withUnsafeBytes(of: Int32(leaves.count).littleEndian, Array.init)
        for leaf in leaves {
            let word: UInt32
            switch value(at: leaf) {
            case let .float(number): word = number.bitPattern
            case let .int(number): word = UInt32(bitPattern: number)
            default: word = 0
            }
            withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }
}
