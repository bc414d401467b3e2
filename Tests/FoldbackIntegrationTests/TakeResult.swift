// A take recorded on its own thread while the test drives the system under test, waited for with a semaphore. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import FoldbackJACK
import FoldbackJACKTesting

/// The recorder thread's result (the recorder's own timeout bounds the wait).
final class TakeResult: @unchecked Sendable {
    private var value: Result<JACKRecording, JACKError>?
    private let done = DispatchSemaphore(value: 0)

    func set(_ result: Result<JACKRecording, JACKError>) {
        value = result
        done.signal()
    }

    func wait() -> Result<JACKRecording, JACKError> {
        done.wait()
        return value ?? .failure(.invalidArgument("no take"))
    }
}
