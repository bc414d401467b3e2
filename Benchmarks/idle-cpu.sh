#!/usr/bin/env bash
# CPU per thread of a running show: `foldback run` with --web-port and --osc-port on a private dummy jackd
# (48 kHz / 256), sampled from /proc/<pid>/task/*/schedstat over SECONDS after it settles; prints a table
# (Benchmarks/threadcpu.py). Not a test: figures go to Benchmarks/README.md.
#
#   Benchmarks/idle-cpu.sh [--buses N] [--signal] [--seconds S] [PRESET] [-- RUN-ARG...]
#
#   PRESET      default presets/monitor-console.toml (nothing plays into it: idle)
#   --buses N   instead of PRESET, a generated show of N stereo buses (loudness on every bus), fed by one
#               stereo strip
#   --signal    foldback-probe plays into the strips meanwhile (a voice, and a chord into stereo strips),
#               so loudness, feedback and meters work on sound rather than digital silence
#   --seconds S how long to sample (default 60)
#   RUN-ARG     more arguments for `foldback run` ("-- --record-paused" arms a recorder in the work folder)
# FOLDBACK_BIN=DIR uses binaries already built there (else a release build).
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
buses=0 signal=0 seconds=60 preset=presets/monitor-console.toml
while [[ $# -gt 0 ]]; do
    case "$1" in
        --buses) buses="$2"; shift 2 ;;
        --signal) signal=1; shift ;;
        --seconds) seconds="$2"; shift 2 ;;
        --) shift; break ;;
        -*) echo "idle-cpu.sh: unknown option $1" >&2; exit 2 ;;
        *) preset="$1"; shift ;;
    esac
done
[[ "$buses" =~ ^[0-9]+$ && "$seconds" =~ ^[0-9]+$ ]] || { echo "idle-cpu.sh: --buses and --seconds take whole numbers" >&2; exit 2; }

source Benchmarks/live-show.sh
show_setup idle

if [[ "$buses" -gt 0 ]]; then
    preset="$work/buses-$buses.toml"
    { printf '[preset]\nname = "%s stereo buses"\n' "$buses"
      for bus in $(seq "$buses"); do printf '\n[[bus]]\nname = "mix%s"\nchannels = 2\n' "$bus"; done
      printf '\n[[strip]]\nname = "band"\nchannels = 2\n'
      for bus in $(seq "$buses"); do printf '\n  [[strip.send]]\n  bus = "mix%s"\n  gain_db = -6.0\n' "$bus"; done
    } > "$preset"
fi

run_args=()
for arg in "$@"; do [[ "$arg" == --record-paused ]] && run_args+=(--record "$work/takes"); run_args+=("$arg"); done
show_start "$preset" "${run_args[@]}"

if [[ "$signal" -eq 1 ]]; then
    plays=()
    for port in $(jack_lsp -s "$server" "foldback:" | grep '_in' | grep -v midi_in | sed 's/^foldback://'); do
        case "$port" in *_L|*_R) plays+=(--play "foldback:$port=chord") ;; *) plays+=(--play "foldback:$port=voice") ;; esac
    done
    "$FOLDBACK_BIN/foldback-probe" --server "$server" --name idle-probe --seconds $((seconds + 30)) "${plays[@]}" > "$work/probe.log" 2>&1 &
    pids+=($!)
fi
sleep 10   # start-up work done, loudness windows full
echo "$(basename "$preset"), dummy jackd 48 kHz/256, $([[ $signal -eq 1 ]] && echo "probe playing into every input" || echo idle), web and OSC on;" \
    "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 Benchmarks/threadcpu.py "$foldback" "$seconds"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); RSS $(python3 Benchmarks/threadcpu.py "$foldback" rss) MiB"
