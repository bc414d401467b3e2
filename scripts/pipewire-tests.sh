#!/usr/bin/env bash
# The JACK integration tests PipeWire must pass, run through PipeWire's libjack with a private headless pipewire (make pipewire-tests).
#
# A private XDG_RUNTIME_DIR holds a headless `pipewire` (scripts/pipewire-headless.conf: dummy driver, no devices,
# no D-Bus, no session manager) as a desktop's daemon at pipewire-0; FOLDBACK_TEST_SERVER=pipewire makes each
# test class start its own such daemon under a unique name instead of `jackd -d dummy`; LD_LIBRARY_PATH loads
# PipeWire's libjack into the tests, foldback and JACK's tools, as `pw-jack` does. Skips (status 0) only where
# PipeWire is not installed or cannot start at all. Log: .build/pipewire-tests.log.
# SPDX-License-Identifier: GPL-3.0-or-later
set -uo pipefail
cd "$(dirname "$0")/.."
log=.build/pipewire-tests.log
mkdir -p .build

skip() { echo "pipewire-tests: SKIPPED: $*"; exit 0; }
command -v pipewire >/dev/null || skip "pipewire is not installed (Debian: pipewire pipewire-bin pipewire-jack)"
libjack_dir=$(dirname "$(ls /usr/lib/*/pipewire-0.3/jack/libjack.so.0 2>/dev/null | head -n 1)")
[ -e "$libjack_dir/libjack.so.0" ] || skip "PipeWire's libjack is not installed (Debian: pipewire-jack)"

runtime=$(mktemp -d "${TMPDIR:-/tmp}/foldback-pipewire.XXXXXX")
chmod 700 "$runtime"
export XDG_RUNTIME_DIR="$runtime"
unset PIPEWIRE_REMOTE PIPEWIRE_RUNTIME_DIR JACK_DEFAULT_SERVER FOLDBACK_CI_JACK_SERVER
pipewire -c "$PWD/scripts/pipewire-headless.conf" >"$runtime/pipewire.log" 2>&1 &
daemon=$!
cleanup() { kill "$daemon" 2>/dev/null; wait "$daemon" 2>/dev/null; rm -rf "$runtime"; }
trap cleanup EXIT
for _ in $(seq 100); do
  [ -S "$runtime/pipewire-0" ] && break
  kill -0 "$daemon" 2>/dev/null || break
  sleep 0.1
done
if [ ! -S "$runtime/pipewire-0" ]; then
  tail -n 5 "$runtime/pipewire.log"
  skip "PipeWire cannot start here (its log above)"
fi
echo "pipewire-tests: $(pipewire --version | tail -n 1), headless daemon in $runtime, libjack from $libjack_dir; full log in $log"

# The tests as `make unit` built them (UNIT_BUILD: its optimised scratch path), so nothing is built twice.
bin=$(${SWIFT:-swift} build --show-bin-path ${UNIT_BUILD:-})
tests=(
  FoldbackIntegrationTests.PipeWireServerTests                 # SIGINT/SIGTERM with a take, first contact
  FoldbackIntegrationTests.PipeWirePresenceTests
  FoldbackIntegrationTests.ServerRestartTests                  # ten daemon restarts (one at 44.1 kHz), a patchbay disconnect
  FoldbackIntegrationTests.PeriodAndLatencyTests/testJackLspShowsEachPortsOwnLatency
  FoldbackIntegrationTests.RunCommandEndToEndTests/testAMonitorMixPresetMixesAsItStatesDelayedOnlyByTheReportedLimiterLatency
  FoldbackIntegrationTests.RunCommandEndToEndTests/testTwoRenderThreadsMixByTheSameLaw
  FoldbackIntegrationTests.RunCommandEndToEndTests/testAnInEarBusHasAZeroLatencyLimiterAndPassesSignalWithNoDelay
  FoldbackIntegrationTests.HostIntegrationTests/testPortsAndPrettyNamesFollowTheLayout
  FoldbackIntegrationTests.HostIntegrationTests/testConnectionsOthersMakeAreTrackedWithoutAPoll
  FoldbackIntegrationTests.HostIntegrationTests/testMixAndZeroLatencyAtLongPeriod
  FoldbackIntegrationTests.JACKClientTests/testPlayerToRecorderIsSampleExactAtEqualFrameTimes
  FoldbackIntegrationTests.JACKClientTests/testSecondClientWithTakenNameGetsAUniqueName
  FoldbackIntegrationTests.HostIntegrationTests/testSecondHostWithTheSameNameGetsItsOwnPorts
  FoldbackIntegrationTests.MIDIControlTests/testControlChangesMoveTheirParametersThroughTheMappedCurves
  FoldbackIntegrationTests.RecordTapEndToEndTests/testASignalledTakeHoldsEveryFrameAndEqualsWhatTheBusPortsCarried
  FoldbackIntegrationTests.SandboxFaultTests/testSegfaultingPlugin  # a sandboxed plugin crashes 3 times: the other strip's tone stays a clean sine
  FoldbackIntegrationTests.SandboxFaultTests/testHangingPlugin       # … hangs 3 times: the same, each fault seen and the plugin back within 1 s
  FoldbackIntegrationTests.SandboxFault64Tests/testSegfaultingPlugin  # the same at a 64-frame quantum
  FoldbackIntegrationTests.SandboxFault64Tests/testHangingPlugin
  FoldbackIntegrationTests.SandboxFaultTests/testNaNPlugin           # NaN once a second: reset and logged, never a fault, the tone clean
  FoldbackIntegrationTests.SandboxFaultTests/testNaNPluginThatAResetDoesNotCure  # NaN right after every reset: 3 faults, bypassed
  FoldbackIntegrationTests.SandboxReenableOverOSCTests               # bypassed after 3 crashes, re-enabled by oscsend: faulted 0, the plugin's gain again
)
filter=$(IFS=,; echo "${tests[*]%%#*}" | tr -d ' ')
# The XCTest binary directly: `swift test` replaces LD_LIBRARY_PATH, and with it PipeWire's libjack.
FOLDBACK_TEST_SERVER=pipewire LD_LIBRARY_PATH="$libjack_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  stdbuf -oL -eL "$bin/FoldbackPackageTests.xctest" "$filter" 2>&1 \
  | tee "$log" \
  | grep --line-buffered -E "error:|: failed|failed \(|skipped|restart [0-9]|Suite '.*' (passed|failed)|Executed [0-9]+ tests?, with|Fatal|Crash"
status=${PIPESTATUS[0]}
[ "$status" -ne 0 ] && { echo "pipewire-tests: exit status $status; the last lines of $log:"; tail -n 40 "$log"; }
exit "$status"
