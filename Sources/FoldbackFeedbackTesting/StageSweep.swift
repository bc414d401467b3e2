// The stage sweep: one cell of the feedback grid (loop delay × JACK period × rate × room) run with and without a live unit, and what it measured. Non-realtime (offline, faster than realtime).
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackFeedback
#if canImport(Glibc)
import Glibc
#endif

/// One cell of the stage grid: the room's wedge-to-mic delay, the JACK period (one period more of loop delay,
/// and the block size), the sample rate and the room.
public struct StageCell: Sendable, Hashable {
    /// Wedge-to-mic delay, milliseconds (the room's part of the loop).
    public var delayMS: Double
    /// JACK period, frames: adds one period to the loop and is the block size.
    public var period: Int
    /// Sample rate, Hz.
    public var sampleRate: Double
    /// Index into ``StageSweep/rooms``.
    public var room: Int

    /// A cell.
    public init(delayMS: Double, period: Int, sampleRate: Double, room: Int) {
        self.delayMS = delayMS
        self.period = period
        self.sampleRate = sampleRate
        self.room = room
    }

    /// The whole loop, milliseconds: room delay plus one period.
    public var loopMS: Double { delayMS + 1000 * Double(period) / sampleRate }

    /// The room model with the whole loop delay.
    public var roomModel: RoomModel {
        var model = StageSweep.rooms[room]
        model.delaySeconds = loopMS / 1000
        return model
    }
}

/// What one cell measured.
public struct StageCellResult: Sendable {
    /// The cell.
    public var cell: StageCell
    /// Maximum stable gain, dB.
    public var msgDB: Double
    /// The unsuppressed howl (last second without the unit), dBFS.
    public var howlDB: Double
    /// First notch after the ring became audible (the open loop 6 dB over the room), seconds; infinity when none.
    public var timeToNotch: Double
    /// Loudest 50 ms window after settling (the last ``StageSweep/settledSeconds``) with the unit, dB under the howl (negative).
    public var settleDB: Double
    /// Notches in place at the end.
    public var notchesUsed: Int
    /// The first notch's distance from the ring it aimed at (the open loop's peak then, found to 0.25 Hz), percent.
    public var frequencyErrorPercent: Double

    /// Howls without the unit (above −10 dBFS), the first notch within 200 ms, settled 20 dB under the howl,
    /// the first notch within 1 % of its ring.
    public var passes: Bool {
        howlDB > -10 && timeToNotch <= 0.2 && settleDB <= -20 && abs(frequencyErrorPercent) <= 1
    }

    /// One row of the grid's Markdown table.
    public var row: String {
        let room = StageSweep.roomNames[cell.room]
        return "| \(f(cell.delayMS, 0)) ms + \(cell.period) (\(f(cell.loopMS, 1)) ms) | \(f(cell.sampleRate / 1000, 1)) kHz | \(room) "
            + "| \(f(howlDB, 1)) | \(timeToNotch.isFinite ? f(1000 * timeToNotch, 0) + " ms" : "none") | \(f(settleDB, 1)) dB "
            + "| \(notchesUsed) | \(f(frequencyErrorPercent, 2)) % | \(passes ? "ok" : "FAILS") |"
    }

    /// The header of ``row``.
    public static let header = "| loop (delay + period) | rate | room | howl, dBFS | first notch after audible | loudest 50 ms settled, vs howl | notches | first notch vs ring | |\n"
        + "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
}

/// The feedback grid on ``SimulatedStage``: each cell steps the loop gain from MSG − 6 dB to MSG + 6 dB at 1 s
/// with quiet room noise at the mic, runs ``seconds`` without the unit and with a live unit (default settings),
/// and measures the howl, the time to the first notch, the settled level and the notches used.
public enum StageSweep {
    /// Seconds run per cell.
    public static let seconds = 4.0
    /// The settled part: the last this many seconds.
    public static let settledSeconds = 2.0
    /// The rooms: the wedge of the earlier tests (peaks at 2.5 kHz and 820 Hz), and a side-fill in a larger
    /// hall (peaks at 1.6 kHz, 630 Hz and 4 kHz).
    public static let rooms: [RoomModel] = [
        RoomModel(),
        RoomModel(resonances: [(1600, 8, 8), (630, 6, 4), (4000, 5, 10)]),
    ]
    /// Their names in the table.
    public static let roomNames = ["wedge", "side-fill"]
    /// The full grid's loop delays, ms.
    public static let delays: [Double] = [3, 6, 10, 15, 20, 30, 40]
    /// The full grid's periods, frames.
    public static let periods = [64, 256, 1024]
    /// The full grid's rates, Hz.
    public static let rates: [Double] = [44_100, 48_000, 96_000]

    /// Every cell of the full grid.
    public static var fullGrid: [StageCell] {
        rooms.indices.flatMap { room in
            rates.flatMap { rate in periods.flatMap { period in delays.map { StageCell(delayMS: $0, period: period, sampleRate: rate, room: room) } } }
        }
    }

    /// The representative cells the unit tests run: every delay at 48 kHz, period 256, in each room, and the
    /// grid's corners (shortest and longest delay at the smallest and largest period and rate).
    public static var representativeCells: [StageCell] {
        rooms.indices.flatMap { room in delays.map { StageCell(delayMS: $0, period: 256, sampleRate: 48_000, room: room) } }
            + [StageCell(delayMS: 3, period: 64, sampleRate: 44_100, room: 0), StageCell(delayMS: 40, period: 1024, sampleRate: 96_000, room: 1),
               StageCell(delayMS: 3, period: 1024, sampleRate: 96_000, room: 1), StageCell(delayMS: 40, period: 64, sampleRate: 44_100, room: 0)]
    }

    /// Runs `cell` with the MSG + `overDB` step.
    public static func run(_ cell: StageCell, overDB: Double = 6) throws -> StageCellResult {
        let rate = cell.sampleRate
        let room = cell.roomModel
        let msg = room.maximumStableGain(sampleRate: rate).gainDB
        let step = Int(rate)
        let gain = { (frame: Int) in frame < step ? msg - 6 : msg + overDB }
        let noise = roomNoise(sampleRate: rate)
        let frames = Int(seconds * rate)
        let open = try SimulatedStage(room: room, sampleRate: rate, unit: nil, maxFrames: cell.period)
            .run(frames: frames, blockSize: cell.period, source: noise, loopGainDB: gain)
        let unit = FeedbackUnit(label: "grid", runsWorker: false)
        let tamed = try SimulatedStage(room: room, sampleRate: rate, unit: unit, maxFrames: cell.period)
            .run(frames: frames, blockSize: cell.period, source: noise, loopGainDB: gain)
        let howl = StageLevels.levelDB(open, frames - Int(rate)..<frames)
        let quiet = StageLevels.levelDB(open, Int(0.5 * rate)..<step)
        let onset = StageLevels.firstTime(open, sampleRate: rate, from: 1, reaching: quiet + 6) ?? seconds
        let first = unit.events.first
        let settled = StageLevels.maxLevelDB(tamed, sampleRate: rate, from: seconds - settledSeconds, to: seconds)
        var error = Double.infinity
        if let first {
            let end = min(Int(first.time * rate), frames)
            let ring = StageLevels.peakFrequency(open, end: end, near: first.notch.frequency, sampleRate: rate)
            error = 100 * (first.notch.frequency - ring) / ring
        }
        return StageCellResult(cell: cell, msgDB: msg, howlDB: howl, timeToNotch: first.map { $0.time - onset } ?? .infinity,
                               settleDB: settled - howl, notchesUsed: unit.notches.filter { $0.depthDB < 0 }.count,
                               frequencyErrorPercent: error)
    }

    /// Quiet room noise at the mic: uniform, −60 dBFS peak, the same every run.
    public static func roomNoise(sampleRate: Double, level: Double = -60) -> (Int) -> Float {
        let amplitude = Float(pow(10, level / 20))
        return { frame in
            var generator = SeededGenerator(seed: UInt64(truncatingIfNeeded: frame) &* 0x9E37_79B9 &+ 7)
            return amplitude * Float.random(in: -1...1, using: &generator)
        }
    }
}

private func f(_ value: Double, _ digits: Int) -> String {
    let scale = pow(10, Double(digits))
    let rounded = (value * scale).rounded() / scale
    return digits == 0 ? "\(Int(rounded))" : "\(rounded)"
}
