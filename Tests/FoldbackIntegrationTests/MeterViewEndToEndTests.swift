// `foldback run --meters` on a pseudo-terminal: about 20 redraws a second, in place, one clear only. Non-realtime.
import Foundation
import XCTest

final class MeterViewEndToEndTests: JACKServerTestCase {
    func testTheMeterViewRedrawsInPlaceAboutTwentyTimesASecondWithoutClearing() throws {
        // A pseudo-terminal from /dev/ptmx (posix_openpt and friends are not exported to Swift).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        XCTAssertGreaterThanOrEqual(master, 0)
        defer { close(master) }
        var unlock: Int32 = 0, number: UInt32 = 0
        XCTAssertEqual(ioctl(master, 0x4004_5431 /* TIOCSPTLCK */, &unlock), 0)
        XCTAssertEqual(ioctl(master, 0x8004_5430 /* TIOCGPTN */, &number), 0)
        let terminal = try XCTUnwrap(FileHandle(forUpdatingAtPath: "/dev/pts/\(number)"))
        let preset = try LiveControlRig.temporaryFolder() + "/vox.toml"
        try LiveControlRig.writePreset(to: preset, voxGainDB: 0)
        let run = try FoldbackRun(
            ["run", preset, "--server", serverName, "--no-connect", "--name", "fb-meters-\(getpid())", "--meters"],
            testBundle: Bundle(for: Self.self), standardOutput: terminal)
        defer { run.stop() }
        try run.waitUntilRunning()
        try terminal.close()

        // Read the terminal for two seconds after the first frame.
        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var firstFrame: Date?
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, firstFrame.map({ Date().timeIntervalSince($0) < 2 }) ?? true {
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { break }
            output += buffer[0..<count]
            if firstFrame == nil, String(decoding: output, as: UTF8.self).contains("\u{1B}[H") { firstFrame = Date() }
        }
        let text = String(decoding: output, as: UTF8.self)
        let frames = text.components(separatedBy: "\u{1B}[H").count - 1
        XCTAssertEqual(Double(frames), 40, accuracy: 14, "cursor-home redraws in about 2 s (20 Hz)")
        XCTAssertEqual(text.components(separatedBy: "\u{1B}[2J").count - 1, 1, "the screen is cleared once, never per frame")
        XCTAssertTrue(text.contains("\u{1B}[K"), "each line is cleared to its end as it is rewritten")
        for expected in ["DSP", "xruns", "latency  main +0.00 ms, rt 0.00 ms", "strips (pre-fader)", "vox", "buses", "main", "dBFS"] {
            XCTAssertTrue(text.contains(expected), "the view shows '\(expected)'")
        }
        run.stop()
        XCTAssertEqual(run.process.terminationStatus, 0)
    }
}
