#!/usr/bin/env bash
# `make demo`: a private dummy JACK server, Foldback running the vocal-monitor preset with its live status,
# a test client singing into it for 10 seconds, and the main bus recorded to demo-out.wav; then the
# monitor-console preset (bus units, a shared reverb return, aligned paths) with its four mixes recorded
# to demo-console.wav.
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release
seconds="${DEMO_SECONDS:-10}"
export JACK_NO_AUDIO_RESERVATION=1
foldback_pid=
cleanup() { [ -z "$foldback_pid" ] || { kill -INT "$foldback_pid" 2>/dev/null || true; wait "$foldback_pid" 2>/dev/null || true; }; }
trap cleanup EXIT

# play PRESET READY_PORT OUTPUT.wav [foldback run options…] -- [foldback-probe --play/--record options…]:
# runs the preset on its own private dummy server until READY_PORT exists (a condition, not a fixed sleep),
# plays and records for $seconds, then stops Foldback.
play() {
  local preset=$1 ready=$2 output=$3 server="foldback-demo-$$-$RANDOM"
  shift 3
  local options=()
  while [ "$1" != "--" ]; do options+=("$1"); shift; done
  shift
  "$bin/foldback" run "$preset" --server "$server" --start-server dummy --no-connect "${options[@]}" &
  foldback_pid=$!
  for _ in $(seq 1 100); do
    if JACK_DEFAULT_SERVER="$server" jack_lsp 2>/dev/null | grep -q "^foldback:$ready\$"; then break; fi
    kill -0 "$foldback_pid" 2>/dev/null || { echo "foldback exited early" >&2; exit 1; }
    sleep 0.1
  done
  "$bin/foldback-probe" --server "$server" --seconds "$seconds" "$@" --output "$output" >/dev/null
  cleanup
  foldback_pid=
}

echo "== Foldback demo: presets/vocal-monitor.toml on a private dummy JACK server"
play presets/vocal-monitor.toml main_L demo-out.wav -- \
  --play foldback:vox_in=voice --play foldback:backing_in_L=chord --play foldback:backing_in_R=chord \
  --record foldback:main_L --record foldback:main_R
echo
echo "== Wrote demo-out.wav (the 'main' bus, ${seconds} s). Play it with: aplay demo-out.wav  (or any audio player)"

echo
echo "== Part two: presets/monitor-console.toml (front of house, two in-ear mixes, a rung-out wedge, one shared reverb)"
"$bin/foldback" check presets/monitor-console.toml | sed -n '/^Latency added/,$p'
play presets/monitor-console.toml wedge demo-console.wav --quiet -- \
  --play foldback:vox_in=voice --play foldback:gtr_in_L=chord --play foldback:gtr_in_R=chord \
  --record foldback:foh_L --record foldback:foh_R --record foldback:iem_vox_L --record foldback:iem_vox_R \
  --record foldback:iem_gtr_L --record foldback:iem_gtr_R --record foldback:wedge
echo "== Wrote demo-console.wav: 7 channels, foh L/R, iem_vox L/R, iem_gtr L/R, wedge (${seconds} s)"
