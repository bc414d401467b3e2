// AudioFileWriter and AudioFileReader round trips, atomic replacement and clear errors. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackRender
import XCTest

final class AudioFileTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fb-audio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func ramp(_ frames: Int, channel: Int) -> [Float] {
        (0..<frames).map { Float(sin(Double($0 * (channel + 1)) * 0.01)) * 0.9 }
    }

    func testFloatRoundTripIsExact() throws {
        let url = directory.appendingPathComponent("take.wav")
        let channels = [ramp(10_000, channel: 0), ramp(10_000, channel: 1), ramp(10_000, channel: 2)]
        let writer = try AudioFileWriter(url: url, sampleRate: 44_100, channelCount: 3)
        try writer.write(planar: channels)
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "nothing appears before finish()")
        try writer.finish()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["take.wav"])
        let reader = try AudioFileReader(url: url)
        XCTAssertEqual(reader.sampleRate, 44_100)
        XCTAssertEqual(reader.channelCount, 3)
        XCTAssertEqual(reader.frameCount, 10_000)
        XCTAssertEqual(try reader.readAll(), channels)
    }

    /// The writer gathers small writes into large ones: blocks of 1, 7, 253 and 1024 frames and writes bigger
    /// than what it gathers, in any order, given as samples or filled in place in turn, still land in order,
    /// and `framesWritten` counts them as they come.
    func testGatheredWritesKeepTheirOrder() throws {
        let url = directory.appendingPathComponent("gathered.wav")
        let samples = ramp(200_000, channel: 0) + ramp(200_000, channel: 1)   // 200,000 stereo frames' worth
        let writer = try AudioFileWriter(url: url, sampleRate: 48_000, channelCount: 2)
        var frame = 0
        for (index, size) in [1, 7, 253, 1024, 40_000, 7, 70_000, 253, 1024].cycled(until: 200_000).enumerated() {
            let frames = min(size, 200_000 - frame)
            try samples.withUnsafeBufferPointer { buffer in
                let slice = UnsafeBufferPointer(rebasing: buffer[(frame * 2)..<((frame + frames) * 2)])
                if index % 2 == 0 {
                    try writer.write(interleaved: slice)
                } else {
                    try writer.write(frames: frames) { target in target.update(from: slice.baseAddress!, count: slice.count) }
                }
            }
            frame += frames
            XCTAssertEqual(writer.framesWritten, frame)
        }
        try writer.finish()
        let read = try AudioFileReader(url: url).readAll()
        XCTAssertEqual(read.count, 2)
        XCTAssertEqual(read[0], stride(from: 0, to: samples.count, by: 2).map { samples[$0] })
        XCTAssertEqual(read[1], stride(from: 1, to: samples.count, by: 2).map { samples[$0] })
    }

    func testPCM24RoundTripIsWithinOneStep() throws {
        let url = directory.appendingPathComponent("take24.wav")
        let samples = ramp(4_800, channel: 0)
        let writer = try AudioFileWriter(url: url, sampleRate: 48_000, channelCount: 1, format: .pcm24)
        try writer.write(interleaved: samples)
        try writer.finish()
        let read = try AudioFileReader(url: url).readAll()[0]
        let worst = zip(read, samples).map { abs($0 - $1) }.max() ?? 1
        XCTAssertLessThanOrEqual(worst, 1.0 / 8_388_608)
    }

    /// Reserved space the file does not use is given back: a file reserved for 1,000,000 stereo frames and
    /// finished with 48,000 holds no more disk blocks than its bytes rounded up to the file system's blocks
    /// (plus one block of slack), and its samples read back exactly.
    func testReservedSpaceTheFileDoesNotUseIsGivenBack() throws {
        let url = directory.appendingPathComponent("reserved.wav")
        let channels = [ramp(48_000, channel: 0), ramp(48_000, channel: 1)]
        let writer = try AudioFileWriter(url: url, sampleRate: 48_000, channelCount: 2)
        try writer.reserve(frames: 1_000_000)
        try writer.write(planar: channels)
        try writer.finish()
        var status = stat()
        XCTAssertEqual(stat(url.path, &status), 0)
        let blockSize = Int(status.st_blksize)
        let allocated = Int(status.st_blocks) * 512
        XCTAssertLessThanOrEqual(allocated, (Int(status.st_size) + blockSize - 1) / blockSize * blockSize + blockSize,
                                 "\(allocated) bytes allocated for a \(status.st_size)-byte file")
        XCTAssertEqual(try AudioFileReader(url: url).readAll(), channels)
    }

    /// A render too large for the disk fails when its space is reserved, naming the file and the size, and
    /// leaves nothing behind (2^48 frames of stereo float: 2 PiB, beyond any disk and ext4's largest file).
    func testReservingMoreThanTheDiskHoldsFailsAtOnce() throws {
        let url = directory.appendingPathComponent("huge.wav")
        let writer = try AudioFileWriter(url: url, sampleRate: 48_000, channelCount: 2)
        do {
            try writer.reserve(frames: 1 << 48)
            throw XCTSkip("this file system does not reserve space (fallocate unsupported)")
        } catch let error as AudioFileError {
            XCTAssertTrue("\(error)".contains(url.path) && "\(error)".contains("not enough disk space for"), "\(error)")
        }
        writer.cancel()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    func testCancelLeavesTheExistingFileAlone() throws {
        let url = directory.appendingPathComponent("keep.wav")
        try Data("precious".utf8).write(to: url)
        do {
            let writer = try AudioFileWriter(url: url, sampleRate: 48_000, channelCount: 2)
            try writer.write(interleaved: [0.1, 0.2, 0.3, 0.4])
        }   // dropped without finish()
        XCTAssertEqual(try Data(contentsOf: url), Data("precious".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["keep.wav"])
    }

    func testErrorsNameTheFile() {
        let missing = directory.appendingPathComponent("no/such/dir/out.wav")
        XCTAssertThrowsError(try AudioFileWriter(url: missing, sampleRate: 48_000, channelCount: 2)) { error in
            XCTAssertTrue("\(error)".contains(missing.path), "\(error)")
        }
        let notAudio = directory.appendingPathComponent("notes.txt")
        XCTAssertTrue(FileManager.default.createFile(atPath: notAudio.path, contents: Data("hello".utf8)))
        XCTAssertThrowsError(try AudioFileReader(url: notAudio)) { error in
            XCTAssertTrue("\(error)".contains(notAudio.path), "\(error)")
        }
        XCTAssertThrowsError(try AudioFileWriter(url: missing, sampleRate: 0, channelCount: 2))
    }
}

private extension Array where Element == Int {
    /// The sizes repeated until they add up to at least `total`.
    func cycled(until total: Int) -> [Int] {
        var sizes: [Int] = []
        while sizes.reduce(0, +) < total { sizes.append(self[sizes.count % count]) }
        return sizes
    }
}
