#!/usr/bin/env bash
# `make rtsan-live`: the real foldback binary, built with RealtimeSanitizer, mixing live on a private dummy
# JACK server while foldback-probe plays into it and records it. Any malloc, free, lock or blocking call in
# the JACK process callback (audio and the MIDI input it copies into its ring) aborts foldback with a report,
# through period changes (jack_bufsize) too; the run must end clean with audio recorded. Meanwhile OSC
# (liblo's oscsend) moves faders and reloads the preset, so parameter changes and crossfaded preset switches
# run under the sanitizer too, and four web pages (scripts/web-moves.py) move send levels over the web surface.
set -euo pipefail
cd "$(dirname "$0")/.."
server="foldback-rtsan-$$"
log="${TMPDIR:-/tmp}/foldback-rtsan-live-$$.log"
osc_port=$((20000 + $$ % 20000))
export JACK_NO_AUDIO_RESERVATION=1 RTSAN_OPTIONS=halt_on_error=true

.build-rtsan/release/foldback run presets/vocal-monitor.toml --server "$server" --start-server dummy --no-connect --quiet --osc-port "$osc_port" --web-port 0 >"$log" 2>&1 &
pid=$!
trap 'kill -INT $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 200); do
  JACK_DEFAULT_SERVER="$server" jack_lsp 2>/dev/null | grep -q '^foldback:main_L$' && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
# Period changes at run time (jack_bufsize 32 ↔ 4096): each size runs for a moment under the sanitizer.
for frames in 32 4096 64 1024 256; do
  JACK_DEFAULT_SERVER="$server" jack_bufsize "$frames" >/dev/null
  sleep 0.2
done
(
  for step in $(seq 1 20); do
    oscsend 127.0.0.1 "$osc_port" /foldback/strip/vox/gain_db f "-$((step % 6))" 2>/dev/null || true
    oscsend 127.0.0.1 "$osc_port" /foldback/preset/reload 2>/dev/null || true
    sleep 0.1
  done
) &
control=$!
web_port=$(grep -o 'web on 127\.0\.0\.1:[0-9]*' "$log" | cut -d: -f2 || true)
engineer=$(grep -o 'engineer: http://[^ ]*token=[0-9a-f]*' "$log" | sed 's/.*token=//' || true)
python3 scripts/web-moves.py "$web_port" "$engineer" /foldback/strip/vox/send/iem_vox/gain_db 4 40 &
web=$!
.build/release/foldback-probe --server "$server" --seconds 3 \
  --play foldback:vox_in=voice --play foldback:backing_in_L=chord --play foldback:backing_in_R=chord \
  --midi foldback:midi_in --record foldback:main_L --record foldback:iem_vox_L --output "${TMPDIR:-/tmp}/foldback-rtsan-live-$$.wav" | tail -n 1
wait "$control" || true
web_status=0
wait "$web" || web_status=$?
kill -INT "$pid"
status=0
wait "$pid" || status=$?
trap - EXIT
if grep -q "RealtimeSanitizer" "$log" || [ "$status" -ne 0 ] || [ "$web_status" -ne 0 ] || ! grep -q "OSC on" "$log"; then
  cat "$log"
  echo "rtsan-live: FAILED (foldback exit $status)"
  exit 1
fi
echo "rtsan-live: five period changes, then 3 s of live JACK processing with MIDI, OSC fader moves, preset reloads and web fader moves from four pages under RealtimeSanitizer, no violation"
