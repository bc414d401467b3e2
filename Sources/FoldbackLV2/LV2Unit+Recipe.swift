// What rebuilds an LV2 unit in another process (the plugin sandbox): its recipe, and the channels and meters its slot takes. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackEngine

/// Everything ``LV2Unit/init(uri:controls:preset:stateFile:rightStateFile:inputs:outputs:hosting:world:)`` was given
/// apart from the hosting and the world: a sandbox process makes the same unit from it.
public struct LV2UnitRecipe: Sendable, Equatable, Codable {
    /// The plugin URI.
    public var uri: String
    /// Control input values by symbol.
    public var controls: [String: Float]
    /// The LV2 preset's URI, if any.
    public var preset: String?
    /// The state file, and the right instance's own one.
    public var stateFile: String?
    public var rightStateFile: String?
    /// Audio port symbols chosen by the preset.
    public var inputs: [String]?
    public var outputs: [String]?

    /// The recipe without its control values: what a unit continuing another's running instance (or sandbox) across a
    /// preset switch must match, since only control values may differ.
    public var setup: LV2UnitRecipe {
        var recipe = self
        recipe.controls = [:]
        return recipe
    }
}

extension LV2Unit {
    /// This unit's recipe.
    public var recipe: LV2UnitRecipe {
        LV2UnitRecipe(
            uri: typeName, controls: controls, preset: presetURI, stateFile: stateFile, rightStateFile: rightStateFile,
            inputs: inputSymbols, outputs: outputSymbols)
    }

    /// A unit made from `recipe` (see the designated initialiser for what it throws).
    public convenience init(recipe: LV2UnitRecipe, hosting: PluginHosting, world: LV2World = .shared) throws(LV2Error) {
        try self.init(
            uri: recipe.uri, controls: recipe.controls, preset: recipe.preset, stateFile: recipe.stateFile,
            rightStateFile: recipe.rightStateFile, inputs: recipe.inputs, outputs: recipe.outputs, hosting: hosting, world: world)
    }

    /// The channels this unit's render slot reads and writes on a strip of `channels` channels, without instantiating it.
    public func slotChannels(channels: Int) throws(LV2Error) -> (inputs: Int, outputs: Int) {
        let layout = try LV2ChannelLayout.plan(info, channels: channels, inputSymbols: inputSymbols, outputSymbols: outputSymbols)
        return (layout.slotInputs, layout.slotOutputs)
    }

    /// What ``meterReadings()`` publishes once this unit is prepared for a strip of `channels` channels, without
    /// instantiating it (a sandboxed unit's, whose plugin runs in another process).
    public func meterDescriptors(channels: Int) throws(LV2Error) -> [ParameterDescriptor] {
        let layout = try LV2ChannelLayout.plan(info, channels: channels, inputSymbols: inputSymbols, outputSymbols: outputSymbols)
        return meterDescriptors(instances: layout.inputs.count)
    }
}
