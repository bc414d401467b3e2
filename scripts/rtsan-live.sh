#!/usr/bin/env bash
# `make rtsan-live`: the real foldback binary, built with RealtimeSanitizer, mixing live on a private dummy
# JACK server while foldback-probe plays into it and records it. Any malloc, free, lock or blocking call in
# the JACK process callback (audio, the MIDI input it copies into its ring, the loudness taps) aborts
# foldback with a report, through period changes (jack_bufsize) too; the run must end clean with audio
# recorded. Meanwhile OSC (liblo's oscsend) moves faders and reloads the preset, so parameter changes and
# crossfaded preset switches run under the sanitizer too, and the spectrum analyser's tap (selected and
# subscribed over OSC) copies a strip or a bus all along. Two presets: vocal-monitor (strip units, LV2-free
# monitor mix) and monitor-console (bus units, a graphic EQ, a feedback suppressor and a delay on buses, an
# effect bus and its return, send delays aligning paths). In both, four web pages (scripts/web-moves.py) move
# send levels over the web surface. Then vocal-echo (a de-esser, an echo on an effect bus) with a MIDI clock at 96 BPM
# into midi_in (foldback-probe --midi-clock) while OSC moves the show tempo and its source. A further run plays a backing track through Rubber Band (a file source with
# `tempo` and `pitch_semitones`) while OSC moves its tempo and key. Both run with --threads 2 where there are two CPUs, so the render workers
# JACK creates run their work items under the sanitizer as well.
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
export JACK_NO_AUDIO_RESERVATION=1 RTSAN_OPTIONS=halt_on_error=true

# live PRESET READY_PORT "OSC MOVES" WEB_PATH PROBE_ARGS…: one sanitized run; OSC MOVES is a list of
# "path f value" triples separated by ';', sent each step with a reload; WEB_PATH is the parameter four
# web pages move meanwhile. $run_args (word-split) is added to foldback run's arguments.
take_dir="${TMPDIR:-/tmp}/foldback-rtsan-take-$$"
run_args=""
expect_log=""   # a line the run's log must hold (what proves a path ran), or nothing
# hang_report PID WHY: what every thread of a stuck foldback is doing (a hang used to show only as make's timeout).
hang_report() {
  local pid=$1
  echo "rtsan-live: $2; foldback's threads:"
  for task in /proc/"$pid"/task/*; do
    echo "  $(cat "$task/comm" 2>/dev/null) state $(awk '{print $3}' "$task/stat" 2>/dev/null) wchan $(cat "$task/wchan" 2>/dev/null)"
  done
  if command -v gdb >/dev/null; then
    timeout 60 gdb -p "$pid" -batch -ex "thread apply all bt 12" 2>/dev/null | grep -E '^(Thread|#)' | head -n 200 || true
  fi
}

live() {
  local preset=$1 ready=$2 moves=$3 web_path=$4
  shift 4
  local server="foldback-rtsan-$$-$RANDOM" log="${TMPDIR:-/tmp}/foldback-rtsan-live-$$.log"
  local osc_port=$((20000 + ($$ + RANDOM) % 20000))
  .build-rtsan/release/foldback run "$preset" --server "$server" --start-server dummy --no-connect --quiet --osc-port "$osc_port" --web-port 0 --x32-port 0 --xair-port 0 \
    --threads "$(( $(nproc) >= 2 ? 2 : 1 ))" $run_args >"$log" 2>&1 &
  local pid=$!
  trap "kill -INT $pid 2>/dev/null || true" EXIT
  for _ in $(seq 1 200); do
    JACK_DEFAULT_SERVER="$server" jack_lsp 2>/dev/null | grep -q "^foldback:$ready\$" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  if ! kill -0 "$pid" 2>/dev/null; then
    cat "$log"
    echo "rtsan-live: $preset FAILED (foldback ended before its ports appeared)"
    exit 1
  fi
  # Period changes at run time (jack_bufsize 32 ↔ 4096): each size runs for a moment under the sanitizer.
  for frames in 32 4096 64 1024 256; do
    if ! JACK_DEFAULT_SERVER="$server" jack_bufsize "$frames" >/dev/null; then
      cat "$log"
      echo "rtsan-live: $preset FAILED (jack_bufsize $frames: the server or foldback is gone)"
      exit 1
    fi
    sleep 0.2
  done
  (
    oscsend 127.0.0.1 "$osc_port" /foldback/analyser/subscribe 2>/dev/null || true   # the analyser's tap runs while subscribed
    for step in $(seq 1 20); do
      IFS=';' read -ra list <<<"$moves"
      for move in "${list[@]}"; do
        read -r path type value <<<"$move"
        oscsend 127.0.0.1 "$osc_port" "$path" "$type" "${value//STEP/$((step % 6))}" 2>/dev/null || true
      done
      oscsend 127.0.0.1 "$osc_port" /foldback/preset/reload 2>/dev/null || true
      sleep 0.1
    done
  ) &
  local control=$!
  local web_port engineer
  web_port=$(grep -o 'web on 127\.0\.0\.1:[0-9]*' "$log" | cut -d: -f2 || true)
  engineer=$(grep -o 'engineer: http://[^ ]*token=[0-9a-f]*' "$log" | sed 's/.*token=//' || true)
  timeout 120 python3 scripts/web-moves.py "$web_port" "$engineer" "$web_path" 4 40 &
  local web=$!
  local probe_status=0
  timeout 60 .build/release/foldback-probe --server "$server" --seconds 3 "$@" --output "${TMPDIR:-/tmp}/foldback-rtsan-live-$$.wav" \
    | tail -n 1 || probe_status=$?
  wait "$control" || true
  local web_status=0
  wait "$web" || web_status=$?
  if [ "$probe_status" -ne 0 ] || [ "$web_status" -ne 0 ]; then
    hang_report "$pid" "the probe (status $probe_status) or the web pages (status $web_status) failed"
  fi
  kill -INT "$pid"
  local status=0
  for _ in $(seq 1 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  if kill -0 "$pid" 2>/dev/null; then
    hang_report "$pid" "foldback did not end within 30 s of SIGINT"
    kill -KILL "$pid" 2>/dev/null || true
    status=137
  fi
  wait "$pid" || status=$?
  trap - EXIT
  if grep -q "RealtimeSanitizer" "$log" || [ "$status" -ne 0 ] || [ "$web_status" -ne 0 ] || [ "$probe_status" -ne 0 ] \
     || ! grep -q "OSC on" "$log" \
     || { [ -n "$expect_log" ] && ! grep -qF "$expect_log" "$log"; }; then
    cat "$log"
    echo "rtsan-live: $preset FAILED (foldback exit $status, probe $probe_status, web pages $web_status${expect_log:+; the log must say '$expect_log'})"
    exit 1
  fi
  if [ -n "$expect_log" ]; then grep -F "$expect_log" "$log" | tail -n 1; fi
}

run_args="--record-inputs $take_dir"   # the strips' raw inputs, played back by the third run
live presets/vocal-monitor.toml main_L "/foldback/strip/vox/gain_db f -STEP;/foldback/analyser/select s strip/vox/post" /foldback/strip/vox/send/iem_vox/gain_db \
  --play foldback:vox_in=voice --play foldback:backing_in_L=chord --play foldback:backing_in_R=chord \
  --midi foldback:midi_in --record foldback:main_L --record foldback:iem_vox_L
run_args=""
live presets/monitor-console.toml wedge \
  "/foldback/bus/wedge/unit/ring_out/g2k5 f -STEP;/foldback/bus/wedge/unit/fbx/max_depth_db f -1STEP;/foldback/bus/foh/unit/align/delay_ms f 1STEP;/foldback/bus/iem_vox/limiter/ceiling_db f -STEP;/foldback/strip/verb_ret/gain_db f -STEP;/foldback/analyser/select s bus/wedge" \
  /foldback/strip/vox/send/iem_vox/gain_db \
  --play foldback:vox_in=voice --play foldback:gtr_in_L=chord --play foldback:gtr_in_R=chord \
  --record foldback:foh_L --record foldback:wedge
# The singer's effects: vocal-echo's de-esser and tempo-synced ping-pong echo while a drum machine's MIDI clock at 96 BPM
# comes into midi_in (the clock tracker counts its ticks in the process callback) with tempo/source on midi_clock and the
# tempo set by hand between clock readings, so the echo's time keeps changing (crossfades) under the sanitizer.
expect_log="BPM from midi_clock"   # the clock was heard and followed
live presets/vocal-echo.toml main_L \
  "/foldback/tempo/bpm f 9STEP;/foldback/tempo/source s midi_clock;/foldback/strip/vox/unit/deesser/threshold_db f -3STEP" \
  /foldback/strip/vox/send/iem_vox/gain_db \
  --play foldback:vox_in=voice --play foldback:backing_in_L=chord --play foldback:backing_in_R=chord \
  --midi foldback:midi_in --midi-clock 96 --record foldback:main_L --record foldback:iem_vox_L
expect_log=""
# A stretched file source: the disk thread runs Rubber Band; the strip only reads its ring while the tempo and key move.
backing_dir=$(mktemp -d)
sox -n -r 44100 -c 2 "$backing_dir/backing.wav" synth 6 sine 220 sine 330
cat >"$backing_dir/backing.toml" <<'TOML'
[[bus]]
name = "main"

[[strip]]
name = "vox"
send = [{ bus = "main" }]

[[strip]]
name = "backing"
channels = 2
source = { file = "backing.wav", loop = true, tempo = 0.85, pitch_semitones = -2 }
send = [{ bus = "main" }]
TOML
live "$backing_dir/backing.toml" main_L \
  "/foldback/strip/backing/source/tempo f 0.7STEP;/foldback/strip/backing/source/pitch_semitones f -STEP;/foldback/strip/backing/source/cents f 1STEP" \
  /foldback/strip/backing/send/main/gain_db \
  --play foldback:vox_in=voice --record foldback:main_L
# A binaural in-ear bus (the Debian KEMAR set) with a room: sources placed around the head and the room's level, moved over
# OSC and reloaded (the moved sources' filters are built on fb-binaural).
cat >"$backing_dir/binaural.toml" <<'TOML'
[[bus]]
name = "main"

[[bus]]
name = "iem"
in_ear = true
binaural = true
room = true
room_db = -3.0

[[strip]]
name = "vox"
send = [{ bus = "main" }, { bus = "iem", azimuth_deg = 20.0 }]

[[strip]]
name = "keys"
channels = 2
send = [{ bus = "main" }, { bus = "iem", azimuth_deg = -90.0, distance_m = 2.0, width = 0.5 }]
TOML
live "$backing_dir/binaural.toml" iem_L \
  "/foldback/strip/vox/send/iem/azimuth_deg f -1STEP0;/foldback/strip/keys/send/iem/azimuth_deg f 1STEP5;/foldback/strip/keys/send/iem/elevation_deg f STEP5;/foldback/strip/vox/send/iem/distance_m f 1.STEP;/foldback/bus/iem/room_db f -STEP" \
  /foldback/strip/vox/send/iem/gain_db \
  --play foldback:vox_in=voice --play foldback:keys_in_L=chord --play foldback:keys_in_R=chord --record foldback:iem_L
rm -rf "$backing_dir"
# Sandboxed LV2 plugins (presets/lv2-vocal.toml with isolation = "unit"): each in a foldback-sandbox process (linked into
# .build-rtsan with RealtimeSanitizer, found beside foldback) whose serve cycle runs under the sanitizer as Foldback's own
# cycle does; its stderr lands in the log, so a violation there fails the run too. Meanwhile OSC moves a sandboxed
# plugin's control and one sandbox is killed (SIGKILL) mid-run: its unit bypasses, it is restarted off the audio thread
# and comes back, with no other fault logged.
sandbox_dir=$(mktemp -d)
sed 's/^name = "Vocal monitor (LV2)"$/&\nisolation = "unit"/' presets/lv2-vocal.toml >"$sandbox_dir/lv2-vocal-sandboxed.toml"
grep -q '^isolation = "unit"' "$sandbox_dir/lv2-vocal-sandboxed.toml"
sandbox_kill() {   # run beside live: once the preset reloads have begun (the period changes, which start new sandboxes, are
  # over; each reload continues the running sandboxes: "kept running: vox/eq"), kills one sandbox of that foldback
  local log=$1 parent child
  for _ in $(seq 1 600); do
    grep -q "kept running: vox/eq" "$log" 2>/dev/null && break
    sleep 0.05
  done
  parent=$(pgrep -n -f "foldback run $sandbox_dir/" || true)
  child=$([ -n "$parent" ] && pgrep -P "$parent" -f foldback-sandbox | head -n 1 || true)
  if [ -n "$child" ]; then kill -KILL "$child"; fi
}
( sandbox_kill "${TMPDIR:-/tmp}/foldback-rtsan-live-$$.log" ) &
killer=$!
live "$sandbox_dir/lv2-vocal-sandboxed.toml" main_L "/foldback/strip/vox/unit/eq/gain3 f -STEP;/foldback/strip/vox/unit/comp/threshold f -2STEP" \
  /foldback/strip/vox/send/main/gain_db --play foldback:vox_in=voice --record foldback:main_L
wait "$killer" || true
log="${TMPDIR:-/tmp}/foldback-rtsan-live-$$.log"
# A sandbox that missed deadlines at the 32-frame period of a loaded machine (a hang fault) is not a realtime violation;
# one that crashed by itself or exited (a RealtimeSanitizer abort in the sandbox exits) is.
if ! grep -q "faulted (crashed: signal 9 (SIGKILL))" "$log" || ! grep -q "came back" "$log" \
   || grep "faulted (" "$log" | grep -v "signal 9 (SIGKILL)" | grep -qv "faulted (hang:"; then
  cat "$log"
  echo "rtsan-live: the sandboxed preset's killed sandbox did not come back, or a sandbox crashed or exited by itself"
  exit 1
fi
# The same chain with isolation = "strip": the three plugins in one sandbox, one wake and one collect per cycle, its
# chain's serve cycle under the sanitizer; a reload starts a new group sandbox (only "unit" sandboxes carry over).
sed 's/^isolation = "unit"$/isolation = "strip"/' "$sandbox_dir/lv2-vocal-sandboxed.toml" >"$sandbox_dir/lv2-vocal-strip.toml"
grep -q '^isolation = "strip"' "$sandbox_dir/lv2-vocal-strip.toml"
live "$sandbox_dir/lv2-vocal-strip.toml" main_L "/foldback/strip/vox/unit/eq/gain3 f -STEP;/foldback/strip/vox/unit/comp/threshold f -2STEP" \
  /foldback/strip/vox/send/main/gain_db --play foldback:vox_in=voice --record foldback:main_L
if grep "faulted (" "$log" | grep -qv "faulted (hang:"; then
  cat "$log"
  echo "rtsan-live: a strip sandbox crashed or exited by itself"
  exit 1
fi
rm -rf "$sandbox_dir"
# The virtual sound check: the first run's take played through vocal-monitor's strips, moved live ↔ take (crossfades) and located.
run_args="--soundcheck $take_dir"
live presets/vocal-monitor.toml main_L "/foldback/soundcheck/all s live;/foldback/soundcheck/strip/vox s take;/foldback/soundcheck/all s take;/foldback/soundcheck/locate f 0.STEP" \
  /foldback/strip/vox/send/iem_vox/gain_db --play foldback:vox_in=voice --record foldback:main_L
run_args=""
rm -rf "$take_dir"
echo "rtsan-live: three presets (strip units; bus units, effect return, send delays; de-esser and an echo following MIDI clock), a preset of sandboxed LV2 plugins (one sandbox killed and back) and the same in one strip sandbox, a stretched file source with its tempo and key moving, a binaural in-ear bus with its sources moving, and a sound-check take played back, each through five period changes, then 3 s of live JACK processing with MIDI, OSC moves, preset reloads and web moves from four pages under RealtimeSanitizer, no violation"
