// The OSC listener blocks without a timeout while idle: it still answers after a long quiet spell and stops at once. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl
import Foundation
import XCTest

final class OSCServerIdleTests: XCTestCase {
    /// Idle, `fb-osc` waits in poll with no timeout (it used to wake every 100 ms): a message after 0.3 s of quiet
    /// is answered, and `stop()` interrupts the wait (measured: well under the 0.1 s the old timeout allowed).
    func testAnIdleServerAnswersAfterAQuietSpellAndStopsAtOnce() throws {
        let server = try OSCServer(host: "127.0.0.1", port: 0) { message, _ in [OSCMessage("/reply", [.string(message.path)])] }
        server.start()
        let client = try OSCClient(serverPort: server.local.port)
        Thread.sleep(forTimeInterval: 0.3)   // the quiet spell itself: nothing to wait for
        let reply = try client.request(OSCMessage("/ping", []), timeout: 2)
        XCTAssertEqual(reply?.path, "/reply")
        XCTAssertEqual(reply?.arguments, [.string("/ping")])
        let start = ContinuousClock.now
        server.stop()
        let stopped = ContinuousClock.now - start
        XCTAssertLessThan(stopped, .milliseconds(50), "stop() interrupts the blocked receive: \(stopped)")
        XCTAssertNil(try client.request(OSCMessage("/ping", []), timeout: 0.2), "nothing answers once stopped")
    }

    /// A socket's receive without a timeout returns nil once interrupted, and waits again afterwards.
    func testInterruptEndsAReceiveWithoutATimeout() throws {
        let socket = try UDPSocket(host: "127.0.0.1", port: 0)
        let done = expectation(description: "receive returned")
        Thread.detachNewThread {
            XCTAssertNil(socket.receive(timeout: nil))
            done.fulfill()
        }
        Thread.sleep(forTimeInterval: 0.05)   // let the thread block first (either order must work)
        socket.interrupt()
        wait(for: [done], timeout: 2)
        XCTAssertNil(socket.receive(timeout: 0.05), "the interrupt was taken: a later receive waits its timeout again")
    }
}
