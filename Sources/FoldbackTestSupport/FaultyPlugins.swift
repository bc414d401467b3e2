// The faulty test LV2 bundle (FaultyPlugins/: C and Turtle), compiled once per test process into a temporary folder. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// One of the test plugins in the faulty bundle (`FaultyPlugins/faulty.c` says exactly what each does).
///
/// Every plugin has a mono audio input `in`, an output `out` and a linear `gain` (default 1, 0…4) and plays
/// `in × gain` until its fault. The faulty ones fault on each rising edge of `trigger` through 0.5, and once
/// `fault_after_s` seconds of audio (counted in frames run since `activate()`, so an offline render is
/// deterministic) have passed: default 2, 0 = on `trigger` only. A restarted (re-activated) instance counts again
/// from 0, so a test that wants a one-off fault sets `fault_after_s = 0` and cues `trigger`.
public enum FaultyPlugin: String, CaseIterable, Sendable {
    /// The well-behaved control: `in × gain`, no fault ports.
    case passThrough = "pass"
    /// Writes through a null pointer in `run()`: SIGSEGV.
    case segfault
    /// Never returns from `run()`: sleeps 1 ms at a time forever, or with `busy = 1` spins the CPU forever.
    case hang
    /// One `run()` that sleeps `sleep_ms` (default 20) before its output, per fault; otherwise well-behaved.
    case sleepOnce = "sleep-once"
    /// From its fault until re-activated, outputs `kind` 0: NaN (default), 1: +Inf, 2: `in × 1000` (+60 dB).
    case nan
    /// Calls `abort()` in `instantiate()` (lilv still lists it: discovery reads only the Turtle).
    case abortAtInstantiate = "abort-instantiate"

    /// The plugin's URI, as a preset's `uri = "…"` names it.
    public var uri: String { "urn:foldback:test:faulty#" + rawValue }
}

/// The compiled faulty bundle: `faulty.lv2` (manifest.ttl, faulty.ttl, faulty.so) in a temporary folder of its own.
public struct FaultyPluginBundle: Sendable {
    /// The bundle folder, `…/faulty.lv2/`.
    public let bundlePath: String
    /// The folder holding only this bundle: set `LV2_PATH` to it (or pass it to `LV2World(path:)`) so lilv finds the
    /// faulty plugins; join it with `:` to the system's folders to see both.
    public let lv2Path: String

    /// Compiles the bundle once per test process (later calls return the same folder, or throw the same error);
    /// the folder is removed when the process exits normally.
    public static func build() throws(FaultyPluginBuildError) -> FaultyPluginBundle {
        try cached.get()
    }

    private static let cached: Result<FaultyPluginBundle, FaultyPluginBuildError> = Result { () throws(FaultyPluginBuildError) in
        try compile()
    }

    /// Where the C and Turtle sources live in this checkout.
    static var sourceFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FaultyPlugins")
    }

    private static func compile() throws(FaultyPluginBuildError) -> FaultyPluginBundle {
        let root = NSTemporaryDirectory() + "foldback-faulty-lv2-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let lv2Path = root + "/lv2"   // lilv reads every entry of an LV2_PATH folder as a bundle: the log stays outside
        let bundle = lv2Path + "/faulty.lv2"
        let sources = sourceFolder
        do {
            try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
            for file in ["manifest.ttl", "faulty.ttl"] {
                try FileManager.default.copyItem(atPath: sources.appendingPathComponent(file).path, toPath: bundle + "/" + file)
            }
        } catch {
            throw FaultyPluginBuildError(reason: "cannot write \(bundle): \(error)")
        }
        let compiler = ProcessInfo.processInfo.environment["CC"] ?? "cc"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [compiler, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-fPIC", "-shared",
                             "-o", bundle + "/faulty.so", sources.appendingPathComponent("faulty.c").path, "-lm"]
        let log = root + "/cc.log"
        do {
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            process.standardError = output
            process.standardOutput = output
            try process.run()
        } catch {
            throw FaultyPluginBuildError(reason: "cannot run \(compiler): \(error)")
        }
        guard process.waitUntilExit(within: 60) else {
            throw FaultyPluginBuildError(reason: "\(compiler) did not finish within 60 s")
        }
        guard process.terminationStatus == 0 else {
            throw FaultyPluginBuildError(reason: "\(compiler) failed (status \(process.terminationStatus)): "
                                         + ((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""))
        }
        removeAtExit(root)
        return FaultyPluginBundle(bundlePath: bundle, lv2Path: lv2Path)
    }

    private static func removeAtExit(_ root: String) {
        faultyBundleRoot = strdup(root)
        atexit {
            guard let root = faultyBundleRoot else { return }
            try? FileManager.default.removeItem(atPath: String(cString: root))
        }
    }
}

/// Set once, by the compile that `FaultyPluginBundle.cached` runs exactly once; read at exit.
nonisolated(unsafe) private var faultyBundleRoot: UnsafeMutablePointer<CChar>?

/// The faulty bundle could not be built: what failed, with the compiler's own message.
public struct FaultyPluginBuildError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public let reason: String
    public var description: String { "faulty LV2 test bundle: \(reason)" }
}
