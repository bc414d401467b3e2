#!/usr/bin/env bash
# Soak (not CI): runs `foldback run` on a private dummy jackd (48 kHz / 256) for MINUTES with recording, OSC,
# MIDI and web traffic, prints its RSS every minute and the CPU per thread over the last minute.
#
#   Benchmarks/soak.sh [MINUTES] [PRESET]        (default 30 minutes, presets/monitor-console.toml)
#
# The preset is copied with a [midi] map added (CC 1 and 2 move strip faders), so the probe's MIDI sweep
# (CC 1-8 every 10 ms, a program change every second) reaches the controller. Traffic: foldback-probe plays a
# voice and a chord into the strips and sends the MIDI sweep; Benchmarks/soak_traffic.py sends 500 OSC moves a
# second with meter subscribers, keeps an engineer WebSocket page open and visits pages and HTTP routes
# (`pip install websockets`). FOLDBACK_BIN=DIR uses binaries already built there (else a release build).
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-30}"
preset="${2:-presets/monitor-console.toml}"
[[ "$minutes" =~ ^[0-9]+$ && "$minutes" -ge 2 ]] || { echo "soak.sh: MINUTES must be a whole number >= 2" >&2; exit 2; }
python3 -c 'import websockets' 2>/dev/null || { echo "soak.sh: needs python3 websockets (pip install websockets)" >&2; exit 2; }

source Benchmarks/live-show.sh
show_setup soak

{ cat "$preset"; printf '\n[midi]\nchannel = 1\n\n[[midi.cc]]\ncc = 1\ntarget = "strip.vox.gain_db"\nmin = -30\nmax = 0\n'
  printf '\n[[midi.cc]]\ncc = 2\ntarget = "strip.gtr.gain_db"\nmin = -30\nmax = 0\n'; } > "$work/soak.toml"

show_start "$work/soak.toml" --record "$work/takes" --record-buses foh,iem_vox,wedge

seconds=$((minutes * 60 + 120))   # traffic outlasts the RSS minutes and the last CPU minute
probe_args=(--server "$server" --name soak-probe --seconds 600 --midi foldback:midi_in
    --play foldback:vox_in=voice --play foldback:gtr_in_L=chord --play foldback:gtr_in_R=chord)
# The probe plays at most an hour at a time: ten-minute runs back to back.
(probe=0; trap 'kill $probe 2>/dev/null; exit 0' TERM
 while true; do "$FOLDBACK_BIN/foldback-probe" "${probe_args[@]}" >> "$work/probe.log" 2>&1 & probe=$!; wait $probe || sleep 1; done) &
pids+=($!)
python3 Benchmarks/soak_traffic.py --osc-port "$osc_port" --web-url "$web_url" --seconds "$seconds" > "$work/traffic.log" 2>&1 &
traffic=$!
pids+=($traffic)

echo "soak: $minutes min of $preset on dummy jackd '$server' 48 kHz/256, pid $foldback, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "minute  RSS MiB  change   anon MiB  change   (changes since minute 1; anon: heap and stacks)"
first=""
for minute in $(seq 0 "$minutes"); do
    [[ "$minute" -gt 0 ]] && sleep 60
    kill -0 "$foldback" 2>/dev/null || { tail -20 "$work/foldback.log" >&2; echo "soak.sh: foldback exited" >&2; exit 1; }
    read -r rss anon < <(python3 Benchmarks/threadcpu.py "$foldback" memory)
    [[ "$minute" -eq 1 ]] && first="$rss $anon"
    changes="$([[ -n "$first" ]] && python3 -c "r, a = $(echo "$first" | tr ' ' ','); print(f'{$rss - r:+7.2f}   {$anon:8.2f}  {$anon - a:+7.2f}')" \
        || printf '%7s   %8.2f' '' "$anon")"
    printf '%6d  %7.2f  %s\n' "$minute" "$rss" "$changes"
done
echo "CPU per thread over the last minute (traffic still running; load $(cut -d' ' -f1-3 /proc/loadavg)):"
python3 Benchmarks/threadcpu.py "$foldback" 60
kill "$traffic" 2>/dev/null || true
wait "$traffic" 2>/dev/null || true
cat "$work/traffic.log"
echo "takes recorded: $(du -sh "$work/takes" | cut -f1); foldback warnings: $(grep -c -i 'warning\|error' "$work/foldback.log" || true)"
