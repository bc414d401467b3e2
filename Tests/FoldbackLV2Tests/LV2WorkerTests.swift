// The LV2 worker with a stand-in plugin: live requests run on the worker thread, offline ones at once; responses reach the plugin after run. Non-realtime (test thread).
// SPDX-License-Identifier: GPL-3.0-or-later
import CLilv
import Foundation
import XCTest
@testable import FoldbackLV2

final class LV2WorkerTests: XCTestCase {
    /// A stand-in plugin's worker: `work` answers an Int32 with it plus one; `work_response` records the answer.
    nonisolated(unsafe) private static let interface: UnsafeMutablePointer<LV2_Worker_Interface> = {
        let interface = UnsafeMutablePointer<LV2_Worker_Interface>.allocate(capacity: 1)
        interface.initialize(to: LV2_Worker_Interface(
            work: { _, respond, respondHandle, size, data in
                guard size == 4, let data else { return LV2_WORKER_ERR_UNKNOWN }
                var answer = data.load(as: Int32.self) + 1
                return respond!(respondHandle, 4, &answer)
            },
            work_response: { handle, _, data in
                handle!.assumingMemoryBound(to: Int32.self).pointee = data!.load(as: Int32.self)
                return LV2_WORKER_SUCCESS
            },
            end_run: nil))
        return interface
    }()

    private func schedule(_ worker: LV2Worker, _ value: Int32) -> LV2_Worker_Status {
        var request = value
        return worker.schedule.pointee.schedule_work(worker.schedule.pointee.handle, 4, &request)
    }

    func testOfflineWorkRunsSynchronously() {
        let received = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        defer { received.deallocate() }
        received.pointee = 0
        let worker = LV2Worker(hosting: .offline)
        worker.attach(interface: UnsafePointer(Self.interface), pluginHandle: UnsafeMutableRawPointer(received))
        XCTAssertEqual(schedule(worker, 41), LV2_WORKER_SUCCESS)
        worker.state.pointee.deliverResponses()
        XCTAssertEqual(received.pointee, 42, "the response is there in the same cycle")
    }

    func testLiveWorkRunsOnWorkerThreadAndRespondsLater() {
        let received = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        defer { received.deallocate() }
        received.pointee = 0
        let worker = LV2Worker(hosting: .live)
        worker.attach(interface: UnsafePointer(Self.interface), pluginHandle: UnsafeMutableRawPointer(received))
        defer { worker.detach() }
        XCTAssertEqual(schedule(worker, 7), LV2_WORKER_SUCCESS)
        let deadline = Date().addingTimeInterval(5)
        while received.pointee == 0 && Date() < deadline {
            worker.state.pointee.deliverResponses()   // what the audio thread does after each run
            usleep(200)
        }
        XCTAssertEqual(received.pointee, 8)
    }

    /// A request larger than the ring is refused with NO_SPACE rather than blocking or crashing.
    func testOversizedRequestIsRefused() {
        let worker = LV2Worker(hosting: .live)
        worker.attach(interface: UnsafePointer(Self.interface), pluginHandle: nil)
        defer { worker.detach() }
        let big = [UInt8](repeating: 1, count: LV2Worker.capacity * 2)
        let status = big.withUnsafeBytes { worker.schedule.pointee.schedule_work(worker.schedule.pointee.handle, UInt32($0.count), $0.baseAddress) }
        XCTAssertEqual(status, LV2_WORKER_ERR_NO_SPACE)
    }
}
