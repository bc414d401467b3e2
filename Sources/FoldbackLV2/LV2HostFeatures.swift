// The features Foldback offers one plugin instance (urid, options, buf-size, worker, state, log), as C memory lilv hands over. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
internal import CLilv
import Glibc

/// The NULL-terminated `LV2_Feature` array for one instance, and the memory behind it.
///
/// Block lengths: Foldback runs plugins at any block size from 1 to `maxFrames` (JACK periods split by
/// parameter changes and offline chunks), so it offers `bufsz:boundedBlockLength` and never
/// `fixedBlockLength` or `powerOf2BlockLength`.
final class LV2HostFeatures: @unchecked Sendable {
    /// Feature URIs a plugin may require: these, plus ones that only describe the plugin.
    static let provided: Set<String> = [
        LV2URI.uridMap, LV2URI.uridUnmap, LV2URI.options, LV2URI.boundedBlockLength,
        LV2URI.workerSchedule, LV2URI.loadDefaultState, LV2URI.log,
    ]
    /// Features that describe the plugin rather than ask the host for something.
    static let descriptive: Set<String> = [LV2URI.hardRTCapable, LV2URI.core + "inPlaceBroken", LV2URI.core + "isLive"]

    /// The array to pass to `lilv_plugin_instantiate` and to state calls.
    let array: UnsafeMutablePointer<UnsafePointer<LV2_Feature>?>
    private let features: UnsafeMutablePointer<LV2_Feature>
    private let options: UnsafeMutablePointer<LV2_Options_Option>
    private let values: UnsafeMutablePointer<Int32>
    private let sampleRate: UnsafeMutablePointer<Float>
    private var strings: [UnsafeMutablePointer<CChar>] = []
    private static let featureCount = 7
    private static let optionCount = 5

    /// The `bufsz:nominalBlockLength` option as given to the plugin.
    var nominalBlockLength: Int { Int(values[2]) }

    /// The first feature in `required` that Foldback does not provide, if any.
    static func firstUnsupported(_ required: [String]) -> String? {
        required.first { !provided.contains($0) && !descriptive.contains($0) }
    }

    init(urids: LV2URIDMap, worker: LV2Worker, log: LV2Log, sampleRate rate: Double, maxFrames: Int, nominalFrames: Int, sequenceSize: Int) {
        values = .allocate(capacity: 4)
        values.initialize(from: [1, Int32(maxFrames), Int32(max(1, nominalFrames)), Int32(sequenceSize)], count: 4)
        sampleRate = .allocate(capacity: 1)
        sampleRate.initialize(to: Float(rate))
        options = .allocate(capacity: Self.optionCount + 1)
        let int = urids.map(LV2URI.atomInt)
        let entries: [(String, UnsafeRawPointer, UInt32)] = [
            (LV2URI.sampleRate, UnsafeRawPointer(sampleRate), urids.map(LV2URI.atomFloat)),
            (LV2URI.minBlockLength, UnsafeRawPointer(values), int),
            (LV2URI.maxBlockLength, UnsafeRawPointer(values + 1), int),
            (LV2URI.nominalBlockLength, UnsafeRawPointer(values + 2), int),
            (LV2URI.sequenceSize, UnsafeRawPointer(values + 3), int),
        ]
        for (offset, entry) in entries.enumerated() {
            (options + offset).initialize(to: LV2_Options_Option(
                context: LV2_OPTIONS_INSTANCE, subject: 0, key: urids.map(entry.0), size: 4, type: entry.2, value: entry.1))
        }
        (options + Self.optionCount).initialize(to: LV2_Options_Option(
            context: LV2_OPTIONS_INSTANCE, subject: 0, key: 0, size: 0, type: 0, value: nil))
        features = .allocate(capacity: Self.featureCount)
        array = .allocate(capacity: Self.featureCount + 1)
        let list: [(String, UnsafeMutableRawPointer?)] = [
            (LV2URI.uridMap, UnsafeMutableRawPointer(urids.mapFeature)),
            (LV2URI.uridUnmap, UnsafeMutableRawPointer(urids.unmapFeature)),
            (LV2URI.options, UnsafeMutableRawPointer(options)),
            (LV2URI.boundedBlockLength, nil),
            (LV2URI.workerSchedule, UnsafeMutableRawPointer(worker.schedule)),
            (LV2URI.loadDefaultState, nil),
            (LV2URI.log, log.feature),
        ]
        for (offset, entry) in list.enumerated() {
            let uri = strdup(entry.0)!
            strings.append(uri)
            (features + offset).initialize(to: LV2_Feature(URI: UnsafePointer(uri), data: entry.1))
            array[offset] = UnsafePointer(features + offset)
        }
        array[Self.featureCount] = nil
    }

    /// The options (sample rate, block lengths, sequence size) as an `LV2_Options_Option` list, for the options interface's `set`.
    var optionList: UnsafePointer<LV2_Options_Option> { UnsafePointer(options) }

    deinit {
        strings.forEach { free($0) }
        array.deallocate()
        features.deallocate()
        options.deallocate()
        values.deallocate()
        sampleRate.deallocate()
    }
}
