// Lays out a graph's realtime memory: buses, strips, units, sends and their delays, the render order. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP

extension EngineGraph {
    func buildRender(preparedStrips: [PreparedStrip], preparedBuses: [PreparedStrip]) -> GraphRender {
        let stripDescriptions = description.strips
        let busDescriptions = description.buses
        let unitTotal = (preparedStrips + preparedBuses).reduce(0) { $0 + $1.slots.count }
        let sendTotal = stripDescriptions.reduce(0) { $0 + $1.sends.count }
        let tapTotal = sendTotal * SendTapLaw.maxRoutes
        let smoothingRamp = Int((LinearSmoother.defaultTime * sampleRate).rounded())
        let units = allocate(UnitSlot.self, count: unitTotal)
        var unitIndex = 0
        var handovers: [UnitHandover] = []

        let buses = allocate(BusRender.self, count: busDescriptions.count)
        var outputChannel = 0
        for (index, bus) in busDescriptions.enumerated() {
            let linear = Decibels.linearGain(fromDecibels: bus.gainDB)
            let firstUnit = unitIndex
            initializeUnits(preparedBuses[index], bypassed: bus.bypassedUnits, into: units, at: &unitIndex, handovers: &handovers)
            (buses + index).initialize(to: BusRender(
                outputChannel: bus.hasOutput ? Int32(outputChannel) : Int32.max / 2, channels: Int32(bus.channels), buffers: workBuffers(2),
                gain: LinearSmoother(value: bus.isMuted ? 0 : linear, rampFrames: smoothingRamp),
                gainLinear: linear, isMuted: bus.isMuted, meter: Int32(stripDescriptions.count + index),
                limiter: limiters[index], firstUnit: Int32(firstUnit), unitCount: Int32(preparedBuses[index].slots.count),
                work: workBuffers(preparedBuses[index].slots.isEmpty ? 0 : 4),
                isReturned: stripDescriptions.contains { $0.returnBus == index },
                talk: stripDescriptions.contains { $0.isTalkback && $0.sends.contains { $0.bus == index } } ? workBuffers(2) : nil,
                dim: LinearSmoother(value: 1, rampFrames: smoothingRamp)))
            buses[index].room = rooms[index]
            if bus.hasOutput { outputChannel += bus.channels }
        }

        let strips = allocate(StripRender.self, count: stripDescriptions.count)
        let sends = allocate(SendRender.self, count: sendTotal)
        let taps = allocate(SendTap.self, count: tapTotal)
        let soloCount = stripDescriptions.filter { $0.isSoloed && $0.isEnabled }.count
        let groups = buildGroups()
        var inputChannel = 0, sendIndex = 0, tapIndex = 0
        for (index, strip) in stripDescriptions.enumerated() {
            let prepared = preparedStrips[index]
            let firstUnit = unitIndex
            initializeUnits(prepared, bypassed: strip.bypassedUnits, into: units, at: &unitIndex, handovers: &handovers)
            let firstSend = sendIndex
            for (sendOffset, send) in strip.sends.enumerated() {
                let busChannels = busDescriptions[send.bus].channels
                let level = Decibels.linearGain(fromDecibels: send.gainDB)
                let hrtf = busDescriptions[send.bus].hrtf
                let routes = hrtf == nil
                    ? SendTapLaw.routes(stripChannels: prepared.outputChannels, busChannels: busChannels)
                    : (0..<prepared.outputChannels).map { ($0, $0) }
                var render = SendRender(
                    bus: Int32(send.bus), isPreFader: send.isPreFader, level: level,
                    firstTap: Int32(tapIndex), tapCount: Int32(routes.count),
                    pan: send.pan ?? strip.pan, hasOwnPan: send.pan != nil, width: send.width ?? 1, isMuted: send.isMuted,
                    delay: sendDelay(frames: routing.sendDelays[index][sendOffset], channels: busChannels))
                if let hrtf {
                    render.position = send.position
                    render.binaural = binauralSources(hrtf, send: send, channels: prepared.outputChannels)
                    render.binauralInput = zeroedFrames()
                }
                (sends + sendIndex).initialize(to: render)
                for (tap, route) in routes.enumerated() {
                    let gain = hrtf != nil ? 1 : SendTapLaw.gain(
                        tap: tap, stripChannels: prepared.outputChannels, busChannels: busChannels, pan: send.pan ?? strip.pan, width: send.width ?? 1)
                    (taps + tapIndex).initialize(to: SendTap(
                        sourceChannel: Int32(route.source), busChannel: Int32(route.bus),
                        coefficient: LinearSmoother(value: send.isMuted ? 0 : level * gain, rampFrames: smoothingRamp)))
                    tapIndex += 1
                }
                sendIndex += 1
            }
            let trim = LinearSmoother(value: Decibels.linearGain(fromDecibels: strip.trimDB), rampFrames: smoothingRamp)
            var render = StripRender(
                inputChannel: strip.hasInputPorts ? Int32(inputChannel) : Int32.max / 2, channels: Int32(strip.channels),
                outputChannels: Int32(prepared.outputChannels),
                firstUnit: Int32(firstUnit), unitCount: Int32(prepared.slots.count),
                firstSend: Int32(firstSend), sendCount: Int32(strip.sends.count), work: workBuffers(4),
                fader: LinearSmoother(
                    value: Decibels.linearGain(fromDecibels: strip.gainDB) * groups.dcaGain(ofStrip: index, stripCount: stripDescriptions.count),
                    rampFrames: smoothingRamp),
                faderLinear: Decibels.linearGain(fromDecibels: strip.gainDB), dcaGain: groups.dcaGain(ofStrip: index, stripCount: stripDescriptions.count),
                isGroupMuted: groups.isGroupMuted(strip: index, stripCount: stripDescriptions.count),
                gate: LinearSmoother(value: 0, rampFrames: smoothingRamp),
                pan: strip.pan, isMuted: strip.isMuted, isSoloed: strip.isSoloed, isEnabled: strip.isEnabled,
                meter: Int32(index), returnBus: Int32(strip.returnBus ?? -1),
                trim: trim, trimAtSends: trim, sendTrim: trim, unitLatency: Int32(clamping: prepared.latency),
                trimDB: strip.trimDB, isTalkback: strip.isTalkback,
                talkbackDim: Decibels.linearGain(fromDecibels: min(strip.talkbackDimDB, 0)))
            render.gate.reset(to: GraphRender.gateTarget(of: render, soloCount: soloCount))
            (strips + index).initialize(to: render)
            if strip.hasInputPorts { inputChannel += strip.channels }
        }

        let channelTables = GraphRender.maxUnitChannels
        let stripChannels = allocate(UnsafePointer<Float>.self, count: channelTables)
        let unitInputs = allocate(UnsafePointer<Float>.self, count: channelTables)
        let unitOutputs = allocate(UnsafeMutablePointer<Float>.self, count: channelTables)
        let silence = zeroedFrames()
        for channel in 0..<channelTables {
            (stripChannels + channel).initialize(to: UnsafePointer(silence))
            (unitInputs + channel).initialize(to: UnsafePointer(silence))
            (unitOutputs + channel).initialize(to: silence)
        }
        let order = allocate(Int32.self, count: routing.order.count)
        for (position, step) in routing.order.enumerated() {
            switch step {
            case let .strip(index): (order + position).initialize(to: Int32(index))
            case let .bus(index): (order + position).initialize(to: Int32(-index - 1))
            }
        }
        let cue = description.cue.map { makeCue(settings: $0, outputChannel: outputChannel, ramp: smoothingRamp) }
        var render = GraphRender(
            strips: strips, stripCount: stripDescriptions.count, units: units, sends: sends, taps: taps,
            buses: buses, busCount: busDescriptions.count, inputChannelCount: inputChannel,
            outputChannelCount: outputChannel, maxFrames: maxFrames, soloCount: soloCount, groups: groups, silence: silence,
            gateFrames: zeroedFrames(), postFaderFrames: zeroedFrames(),
            stripChannels: stripChannels, unitInputs: unitInputs, unitOutputs: unitOutputs,
            meters: MeterBank(count: stripDescriptions.count + busDescriptions.count, sampleRate: sampleRate),
            stripTaps: nilTable(count: stripDescriptions.count), busTaps: nilTable(count: busDescriptions.count), tapSwitch: nil,
            busAnalysisTaps: nilTable(count: busDescriptions.count),
            stripSources: nilTable(count: stripDescriptions.count), sourceBuffers: sourceTable(count: stripDescriptions.count * 2, silence: silence),
            stripInputTaps: nilTable(count: stripDescriptions.count), takeChannels: takeChannelTable(count: stripDescriptions.count),
            handovers: handoverTable(handovers), handoverCount: handovers.count,
            predecessor: handovers.isEmpty ? nil : predecessor.map { UnsafeMutableRawPointer($0.render) },
            order: order, orderCount: routing.order.count, sendScratch: workBuffers(2),
            trimFrames: zeroedFrames(), compensationFrames: zeroedFrames(),
            compensatedPre: zeroedFrames(), compensatedPost: zeroedFrames(),
            stripOutputs: outputTable(StripOutput.self, count: stripDescriptions.count, silence: silence),
            busOutputs: outputTable(BusOutput.self, count: busDescriptions.count, silence: silence),
            stages: RenderStages(routing.order, description: description) { UnsafeMutableRawPointer(self.allocate(Int64.self, count: ($0 + 7) / 8)) })
        render.cue = cue
        render.isGatingEnabled = description.isGatingEnabled
        if cue != nil { render.outputChannelCount += 2 }
        return render
    }

    /// The cue output's realtime state: mix buffers, a selection ramp per source (all off), level and limiter.
    private func makeCue(settings: CueDescription, outputChannel: Int, ramp: Int) -> UnsafeMutablePointer<CueRender> {
        func selections(_ count: Int) -> UnsafeMutablePointer<LinearSmoother> {
            let table = allocate(LinearSmoother.self, count: count)
            table.initialize(repeating: LinearSmoother(value: 0, rampFrames: ramp), count: max(count, 1))
            return table
        }
        let cue = allocate(CueRender.self, count: 1)
        cue.initialize(to: CueRender(
            outputChannel: Int32(outputChannel), mix: workBuffers(2),
            busSelect: selections(description.buses.count), pflSelect: selections(description.strips.count),
            aflSelect: selections(description.strips.count),
            gain: LinearSmoother(value: Decibels.linearGain(fromDecibels: settings.gainDB), rampFrames: ramp), limiter: cueLimiter!))
        return cue
    }

    /// A table of `count` silent strip or bus outputs, freed with the graph.
    private func outputTable<Output: ChunkOutput>(_ type: Output.Type, count: Int, silence: UnsafeMutablePointer<Float>) -> UnsafeMutablePointer<Output> {
        let table = allocate(Output.self, count: count)
        table.initialize(repeating: Output(silence: UnsafePointer(silence)), count: max(count, 1))
        return table
    }

    /// `count` zeroed buffers of `maxFrames` frames, in a table freed with the graph.
    func workBuffers(_ count: Int) -> UnsafeMutablePointer<UnsafeMutablePointer<Float>> {
        let table = allocate(UnsafeMutablePointer<Float>.self, count: count)
        for buffer in 0..<count { (table + buffer).initialize(to: zeroedFrames()) }
        return table
    }

    /// The binaural sources of a send from a strip of `channels` channels, at the send's position, freed with the graph.
    private func binauralSources(_ hrtf: HRIRSet, send: SendDescription, channels: Int) -> UnsafeMutablePointer<BinauralSource> {
        let sources = UnsafeMutablePointer<BinauralSource>.allocate(capacity: channels)
        for channel in 0..<channels {
            let position = BinauralSpread.position(of: channel, channels: channels, send: send.position, width: send.width ?? 1)
            (sources + channel).initialize(to: BinauralSource(set: hrtf, position: position))
        }
        binauralSources.append((sources, channels))
        return sources
    }

    /// A send's delay line of `frames` frames (nil for none), freed with the graph.
    private func sendDelay(frames: Int, channels: Int) -> UnsafeMutablePointer<LookaheadDelay>? {
        guard frames > 0 else { return nil }
        let delay = UnsafeMutablePointer<LookaheadDelay>.allocate(capacity: 1)
        delay.initialize(to: LookaheadDelay(channels: channels, frames: frames))
        sendDelays.append(delay)
        return delay
    }

    /// Writes the unit slots of one strip or bus from `unitIndex` on, with their starting bypass; units
    /// continued from the predecessor graph add their handover record.
    private func initializeUnits(
        _ prepared: PreparedStrip, bypassed bypassedUnits: [Bool], into units: UnsafeMutablePointer<UnitSlot>, at unitIndex: inout Int,
        handovers: inout [UnitHandover]
    ) {
        let bypassRamp = Int((0.005 * sampleRate).rounded())
        for (offset, slot) in prepared.slots.enumerated() {
            var bypassed: Float = offset < bypassedUnits.count && bypassedUnits[offset] ? 1 : 0
            let plan = prepared.continued.first { $0.unitOffset == offset }
            if let plan {
                // Still running in the predecessor: its values are written when this graph takes over.
                handovers.append(makeHandover(plan, slot: unitIndex, bypassed: bypassed >= 1))
                if slot.selfBypassParameter != nil { bypassed = 0 }
            } else if let parameter = slot.selfBypassParameter {
                // Not live yet, so the build thread may set it: the unit starts in its own bypass state.
                slot.functions.setParameter(slot.state, Int32(parameter), bypassed >= 1 ? 0 : 1)
                bypassed = 0
            }
            (units + unitIndex).initialize(to: UnitSlot(
                functions: slot.functions, state: slot.state,
                inputChannels: Int32(slot.inputChannels), outputChannels: Int32(slot.outputChannels),
                bypass: LinearSmoother(value: bypassed, rampFrames: bypassRamp),
                selfBypassParameter: Int32(slot.selfBypassParameter ?? -1)))
            unitIndex += 1
        }
    }
}
