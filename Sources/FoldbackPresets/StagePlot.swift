// A preset's stage plot (`[stage]`): where each player stands and faces and which strips are theirs, giving binaural buses' default source positions. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackDSP

/// The stage seen from above, the audience at the bottom: `x_m` to the right, `y_m` upstage (away from the audience).
/// A binaural bus that names its `listener` places every send from a player's strip where that player stands, relative
/// to the listener's place and facing (docs/binaural.md, "A stage plot").
public struct StagePlot: Sendable {
    /// One player (or any source on stage: a wedge, a guitar amp) and the strips that are theirs.
    public struct Player: Sendable {
        public var name: String
        /// Metres to the right on the plot (the audience's view).
        public var xM: Float
        /// Metres upstage (away from the audience).
        public var yM: Float
        /// Where the player faces: 0 towards the audience, positive turned to their right (clockwise from above).
        public var facingDeg: Float
        /// The strips this player is the source of.
        public var strips: [String]
        /// Where the player's `[[stage.player]]` table starts.
        public var location: SourceLocation

        /// A player at (`xM`, `yM`) facing `facingDeg`.
        public init(name: String, xM: Float, yM: Float, facingDeg: Float = 0, strips: [String] = [], location: SourceLocation) {
            (self.name, self.xM, self.yM, self.facingDeg, self.strips, self.location) = (name, xM, yM, facingDeg, strips, location)
        }
    }

    /// The players in the order the preset gives them.
    public var players: [Player]

    /// A listener's own strips (their instrument, their voice): in front, this close (m).
    public static let ownDistanceM: Float = 0.5

    /// A plot of `players`.
    public init(players: [Player]) { self.players = players }

    /// The player called `name`, if any.
    public func player(named name: String) -> Player? { players.first { $0.name == name } }

    /// The player whose `strips` hold `strip`, if any.
    public func player(owning strip: String) -> Player? { players.first { $0.strips.contains(strip) } }

    /// Where `strip` sits for `listener` (azimuth, −180 … 180°, 0 ahead, positive right; distance clamped to the engine's
    /// range), or nil for a strip no player holds. The listener's own strips sit ahead at ``ownDistanceM``.
    public func placement(of strip: String, heardBy listener: String) -> (azimuthDeg: Float, distanceM: Float)? {
        guard let source = player(owning: strip), let listener = player(named: listener) else { return nil }
        if source.name == listener.name { return (0, Self.ownDistanceM) }
        let dx = Double(source.xM - listener.xM), dy = Double(source.yM - listener.yM)
        let facing = Double(listener.facingDeg) * .pi / 180
        // Facing 0 looks down the plot (0, −1); the right hand then points to −x. Turning right is clockwise from above.
        let (forwardX, forwardY) = (-sin(facing), -cos(facing))
        let (rightX, rightY) = (forwardY, -forwardX)
        var azimuth = Float(atan2(dx * rightX + dy * rightY, dx * forwardX + dy * forwardY) * 180 / .pi)
        if azimuth <= -180 { azimuth = 180 }
        let range = BinauralPosition.distanceRange
        let distance = min(max(Float((dx * dx + dy * dy).squareRoot()), range.lowerBound), range.upperBound)
        return ((azimuth * 100).rounded() / 100, (distance * 100).rounded() / 100)
    }
}
