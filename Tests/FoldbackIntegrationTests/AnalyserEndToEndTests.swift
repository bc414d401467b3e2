// The engineer's analyser on a real `foldback run`: a 2.5 kHz tone played into a strip, its bus selected over the web socket, OSC and the page. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACK
import FoldbackWeb
import Foundation
import XCTest

/// A real foldback process on a dummy jackd, a JACK test client playing a −12 dBFS 2.5 kHz sine into `vox`,
/// which sends at −3 dB to `iem`, whose `geq` has its 2.5 kHz fader at −9 dB.
final class AnalyserEndToEndTests: JACKServerTestCase {
    private static let bands = ["g20", "g25", "g31_5", "g40", "g50", "g63", "g80", "g100", "g125", "g160", "g200", "g250", "g315", "g400",
                                "g500", "g630", "g800", "g1k", "g1k25", "g1k6", "g2k", "g2k5"]

    /// The rig: foldback with the web surface on, the tone playing (with `noise`, white noise at −36 dBFS peak
    /// into a second strip, `keys`, also sent to `iem`); its web port and the engineer's token.
    static func toneRig(server: String, testCase: XCTestCase, noise: Bool = false) throws -> (LiveControlRig, UInt16, String) {
        let (rig, port, tokens) = try LiveControlRig.web(
            server: server, testCase: testCase, extraStrip: noise ? "[[strip]]\nname = \"keys\"\nsend = [{ bus = \"iem\" }]" : "",
            signals: [.sine(frequency: 2_500, level: -12)] + (noise ? [.noise(seed: 5, level: -36)] : []),
            playInto: ["vox_in"] + (noise ? ["keys_in"] : []),
            extraBus: """
              [[bus.unit]]
              type = "geq"
              id = "ring_out"
              g2k5 = -9.0
            """)
        return (rig, port, try XCTUnwrap(tokens["engineer"]))
    }

    /// Over the engineer's web socket: an unknown source and a musician's selection are refused and change
    /// nothing; `bus/iem` then streams spectrum frames 10 to 25 times a second whose interpolated peak is at
    /// 2.5 kHz ±1 %, whose loudest ⅓-octave bar is the 2.5 kHz band, carrying the bus's geq faders. OSC
    /// selects a strip's input and subscribes to the same frames. Prints the measured figures and the
    /// `fb-analyser` thread's CPU.
    func testTheBusSpectrumOverTheWebSocketAndOSC() throws {
        let (rig, port, engineer) = try Self.toneRig(server: serverName, testCase: self)
        defer { rig.close() }
        let page = try WebSocketTestClient(port: port, path: "/ws?token=\(engineer)")
        XCTAssertNotNil(page.next("state"))
        page.send(#"{"analyser":"bus/nowhere"}"#)
        XCTAssertTrue((page.next("error")?["reason"] as? String ?? "").contains("no analyser source 'bus/nowhere'"))
        let musician = try WebSocketTestClient(port: port, path: "/ws?token=iem-fixed-token")
        musician.send(#"{"analyser":"bus/main"}"#)
        XCTAssertTrue((musician.next("error")?["reason"] as? String ?? "").contains("forbidden"))
        XCTAssertEqual(try rig.request("/foldback/analyser/get"), OSCMessage("/foldback/analyser", [.string("off")]), "refusals changed nothing")
        XCTAssertTrue(rig.run.standardError.contains("no analyser source 'bus/nowhere'"), "the refusal is logged")

        page.send(#"{"analyser":"bus/iem"}"#)
        XCTAssertNotNil(page.next("ok"))
        XCTAssertNotNil(page.next("spectrum", timeout: 5) { ($0["peak_hz"] as? Double ?? 0) > 0 })   // the window fills
        let threadCPU = { try Self.cpuSeconds(ofThread: "fb-analyser", in: rig.run.process.processIdentifier) }
        let cpuBefore = try threadCPU(), start = Date()
        var frames: [[String: Any]] = []
        while Date().timeIntervalSince(start) < 3 { if let frame = page.next("spectrum", timeout: 1) { frames.append(frame) } }
        let seconds = Date().timeIntervalSince(start), cpu = try threadCPU() - cpuBefore
        let last = try XCTUnwrap(frames.last)
        let peak = try XCTUnwrap(last["peak_hz"] as? Double), bands = try XCTUnwrap(last["bands"] as? [Double])
        let centres = try XCTUnwrap(last["bands_hz"] as? [Double])
        let loudest = try XCTUnwrap(bands.indices.max { bands[$0] < bands[$1] })
        print("analyser end to end: \(frames.count) frames in \(String(format: "%.2f", seconds)) s (\(String(format: "%.1f", Double(frames.count) / seconds))/s), "
            + "peak \(peak) Hz (error \(String(format: "%.3f", abs(peak - 2_500) / 25)) %), loudest band \(centres[loudest]) Hz at \(bands[loudest]) dBFS, "
            + "fb-analyser CPU \(String(format: "%.2f", cpu / seconds * 100)) % of a core")
        XCTAssertEqual(last["source"] as? String, "bus/iem")
        XCTAssertEqual(peak, 2_500, accuracy: 25)
        XCTAssertEqual(centres[loudest], 2_511.9, accuracy: 0.1, "the 2.5 kHz ⅓-octave band")
        XCTAssertEqual(bands[loudest], -24, accuracy: 1, "the tone's level: −12 dBFS, the send's −3 dB, the geq's −9 dB at 2.5 kHz")
        XCTAssertGreaterThanOrEqual(Double(frames.count) / seconds, 10)
        XCTAssertLessThanOrEqual(Double(frames.count) / seconds, 25)
        let geq = try XCTUnwrap((last["geq"] as? [[String: Any]])?.first)
        XCTAssertEqual(geq["unit"] as? String, "ring_out")
        XCTAssertEqual((geq["bands_db"] as? [Double])?[Self.bands.count - 1] ?? 0, -9, accuracy: 0.05, "the bus's geq fader under the peak")

        XCTAssertEqual(try rig.request("/foldback/preset/reload")?.path, "/foldback/preset/loaded")
        let since = Date()
        XCTAssertNotNil(page.next("spectrum", timeout: 5) { _ in Date().timeIntervalSince(since) > 0.5 }, "a preset reload keeps the source")
        
        XCTAssertEqual(try rig.request("/foldback/analyser/select", [.string("strip/vox/pre")]), OSCMessage("/foldback/analyser", [.string("strip/vox/pre")]))
        XCTAssertNotNil(page.next("spectrum", timeout: 5) { $0["source"] as? String == "strip/vox/pre" && abs(($0["peak_hz"] as? Double ?? 0) - 2_500) < 25 })
        XCTAssertEqual(try rig.request("/foldback/analyser/select", [.string("strip/nobody/post")])?.path, OSCServer.errorPath)
        XCTAssertNotNil(try rig.osc.request(OSCMessage("/foldback/analyser/subscribe"), timeout: 5) { $0.path == "/foldback/analyser/subscribed" })
        let deadline = Date().addingTimeInterval(5)
        var oscPeak: OSCMessage?
        while oscPeak == nil, Date() < deadline { oscPeak = rig.osc.receive(timeout: 1).flatMap { $0.path == "/foldback/analyser/peak" ? $0 : nil } }
        XCTAssertEqual(oscPeak?.arguments.first?.text, "strip/vox/pre")
        XCTAssertEqual(Double(oscPeak?.arguments.dropFirst().first?.number ?? 0), 2_500, accuracy: 25, "the peak over OSC")
    }

    /// CPU time thread `name` of process `pid` has run, seconds (the scheduler's count, in nanoseconds).
    static func cpuSeconds(ofThread name: String, in pid: Int32) throws -> Double {
        let tasks = "/proc/\(pid)/task"
        for task in try FileManager.default.contentsOfDirectory(atPath: tasks) {
            guard (try? String(contentsOfFile: "\(tasks)/\(task)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == name,
                  let stat = try? String(contentsOfFile: "\(tasks)/\(task)/schedstat", encoding: .utf8),
                  let nanoseconds = stat.split(separator: " ").first.flatMap({ Double($0) }) else { continue }
            return nanoseconds / 1e9
        }
        throw FoldbackRun.Failure("no thread \(name) in process \(pid)")
    }
}

/// The analyser panel in headless Chromium on a 360 × 780 phone and a 1280 × 800 laptop: the engineer selects
/// the bus and the panel draws the tone's peak at 2.5 kHz ±1 %; on the laptop, OSC then moves the source and the
/// page follows.
final class AnalyserPageBrowserTests: JACKServerTestCase {
    func testTheEngineerSelectsTheBusAndThePanelDrawsThePeak() throws {
        let (rig, port, engineer) = try AnalyserEndToEndTests.toneRig(server: serverName, testCase: self, noise: true)
        defer { rig.close() }
        for (width, height) in [(360, 780), (1_280, 800)] {
            let browser = try WebDriverSession(width: width, height: height)
            defer { browser.close() }
            try browser.open("http://127.0.0.1:\(port)/?token=\(engineer)")
            let select = "document.getElementById('analyser-source')", canvas = "document.getElementById('analyser')"
            try browser.wait(until: "return \(select) !== null && !document.body.classList.contains('offline')", "the analyser's source selector")
            try browser.run("const s = \(select); s.value = 'bus/iem'; s.dispatchEvent(new Event('change'));")
            try browser.wait(until: "const p = Number(\(canvas).dataset.peakHz); return Math.abs(p - 2500) < 25 && Number(\(canvas).dataset.frames) > 5",
                             "the panel drawing the tone's peak at 2.5 kHz ±1 %")
            XCTAssertEqual(try browser.run("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool, true, "\(width) px: nothing wider than the screen")
            let canvasWidth = try XCTUnwrap(try browser.run("return \(canvas).clientWidth") as? Int)
            XCTAssertGreaterThan(canvasWidth, width > 400 ? 600 : 300, "\(width) px: the canvas fills its row")
            XCTAssertEqual(try browser.run("return \(canvas).dataset.source") as? String, "bus/iem")
            try browser.run("\(canvas).scrollIntoView({ block: 'center' })")
            if width > 400 {   // a source selected elsewhere (OSC, another page) is followed
                XCTAssertEqual(try rig.request("/foldback/analyser/select", [.string("strip/vox/post")])?.path, "/foldback/analyser")
                try browser.wait(until: "return \(select).value === 'strip/vox/post' && \(canvas).dataset.source === 'strip/vox/post'",
                                 "the page following the source OSC selected")
            }
            if width == 360, let shots = ProcessInfo.processInfo.environment["FOLDBACK_SCREENSHOTS"] {
                try browser.wait(until: "return Number(\(canvas).dataset.frames) > 30", "a second of frames for the peak hold")
                try browser.screenshot().write(to: URL(fileURLWithPath: shots + "/web-analyser-phone.png"))
            }
        }
    }
}
