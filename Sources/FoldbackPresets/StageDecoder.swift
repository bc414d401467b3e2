// Validates the `[stage]` section and each binaural bus's `listener`, and gives the buses' sends their stage positions. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackEngine

/// Reads `[stage]` (`[[stage.player]]` tables) after the strips, checks each binaural bus's `listener` against its players,
/// and places the sends of every bus that names one.
enum StageDecoder {
    /// The keys of `[stage]`.
    static let keys = ["player"]
    /// The keys of a `[[stage.player]]` table.
    static let playerKeys = ["name", "x_m", "y_m", "facing_deg", "strips"]
    /// How far from the centre a player may stand, metres.
    static let extent: ClosedRange<Float> = -100...100

    /// The plot (nil without `[stage]`); problems go to the reader's log with their line and column.
    static func decode(_ reader: TableReader?, strips: [String]) -> StagePlot? {
        guard let reader else { return nil }
        reader.checkKeys(allowed: keys)
        var names = NameRegistry(what: "stage player name")
        var owners: [String: String] = [:]
        var players: [StagePlot.Player] = []
        for player in reader.tables("player", label: "[[stage.player]]") ?? [] {
            player.checkKeys(allowed: playerKeys)
            let x = player.number("x_m", in: extent, default: 0), y = player.number("y_m", in: extent, default: 0)
            let facing = player.number("facing_deg", in: -180...180, default: 0)
            if player.table["x_m"] == nil || player.table["y_m"] == nil {
                player.log.error("a [[stage.player]] needs 'x_m' and 'y_m', where it stands (metres; the audience at the bottom)", at: player.location)
            }
            let owned = player.nameList(
                "strips", what: "strip", known: strips, expected: "an array of strip names", allowsEmpty: true,
                unknownLabel: "unknown strip", knownLabel: "the strips are") ?? []
            guard let name = player.requiredString("name"), names.register(name, at: player.valueLocation("name"), log: player.log) else { continue }
            for (index, strip) in owned.enumerated() {
                if let other = owners[strip] {
                    player.log.error("strip '\(strip)' already stands with player '\(other)'; a strip has one place on stage",
                                     at: player.locator.valueLocation(of: player.path.appending("strips").appending(index)))
                }
                owners[strip] = owners[strip] ?? name
            }
            players.append(StagePlot.Player(name: name, xM: x, yM: y, facingDeg: facing, strips: owned, location: player.location))
        }
        return StagePlot(players: players)
    }

    /// Checks each bus's `listener` (one of `stage`'s players, and `[stage]` present), reading from `busReaders` in bus order.
    static func checkListeners(_ buses: [BusSpec], stage: StagePlot?, log: DiagnosticLog) {
        for bus in buses {
            guard let listener = bus.listener, let location = bus.listenerLocation else { continue }
            guard let stage else {
                log.error("bus '\(bus.name)' names listener '\(listener)', but the preset has no [stage] with its players", at: location)
                continue
            }
            if stage.player(named: listener) == nil {
                log.error("no stage player named '\(listener)'\(Suggestion.hint(for: listener, in: stage.players.map(\.name), fallbackLabel: "the players are"))",
                          at: location)
            }
        }
    }

    /// Gives each send into a bus with a `listener` its stage position, keeping the axes its `[[strip.send]]` states
    /// (`isExplicit(strip, send, axis)`); elevation stays as given (0 by default).
    static func place(_ strips: inout [StripSpec], buses: [BusSpec], stage: StagePlot?, isExplicit: (Int, Int, BinauralAxis) -> Bool) {
        guard let stage else { return }
        let listeners = Dictionary(buses.compactMap { bus in bus.listener.map { (bus.name, $0) } }, uniquingKeysWith: { first, _ in first })
        for stripIndex in strips.indices {
            for sendIndex in strips[stripIndex].sends.indices {
                let send = strips[stripIndex].sends[sendIndex]
                guard let listener = listeners[send.busName],
                      let placed = stage.placement(of: strips[stripIndex].name, heardBy: listener) else { continue }
                var position = send.position ?? BinauralPosition()
                if !isExplicit(stripIndex, sendIndex, .azimuth) { position = BinauralAxis.azimuth.setting(placed.azimuthDeg, in: position) }
                if !isExplicit(stripIndex, sendIndex, .distance) { position = BinauralAxis.distance.setting(placed.distanceM, in: position) }
                strips[stripIndex].sends[sendIndex].position = position
            }
        }
    }
}
