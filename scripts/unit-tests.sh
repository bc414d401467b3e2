#!/usr/bin/env bash
# Runs the XCTest suites with a deadline, in two processes side by side (UNIT_TEST_SHARDS=1: one, in order): shard 1 is
# FoldbackIntegrationTests, the JACK tests, which spend most of their time waiting on audio in real time; shard 2 is
# every other suite (DSP, engine, render, feedback, control, web, CLI: offline and mostly CPU-bound, no JACK server)
# but the few that judge thread scheduling or real-time recovery, which run after both, alone (shard 3).
# So the offline work fills the JACK tests' waits, and no more jackd run at once than in one process (jackd allows
# 8 servers per machine). The JACK tests' audio threads run SCHED_FIFO, so the offline shard does not starve them.
# Logs: .build/unit-tests.N.log per shard (line-buffered, so a hang shows the test it hangs in), joined into
# .build/unit-tests.log at the end; the terminal shows failures, skips and each suite's result.
# UNIT_BUILD: the build options `make unit` built the tests with (its optimised scratch path), so the run finds them.
# SPDX-License-Identifier: GPL-3.0-or-later
set -uo pipefail
cd "$(dirname "$0")/.."
log=.build/unit-tests.log
deadline=${UNIT_TEST_DEADLINE:-900}
shards=${UNIT_TEST_SHARDS:-2}
mkdir -p .build
rm -f .build/unit-tests.*.log

# The test binary itself, as `swift test` runs it (two `swift test` at once would wait on each other's build lock).
bin=$(${SWIFT:-swift} build --show-bin-path ${UNIT_BUILD:-})
xctest="$bin/FoldbackPackageTests.xctest"
[ -x "$xctest" ] || { echo "XCTest: $xctest is missing: build the tests first (make unit)"; exit 1; }

# The classes of each shard, as Module.Class names (the binary's own list).
classes=$("$xctest" --list-tests | sed -n 's|^\([A-Za-z0-9_]*\.[A-Za-z0-9_]*\)/.*|\1|p' | sort -u)
[ -n "$classes" ] || { echo "XCTest: $xctest lists no tests"; exit 1; }
# Classes that judge how threads get the CPU (a render worker awake before a paced cycle is due, rtcheck's graphs
# freed within its run, netjack2 audio back within 5 s of a master restart, eight strips' raw inputs recorded
# sample-exact in real time) run last, alone, in a shard of their own: beside another shard they were seen to miss
# on this 2-core VM.
alone='^(FoldbackEngineTests\.ParallelRenderTests|FoldbackRealtimeTests\..*|FoldbackSandboxTests\.(SandboxChannelTests|SandboxedUnitTests)|FoldbackIntegrationTests\.(NetJACKTests|SoundcheckJACKTests))$'
if [ "$shards" -ge 2 ]; then
  patterns=('^FoldbackIntegrationTests\.' '!^FoldbackIntegrationTests\.' "$alone")
else
  patterns=('.')
fi
alone_shard=-1
filters=()   # each shard's classes, comma-separated as the binary takes them; a pattern starting with ! takes the classes it does not match
for pattern in "${patterns[@]}"; do
  pool=$classes   # the shards side by side take what the alone shard does not
  [ "$shards" -ge 2 ] && [ "$pattern" != "$alone" ] && pool=$(grep -vE "$alone" <<<"$classes")
  if [ "${pattern:0:1}" = "!" ]; then picked=$(grep -vE "${pattern:1}" <<<"$pool"); else picked=$(grep -E "$pattern" <<<"$pool"); fi
  selection=$(tr '\n' ',' <<<"$picked" | sed 's/^,*//; s/,*$//')
  [ -n "$selection" ] || continue
  [ "$pattern" = "$alone" ] && alone_shard=${#filters[@]}
  filters+=("$selection")
done
# Every class in exactly one shard: a class no pattern takes would silently not run.
taken=$(printf '%s\n' "${filters[@]}" | tr ',' '\n' | sort)
[ "$taken" = "$classes" ] || { echo "XCTest: the shards do not cover each class exactly once:"; diff <(echo "$classes") <(echo "$taken"); exit 1; }

echo "XCTest: ${#filters[@]} shard(s), logs in .build/unit-tests.N.log, joined into $log (deadline ${deadline} s)"
# The terminal follows every shard's log, filtered, while they run.
tail -q -n +1 -F $(for index in "${!filters[@]}"; do echo ".build/unit-tests.$((index + 1)).log"; done) 2>/dev/null \
  | grep --line-buffered -E "error:|: failed|failed \(|skipped|Suite '.*' (passed|failed)|Executed [0-9]+ tests?, with|Fatal|Crash" &
follower=$!
pids=()
for index in "${!filters[@]}"; do
  shard=$((index + 1))
  [ "$index" -eq "$alone_shard" ] && [ ${#pids[@]} -gt 0 ] && wait "${pids[@]}"   # the alone shard starts when the others end
  # Line-buffered, so a hang shows the test it hangs in; the deadline kills a hang instead of stalling CI.
  # Each shard's JACK servers keep their metadata (pretty names) to themselves: make test runs other servers beside them.
  ( timeout --kill-after=30 "$deadline" bash scripts/private-jack-metadata.sh stdbuf -oL -eL "$xctest" "${filters[$index]}" \
      >".build/unit-tests.$shard.log" 2>&1
    echo $? >".build/unit-tests.$shard.status" ) &
  pids+=($!)
done
wait "${pids[@]}"
sleep 0.5
kill "$follower" 2>/dev/null
wait "$follower" 2>/dev/null

status=0
: >"$log"
for index in "${!filters[@]}"; do
  shard=$((index + 1))
  shard_status=$(cat ".build/unit-tests.$shard.status" 2>/dev/null || echo 1)
  rm -f ".build/unit-tests.$shard.status"
  cat ".build/unit-tests.$shard.log" >>"$log"
  if [ "$shard_status" -ne 0 ]; then
    status=$shard_status
    [ "$shard_status" -eq 124 ] && echo "XCTest shard $shard: did not finish within ${deadline} s; the last lines of .build/unit-tests.$shard.log:"
    [ "$shard_status" -ne 124 ] && echo "XCTest shard $shard: exit status $shard_status; the last lines of .build/unit-tests.$shard.log:"
    tail -n 60 ".build/unit-tests.$shard.log"
  fi
done
echo "XCTest: $(grep -cE "^Test Case '.*' passed" "$log") tests passed, $(grep -cE "^Test Case '.*' skipped" "$log") skipped, $(grep -cE "^Test Case '.*' failed" "$log") failed"
exit "$status"
