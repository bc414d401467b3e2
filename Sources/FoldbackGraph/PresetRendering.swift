// What `foldback render` renders from a preset: its file sources and one offline engine graph per input set. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
public import FoldbackPresets
public import FoldbackRender
import Foundation

/// A preset turned into offline renderers: the plan's input sets, each through a graph built as `foldback run`
/// builds it (LV2 plugins hosted offline), and the preset's file sources with their tempo and key.
public enum PresetRendering {
    /// The preset's file sources as the renderer plays them.
    public static func sources(of preset: Preset) -> [RenderSource] {
        preset.strips.compactMap { strip in
            strip.source.map { source in
                RenderSource(
                    strip: strip.name, url: URL(fileURLWithPath: source.path), gainDB: source.gainDB,
                    timePitch: TimePitch(
                        tempo: Double(source.tempo), semitones: Double(source.pitchSemitones), cents: Double(source.cents),
                        preservesFormant: source.preservesFormant))
            }
        }
    }

    /// One renderer per input set of `plan`, in blocks of `block` frames; a graph that cannot be built is a
    /// ``RenderError/engine(_:)`` naming the preset's diagnostics.
    public static func renderers(
        of preset: Preset, plan: RenderPlan, rate: Int?, block: Int, format: AudioFileFormat?, tail: RenderTail
    ) throws(RenderError) -> [OfflineRenderer] {
        try plan.renderers(rate: rate, format: format, tail: tail, sources: sources(of: preset)) { sampleRate throws(RenderError) in
            do throws(PresetError) {
                return try PresetGraphBuilder.graph(for: preset, sampleRate: Double(sampleRate), maxFrames: block, hosting: .offline(block: block))
            } catch {
                throw .engine(error.diagnostics.map(\.description).joined(separator: "; "))
            }
        }
    }
}
