// The preset keys of the `echo` unit type: the unit's own parameter declarations. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine

extension UnitSchema {
    /// `"echo"`: feedback echo, free or synced to the show tempo; mono or stereo in, stereo out.
    public static let echo = UnitSchema(
        type: "echo",
        summary: "Feedback echo of 1 to 2000 ms or a note value at the show tempo, filters in the loop, mono/stereo/ping-pong, ducking, freeze; outputs stereo.",
        parameters: EchoUnit.liveParameters.map(ParameterSchema.init(descriptor:)))
}
