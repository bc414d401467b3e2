// Input files, presets and output checks shared by the `foldback render` tests. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
@testable import foldback
import FoldbackLive
import FoldbackBench
import FoldbackRender
import Foundation
import XCTest

/// A scratch directory of generated audio files and presets for render tests.
struct RenderFixtures {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fb-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Writes `channels` (planar) as a 32-bit float WAV and returns its path.
    @discardableResult
    func write(_ name: String, _ channels: [[Float]], rate: Int = 48_000) throws -> String {
        let writer = try AudioFileWriter(url: directory.appendingPathComponent(name), sampleRate: rate, channelCount: channels.count)
        try writer.write(planar: channels)
        try writer.finish()
        return path(name)
    }

    /// Writes a preset and returns its path.
    func preset(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// Reads a file's channels and rate.
    func read(_ name: String) throws -> (channels: [[Float]], rate: Int) {
        let reader = try AudioFileReader(url: directory.appendingPathComponent(name))
        return (try reader.readAll(), reader.sampleRate)
    }

    /// Everything in the directory (to check nothing half-written is left).
    var contents: Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []) }

    /// Deterministic noise at about −12 dBFS.
    static func noise(_ frames: Int, seed: UInt32 = 0x1234_5678) -> [Float] {
        var state = seed
        return (0..<frames).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return (Float(state >> 8) / Float(1 << 24) - 0.5) * 0.5
        }
    }

    /// A sine of `frequency` Hz at `amplitude`.
    static func sine(_ frames: Int, frequency: Double, rate: Double, amplitude: Float = 0.5) -> [Float] {
        (0..<frames).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / rate)) }
    }

    /// One mono strip `vox` into one bus `main` of `busChannels`, with `units` (TOML) and optionally the
    /// limiter: the shape `foldback bench` measures.
    static func chain(units: String = "", busChannels: Int = 1, limiter: Bool = false) -> String {
        BenchCases.preset(units: units, busChannels: busChannels, limiter: limiter)
    }

    /// The reference vocal chain's units, as `foldback bench` runs them.
    static let vocalUnits = BenchCases.referenceChain

    /// The largest absolute difference of two equally shaped signals (infinity if shapes differ).
    static func maxDifference(_ a: [[Float]], _ b: [[Float]]) -> Float {
        guard a.count == b.count, zip(a, b).allSatisfy({ $0.count == $1.count }) else { return .infinity }
        return zip(a, b).map { zip($0, $1).map { abs($0 - $1) }.max() ?? 0 }.max() ?? 0
    }
}
