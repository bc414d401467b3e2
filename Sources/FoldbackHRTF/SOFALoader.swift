// Reads a SOFA HRTF file with libmysofa, resampled to the engine's rate, into an HRIRSet. Non-realtime (file I/O).
// SPDX-License-Identifier: GPL-3.0-or-later
import CMySofa
public import FoldbackDSP
#if canImport(Glibc)
import Glibc
#endif

/// Why a SOFA file could not be used, naming the file.
public struct SOFAError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file as given.
    public var path: String
    /// What is wrong with it, in words.
    public var reason: String

    /// An error about `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): cannot use as an HRTF set: \(reason)" }
}

/// The responses of a SOFA file as libmysofa gives them, at one sample rate.
public struct SOFAResponses: Sendable {
    /// Hz.
    public var sampleRate: Double
    /// Frames per response.
    public var length: Int
    /// Direction-major, left then right.
    public var irs: [Float]
    /// SOFA's `Data.Delay`, frames (one pair, or one pair per direction).
    public var delays: [Float]
    /// Measured directions (azimuth positive to the right).
    public var directions: [HRIRDirection]
    /// Metres.
    public var measuredDistance: Float

    /// The whole response of direction `index` for `ear` (0 left, 1 right).
    public func response(direction index: Int, ear: Int) -> ArraySlice<Float> {
        irs[((index * 2 + ear) * length)..<((index * 2 + ear + 1) * length)]
    }
}

/// Opens SOFA files (AES69, SimpleFreeFieldHRIR) with libmysofa.
public enum SOFALoader {
    /// The set Debian ships with libmysofa (MIT KEMAR, normal pinna).
    public static let defaultPath = "/usr/share/libmysofa/default.sofa"
    /// The longest response kept after each arrival by default, seconds (MIT KEMAR's 512 frames at 44.1 kHz hold
    /// 99.9 % of their energy within 7.5 ms of the onset; 5.8 ms keeps each ⅓-octave level within 0.5 dB from 100 Hz
    /// to 10 kHz at 90°, see docs/binaural.md).
    public static let defaultMaxLengthSeconds = 0.0058

    /// The set in the SOFA file at `path`, resampled by libmysofa to `sampleRate` and loudness-normalised (its
    /// frontal response at 0 dB), each response kept as its minimum-phase version and its arrival (a delay), shortened to
    /// `maxLengthSeconds` after it (nil keeps the whole response).
    public static func load(path: String, sampleRate: Double, maxLengthSeconds: Double? = defaultMaxLengthSeconds) throws(SOFAError) -> HRIRSet {
        let data = try read(path: path, sampleRate: sampleRate)
        let maxLength = maxLengthSeconds.map { max(16, Int(($0 * sampleRate).rounded())) }
        return HRIRSet(
            sampleRate: sampleRate, irLength: data.length, irs: data.irs, delays: data.delays, directions: data.directions,
            measuredDistance: data.measuredDistance, maxLength: maxLength)
    }

    /// The responses of the SOFA file at `path` as libmysofa gives them at `sampleRate` (resampled, normalised).
    public static func read(path: String, sampleRate: Double) throws(SOFAError) -> SOFAResponses {
        guard sampleRate >= 8000, sampleRate <= 384_000 else {
            throw SOFAError(path: path, reason: "sample rate \(sampleRate) Hz is out of range")
        }
        var filterLength: Int32 = 0
        var status: Int32 = 0
        guard let easy = mysofa_open(path, Float(sampleRate), &filterLength, &status), status == Int32(MYSOFA_OK) else {
            throw SOFAError(path: path, reason: reason(status))
        }
        defer { mysofa_close(easy) }
        let hrtf = easy.pointee.hrtf!.pointee
        let directions = Int(hrtf.M), receivers = Int(hrtf.R), length = Int(hrtf.N)
        guard receivers == 2 else { throw SOFAError(path: path, reason: "it has \(receivers) receivers, not two ears") }
        guard directions > 0, length > 0, hrtf.DataIR.elements == UInt32(directions * 2 * length),
              hrtf.SourcePosition.elements == UInt32(directions * 3) else {
            throw SOFAError(path: path, reason: "its impulse responses do not match its dimensions")
        }
        let irs = Array(UnsafeBufferPointer(start: hrtf.DataIR.values, count: directions * 2 * length))
        let delays = Array(UnsafeBufferPointer(start: hrtf.DataDelay.values, count: Int(hrtf.DataDelay.elements)))
        var measured: Float = 0
        var positions: [HRIRDirection] = []
        positions.reserveCapacity(directions)
        for index in 0..<directions {
            // mysofa_open leaves positions cartesian (x front, y left, z up); SOFA's azimuth turns to the left.
            var point = (hrtf.SourcePosition.values[index * 3], hrtf.SourcePosition.values[index * 3 + 1], hrtf.SourcePosition.values[index * 3 + 2])
            withUnsafeMutablePointer(to: &point) { $0.withMemoryRebound(to: Float.self, capacity: 3) { mysofa_c2s($0) } }
            var azimuth = -point.0
            while azimuth < -180 { azimuth += 360 }
            while azimuth >= 180 { azimuth -= 360 }
            positions.append(HRIRDirection(azimuthDeg: azimuth, elevationDeg: point.1))
            measured = max(measured, point.2)
        }
        guard irs.allSatisfy(\.isFinite), irs.contains(where: { $0 != 0 }) else {
            throw SOFAError(path: path, reason: "its impulse responses are silent or not finite")
        }
        return SOFAResponses(
            sampleRate: sampleRate, length: length, irs: irs, delays: delays, directions: positions,
            measuredDistance: measured > 0 ? measured : 1)
    }

    /// libmysofa's status `status` in words.
    static func reason(_ status: Int32) -> String {
        switch status {
        case Int32(MYSOFA_OK): return "libmysofa returned nothing"
        case 1..<10000: return String(cString: strerror(status))
        case Int32(MYSOFA_INVALID_FORMAT): return "not a SOFA (HDF5) file"
        case Int32(MYSOFA_UNSUPPORTED_FORMAT): return "an HDF5 layout libmysofa does not read"
        case Int32(MYSOFA_NO_MEMORY): return "out of memory"
        case Int32(MYSOFA_READ_ERROR): return "read error"
        case Int32(MYSOFA_INVALID_ATTRIBUTES), Int32(MYSOFA_INVALID_DIMENSIONS), Int32(MYSOFA_INVALID_DIMENSION_LIST):
            return "not a SimpleFreeFieldHRIR set (attributes or dimensions)"
        case Int32(MYSOFA_ONLY_THE_SAME_SAMPLING_RATE_SUPPORTED): return "it mixes sample rates"
        default: return "libmysofa error \(status)"
        }
    }
}
