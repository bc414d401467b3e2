// The LV2 plugins in the realtime scenario (swh amp, x42 fil4 with its atom ports) and their parameter changes. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackEngine
import FoldbackLV2

extension RealtimeScenario {
    /// Index of the LV2 unit in strips 1 and 5 (after trim, EQ and compressor).
    static let plugin = 3
    /// LV2 units in the scenario (one each in strips 1 and 5).
    static let pluginCount = 2

    /// swh amp on mono strip 1; x42 fil4 (mono, so two instances) on stereo strip 5; nothing elsewhere.
    /// What a plugin does inside its own `run` is its business; Foldback's code around it must not allocate.
    static func lv2Unit(strip: Int) throws(EngineError) -> (any EngineUnit)? {
        let uri: String
        switch strip {
        case 1: uri = "http://plugin.org.uk/swh-plugins/amp"
        case 5: uri = "http://gareus.org/oss/lv2/fil4#mono"
        default: return nil
        }
        do {
            return try LV2Unit(uri: uri, hosting: .live)
        } catch {
            throw .unitSetupFailed(unit: uri, reason: error.description)
        }
    }

    /// Live changes to the plugins' control ports (amp `gain`, fil4 `gain`) and a plugin bypass.
    static let lv2Changes: [(ParameterAddress, Float)] = [
        (.unitParameter(strip: 1, unit: plugin, parameter: 0), -6), (.unitParameter(strip: 5, unit: plugin, parameter: 1), 4),
        (.unitBypass(strip: 1, unit: plugin), 1), (.unitBypass(strip: 1, unit: plugin), 0),
    ]
}
