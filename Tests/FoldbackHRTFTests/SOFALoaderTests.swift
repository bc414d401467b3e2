// SOFALoader: the Debian KEMAR set read at the engine's rate, the azimuth convention, and the errors for unusable files.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackDSP
import FoldbackHRTF
import Foundation
import XCTest

final class SOFALoaderTests: XCTestCase {
    func testKEMARLoadsAtTheRequestedRateWithTheRightEarOnThePositiveSide() throws {
        for sampleRate in [44100.0, 48000] {
            let set = try SOFALoader.load(path: BinauralMeasurement.kemar, sampleRate: sampleRate)
            XCTAssertEqual(set.directions.count, 710)
            XCTAssertEqual(set.sampleRate, sampleRate)
            XCTAssertEqual(set.measuredDistance, 1.4, accuracy: 0.001)
            // 5.8 ms after the onset.
            XCTAssertEqual(set.length, Int((0.0058 * sampleRate).rounded()))
            let right = set.nearestDirection(azimuthDeg: 90, elevationDeg: 0)
            XCTAssertEqual(set.directions[right].azimuthDeg, 90, accuracy: 0.01)
            func energy(_ ear: Int) -> Float { set.response(direction: right, ear: ear).reduce(0) { $0 + $1 * $1 } }
            // A source on the right: the right ear is louder (by > 10 dB) and earlier (by > 0.5 ms).
            XCTAssertGreaterThan(10 * log10(energy(1) / energy(0)), 10, "\(sampleRate) Hz")
            let onset = set.onset(direction: right)
            XCTAssertGreaterThan(Double(onset.left - onset.right) / sampleRate, 0.0005)
        }
    }

    func testAMissingFileIsRefusedNamingTheFileAndTheReason() {
        XCTAssertThrowsError(try SOFALoader.load(path: "/nonexistent/head.sofa", sampleRate: 48000)) { error in
            let sofa = error as? SOFAError
            XCTAssertEqual(sofa?.path, "/nonexistent/head.sofa")
            XCTAssertEqual(sofa?.reason, "No such file or directory")
            XCTAssertEqual("\(error)", "/nonexistent/head.sofa: cannot use as an HRTF set: No such file or directory")
        }
    }

    func testAFileThatIsNotSOFAIsRefused() throws {
        let path = NSTemporaryDirectory() + "not-sofa-\(getpid()).sofa"
        try Data("this is not HDF5\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertThrowsError(try SOFALoader.load(path: path, sampleRate: 48000)) { error in
            XCTAssertEqual((error as? SOFAError)?.path, path)
            XCTAssertEqual((error as? SOFAError)?.reason, "not a SOFA (HDF5) file")
        }
    }

    func testAnUnusableRateIsRefused() {
        XCTAssertThrowsError(try SOFALoader.load(path: BinauralMeasurement.kemar, sampleRate: 0)) { error in
            XCTAssertEqual((error as? SOFAError)?.reason, "sample rate 0.0 Hz is out of range")
        }
    }
}
