// The musician's page in headless Chromium at 360 × 640 and 390 × 844 on presets/first-show.toml's setlist: display names, dB, loudness in words, a header that wraps, a send moved and measured. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import FoldbackJACKTesting
import Foundation
import XCTest

/// The singer's page of the README's first show (run as its setlist, so the header carries the song), on two
/// phone sizes; a JACK test client plays a 1 kHz tone into the acoustic guitar and records the singer's left ear.
final class MusicianPageBrowserTests: JACKServerTestCase {
    /// What every phone size must show: nothing wider than the screen, nothing cut (names, header), names from the
    /// preset's labels, levels in dB, the loudness line in words with the in-ear dose.
    private func checkReadable(_ browser: WebDriverSession, width: Int) throws {
        XCTAssertEqual(try browser.run("return window.innerWidth") as? Int, width)
        XCTAssertEqual(try browser.run("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool, true, "nothing wider than the phone")
        XCTAssertEqual(try browser.run("return document.querySelector('h1.mine').textContent") as? String, "Your mix Singer's ears")
        XCTAssertEqual(try browser.run("return [...document.querySelectorAll('#view .name:not(.small)')].map(e => e.textContent).join(',')") as? String,
                       "Whole mix,Vocal,Acoustic,Keys,Bass,Reverb", "the mix, then each source by its preset label")
        XCTAssertEqual(try browser.run("return [...document.querySelectorAll('#view .name, h1.mine, #bar > *')].filter(e => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > window.innerWidth + 1).map(e => e.textContent).join('|')") as? String,
                       "", "no name, heading or header part cut or past the edge")
        let levels = try XCTUnwrap(try browser.run("""
            return [...document.querySelectorAll('input[aria-label$="gain_db"]')].map(i => i.parentElement.querySelector('.value').textContent)
            """) as? [String])
        XCTAssertEqual(levels.count, 6)
        XCTAssertTrue(levels.allSatisfy { $0.range(of: #"^([+−]?[0-9]+\.[0-9]|−∞) dB$"#, options: .regularExpression) != nil }, "every level in dB: \(levels)")
        let guitar = width == 360 ? "−10.0 dB" : "−16.0 dB"   // as the preset sets it; as the 360 px page left it
        XCTAssertTrue(levels.contains(guitar), "the guitar's send at \(guitar), with a real minus sign: \(levels)")
        let header = try XCTUnwrap(try browser.run("""
            const bar = document.getElementById('bar'), preset = document.getElementById('preset');
            return [bar.getBoundingClientRect().height, parseFloat(getComputedStyle(preset).lineHeight), preset.getBoundingClientRect().height, preset.textContent];
            """) as? [Any])
        print("header at \(width) px: \(header)")
        XCTAssertEqual(header[3] as? String, "First show: song one · song 1/2 'Opener'", "the whole preset and song, never cut")
    }

    func testTheSingersPageReadsInPlainWordsOnTwoPhones() throws {
        let setlist = ConsolePageBrowserTests.presetPath("setlists/first-show.toml")
        let (rig, port, tokens) = try LiveControlRig.web(
            server: serverName, testCase: self, arguments: ["--setlist", setlist], signals: [.sine(frequency: 1_000, level: -20)],
            playInto: ["gtr_in"], recordFrom: ["iem_singer_L"])
        defer { rig.close() }
        let link = "http://127.0.0.1:\(port)/?token=\(try XCTUnwrap(tokens["iem_singer"]))"
        let fader = #"document.querySelector('input[aria-label="strip/gtr/send/iem_singer/gain_db"]')"#
        let loudness = #"/^Loudness −?[0-9]+ LUFS · peak −?[0-9]+ dB · today's ear dose [0-9]+\u00a0% \([0-9]+\u00a0% by the end at this level\)$/"#   // number and % kept together
        let shots = ProcessInfo.processInfo.environment["FOLDBACK_SCREENSHOTS"]
        for (width, height, shot) in [(360, 640, "web-musician.png"), (390, 844, "web-musician-390.png")] {
            let browser = try WebDriverSession(width: width, height: height)
            defer { browser.close() }
            try browser.open(link)
            try browser.wait(until: "return \(fader) !== null && !document.body.classList.contains('offline')", "the guitar's send on the singer's page")
            try browser.wait(until: "const l = document.querySelector('.lufs'); return l !== null && \(loudness).test(l.textContent)", timeout: 15,
                             "the singer's loudness, peak and ear dose in words")
            try checkReadable(browser, width: width)
            print("singer's loudness line at \(width) px: \(try browser.run("return document.querySelector('.lufs').textContent") ?? "")")
            if width == 360 {
                // The singer pulls the guitar down 6 dB: it falls 6 dB in their ear, measured.
                let (before, after) = try ConsolePageBrowserTests.moveAndMeasure(
                    browser, rig: rig, fader: fader, path: "/foldback/strip/gtr/send/iem_singer/gain_db", to: -16)
                print("singer's page: Acoustic in iem_singer_L \(before) → \(after) dBFS")
                XCTAssertEqual(after - before, -6, accuracy: 0.1, "the page's −6 dB on the guitar's send")
                try browser.wait(until: "return \(fader).parentElement.querySelector('.value').textContent === '−16.0 dB'", "the value shown in dB")
            }
            try browser.wait(until: "return [...document.querySelectorAll('.meter .rms')].some(e => parseFloat(e.style.width) > 0)", "moving meters")
            if let shots { try browser.screenshot().write(to: URL(fileURLWithPath: shots + "/" + shot)) }
        }
    }
}
