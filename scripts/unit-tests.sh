#!/usr/bin/env bash
# Runs the XCTest suites with a deadline; the full log goes to .build/unit-tests.log, the terminal shows failures, skips and each suite's result.
# UNIT_BUILD: the build options `make unit` built the tests with (its optimised scratch path), so the run finds them.
# SPDX-License-Identifier: GPL-3.0-or-later
set -uo pipefail
cd "$(dirname "$0")/.."
log=.build/unit-tests.log
deadline=${UNIT_TEST_DEADLINE:-900}
mkdir -p .build
echo "XCTest: full log in $log (deadline ${deadline} s)"
# Line-buffered, so a hang shows the test it hangs in; the deadline kills a hang instead of stalling CI.
timeout --kill-after=30 "$deadline" stdbuf -oL -eL "${SWIFT:-swift}" test --disable-swift-testing ${UNIT_BUILD:-} 2>&1 \
  | tee "$log" \
  | grep --line-buffered -E "error:|: failed|failed \(|skipped|Suite '.*' (passed|failed)|Executed [0-9]+ tests?, with|Fatal|Crash"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  [ "$status" -eq 124 ] && echo "XCTest: did not finish within ${deadline} s; the last lines of $log:"
  [ "$status" -ne 124 ] && echo "XCTest: exit status $status; the last lines of $log:"
  tail -n 60 "$log"
fi
exit "$status"
