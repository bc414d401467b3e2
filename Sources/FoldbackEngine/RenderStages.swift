// The render order cut into stages a render team can share out: strips in parallel, then their sends bus by bus, then buses. Built off-thread; read by the audio threads.
// SPDX-License-Identifier: GPL-3.0-or-later

/// The render order as a sequence of stages whose items are independent of each other.
///
/// A run of consecutive strips in ``RoutingPlan/order`` becomes a `.strips` stage (each strip's units, into
/// its own buffers) followed by a `.mix` stage: one item per bus those strips send to, adding their sends
/// in routing order, so every bus sample is summed in the same order as a one-thread render and the output
/// is bit-identical. A run of consecutive buses becomes a `.buses` stage (a bus only reads its own mix).
struct RenderStages {
    enum Kind: UInt8 {
        case strips, mix, buses
    }

    struct Stage {
        var kind: Kind
        var firstItem: Int32
        var itemCount: Int32
    }

    /// One bus's share of a `.mix` stage: its feeders (strip, send) in ``feeders``.
    struct MixJob {
        var bus: Int32
        var firstFeeder: Int32
        var feederCount: Int32
    }

    struct Feeder {
        var strip: Int32
        var send: Int32
    }

    var stages: UnsafeMutablePointer<Stage>
    var stageCount: Int
    /// Strip indices (`.strips`), mix job indices (`.mix`) or bus indices (`.buses`).
    var items: UnsafeMutablePointer<Int32>
    var mixJobs: UnsafeMutablePointer<MixJob>
    var feeders: UnsafeMutablePointer<Feeder>

    /// Cuts `order` into stages; `allocate` gives memory freed with the graph.
    init(_ order: [RoutingPlan.Step], description: GraphDescription, allocate: (_ count: Int) -> UnsafeMutableRawPointer) {
        var stageList: [Stage] = [], itemList: [Int32] = [], jobList: [MixJob] = [], feederList: [Feeder] = []
        var firstSend: [Int] = []
        var sendTotal = 0
        for strip in description.strips {
            firstSend.append(sendTotal)
            sendTotal += strip.sends.count
        }
        var position = 0
        while position < order.count {
            var run: [Int] = []
            var busRun: [Int] = []
            while position < order.count, case let .strip(index) = order[position] { run.append(index); position += 1 }
            while run.isEmpty, position < order.count, case let .bus(index) = order[position] { busRun.append(index); position += 1 }
            if !run.isEmpty {
                stageList.append(Stage(kind: .strips, firstItem: Int32(itemList.count), itemCount: Int32(run.count)))
                itemList += run.map(Int32.init)
                let fed = Set(run.flatMap { description.strips[$0].sends.map(\.bus) }).sorted()
                let mixStart = itemList.count
                for bus in fed {
                    let first = feederList.count
                    for strip in run {
                        for (offset, send) in description.strips[strip].sends.enumerated() where send.bus == bus {
                            feederList.append(Feeder(strip: Int32(strip), send: Int32(firstSend[strip] + offset)))
                        }
                    }
                    itemList.append(Int32(jobList.count))
                    jobList.append(MixJob(bus: Int32(bus), firstFeeder: Int32(first), feederCount: Int32(feederList.count - first)))
                }
                stageList.append(Stage(kind: .mix, firstItem: Int32(mixStart), itemCount: Int32(fed.count)))
            } else {
                stageList.append(Stage(kind: .buses, firstItem: Int32(itemList.count), itemCount: Int32(busRun.count)))
                itemList += busRun.map(Int32.init)
            }
        }
        func copy<Element>(_ list: [Element]) -> UnsafeMutablePointer<Element> {
            let pointer = allocate(max(list.count, 1) * MemoryLayout<Element>.stride).bindMemory(to: Element.self, capacity: max(list.count, 1))
            for (index, element) in list.enumerated() { (pointer + index).initialize(to: element) }
            return pointer
        }
        stages = copy(stageList)
        stageCount = stageList.count
        items = copy(itemList)
        mixJobs = copy(jobList)
        feeders = copy(feederList)
    }
}
