// `foldback run --meters` on a terminal: number keys put buses into the cue and 0 clears it, through the OSC control path. Non-realtime.
import FoldbackControl
import FoldbackJACK
import Foundation
import XCTest

final class MeterViewKeysEndToEndTests: JACKServerTestCase {
    /// Under a pseudo-terminal (util-linux `script`), pressing `2` cues the second bus and shows it in brackets on
    /// the meter view's cue line, `2` again takes it out, `1` then `0` cues the first and clears everything.
    func testNumberKeysCueBusesAndZeroClears() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("util-linux script is not installed") }
        let folder = try LiveControlRig.temporaryFolder()
        let preset = folder + "/keys.toml"
        try LiveControlRig.writePreset(to: preset, voxGainDB: 0, extra: """
            [[bus]]
            name = "iem"
            channels = 1
            [cue]
            gain_db = 0.0
            """)
        let foldback = FoldbackRun.productsDirectory(testBundle: Bundle(for: Self.self)).appendingPathComponent("foldback").path
        let name = "fb-keys-\(getpid())"
        let output = URL(fileURLWithPath: folder + "/screen.txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        let server = try serverName
        process.arguments = ["-qfec", "\(foldback) run \(preset) --server \(server) --name \(name) --no-connect --meters --osc-port 0", "/dev/null"]
        let keys = Pipe()
        process.standardInput = keys
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { process.interrupt() }
            process.waitUntilExit()
        }
        func screen() -> String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        try waitFor("the OSC port and the cue line", timeout: 20) { screen().contains("OSC on 127.0.0.1:") && screen().contains("0 clear") }
        let text = screen()
        let range = try XCTUnwrap(text.range(of: #"OSC on 127\.0\.0\.1:\d+"#, options: .regularExpression))
        let osc = try OSCClient(serverPort: try XCTUnwrap(UInt16(text[range].split(separator: ":").last ?? "")))
        func cued() throws -> [String] {
            try osc.request(OSCMessage("/foldback/cue/get")) { $0.path == "/foldback/cue" }?.arguments.compactMap(\.text) ?? ["?"]
        }
        func press(_ key: String, until expected: [String]) throws {
            keys.fileHandleForWriting.write(Data(key.utf8))
            try waitFor("cue \(expected) after key \(key)") { try cued() == expected }
        }
        try press("2", until: ["bus/iem"])
        try waitFor("the cue line showing [iem]") { screen().contains("2 [iem]") }
        try press("2", until: [])
        try press("1", until: ["bus/main"])
        try press("0", until: [])
    }
}
