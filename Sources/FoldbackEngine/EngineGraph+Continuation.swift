// Matches a new graph's units with the running graph's and builds the handover table for those that continue. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The unit chain of a strip or a bus, as it is prepared and continued.
struct UnitChainDescription {
    var name: String
    var channels: Int
    var units: [any EngineUnit]
    var unitIDs: [String]

    init(_ strip: StripDescription) {
        (name, channels, units, unitIDs) = (strip.name, strip.channels, strip.units, strip.unitIDs)
    }

    init(_ bus: BusDescription) {
        (name, channels, units, unitIDs) = (bus.name, bus.channels, bus.units, bus.unitIDs)
    }
}

/// A strip's (or bus's) units as prepared for a graph: slots, channels after them, latency, and which continue a predecessor's.
struct PreparedStrip {
    var slots: [UnitRenderSlot]
    var outputChannels: Int
    /// The units' latency summed, once every unit's is known (`EngineGraph.settleLatencies`).
    var latency: Int
    var continued: [ContinuationPlan]
}

/// A unit prepared to continue a predecessor's unit: its slot, where it sits, and what its takeover writes.
struct ContinuationPlan {
    var slot: UnitRenderSlot
    /// The unit's position in its strip.
    var unitOffset: Int
    /// The predecessor's slot that runs the same state until the takeover.
    var predecessorSlot: UnsafeMutablePointer<UnitSlot>
    var values: [Float]
}

/// The strip (or bus) of a predecessor graph that a new graph's strip (same index, same name) may continue units of.
struct ContinuableStrip {
    let description: UnitChainDescription
    /// The predecessor's slots of this strip's units, in order.
    let slots: UnsafeMutablePointer<UnitSlot>

    /// Offers `unit` (id `id`, number `offset` in the new strip) the predecessor's unit of the same id;
    /// nil when there is none or the unit declines and must be prepared afresh.
    func `continue`(
        _ unit: any EngineUnit, id: String, at offset: Int, channels: Int, sampleRate: Double, maxFrames: Int
    ) throws(EngineError) -> ContinuationPlan? {
        guard let old = description.unitIDs.firstIndex(of: id), old < description.units.count,
              let continuation = try unit.prepare(continuing: description.units[old], channels: channels, sampleRate: sampleRate, maxFrames: maxFrames)
        else { return nil }
        let predecessorSlot = slots + old
        let slot = continuation.slot
        guard Int(predecessorSlot.pointee.outputChannels) == slot.outputChannels, Int(predecessorSlot.pointee.inputChannels) == slot.inputChannels,
              continuation.parameterValues.count <= unit.parameters.count
        else {
            throw .unitSetupFailed(unit: "\(description.name)/\(id)", reason: "it continued a unit with other channel counts or parameters")
        }
        return ContinuationPlan(slot: slot, unitOffset: offset, predecessorSlot: predecessorSlot, values: continuation.parameterValues)
    }
}

extension EngineGraph {
    /// Strip `index` of this graph if it is called `name`, for a successor graph to continue its units.
    /// Only the strips' first-unit offsets are read, which the audio thread never writes.
    func continuableStrip(_ index: Int, named name: String) -> ContinuableStrip? {
        guard description.strips.indices.contains(index), description.strips[index].name == name else { return nil }
        let firstUnit = Int(render.pointee.strips[index].firstUnit)
        return ContinuableStrip(description: UnitChainDescription(description.strips[index]), slots: render.pointee.units + firstUnit)
    }

    /// Bus `index` of this graph if it is called `name`, for a successor graph to continue its units.
    func continuableBus(_ index: Int, named name: String) -> ContinuableStrip? {
        guard description.buses.indices.contains(index), description.buses[index].name == name else { return nil }
        let firstUnit = Int(render.pointee.buses[index].firstUnit)
        return ContinuableStrip(description: UnitChainDescription(description.buses[index]), slots: render.pointee.units + firstUnit)
    }

    /// The handover record of a continued unit at `slot` in this graph: its values, bypass and mirror buffers.
    func makeHandover(_ plan: ContinuationPlan, slot: Int, bypassed: Bool) -> UnitHandover {
        let values = allocate(Float.self, count: plan.values.count)
        values.initialize(from: plan.values, count: plan.values.count)
        let channels = plan.slot.outputChannels
        let buffers = allocate(UnsafeMutablePointer<Float>.self, count: channels)
        for channel in 0..<channels { (buffers + channel).initialize(to: zeroedFrames()) }
        let mirror = allocate(UnitMirror.self, count: 1)
        mirror.initialize(to: UnitMirror(buffers: buffers, channels: Int32(channels), frames: 0))
        return UnitHandover(
            slot: Int32(slot), predecessorSlot: plan.predecessorSlot, mirror: mirror, mirrorFunctions: UnitMirror.functions,
            values: values, valueCount: Int32(plan.values.count),
            bypassParameter: Int32(plan.slot.selfBypassParameter ?? -1), bypassValue: bypassed ? 0 : 1)
    }

    /// The handover records in realtime memory.
    func handoverTable(_ handovers: [UnitHandover]) -> UnsafeMutablePointer<UnitHandover> {
        let table = allocate(UnitHandover.self, count: handovers.count)
        table.initialize(from: handovers, count: handovers.count)
        return table
    }
}
