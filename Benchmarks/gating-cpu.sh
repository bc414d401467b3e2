#!/usr/bin/env bash
# What silence gating saves on an idle show: the same binary runs each show with its preset as written (gated)
# and with `[preset] gating = false`, alternating, on a private dummy jackd (48 kHz / 256) with --web-port and
# --osc-port, nothing playing; CPU per thread from /proc/<pid>/task/*/stat over SECONDS after 10 s of settling
# (Benchmarks/threadcpu.py). Not a test: figures go to Benchmarks/README.md and the README's Speed table.
#
#   Benchmarks/gating-cpu.sh [--rounds N] [--seconds S] [--strips N] [--shows "monitor strips"] [--binaries "OLD NEW"]
#
#   monitor   presets/monitor-console.toml: the whole process (% of a core), the audio thread, fb-watchdog
#   strips    a generated show of N (default 64) mono strips of the reference vocal chain (10-band EQ, RMS
#             compressor, reverb; `foldback bench`'s chain) sent to one limited stereo bus
#   --rounds  gated / not pairs per show (default 3), alternating so both see the same load
#   --binaries  two (or more) folders holding a `foldback` binary: each round runs every show and mode with
#             each in turn (the order alternating by round), so an old and a new build see the same load;
#             rows and medians then carry the folder's last component as a fourth key
# FOLDBACK_BIN=DIR uses binaries already built there (else a release build). Prints one row per run and the
# medians per show and mode.
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=3 seconds=20 strips=64 shows="monitor strips" binaries=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --strips) strips="$2"; shift 2 ;;
        --shows) shows="$2"; shift 2 ;;
        --binaries) binaries="$2"; shift 2 ;;
        *) echo "gating-cpu.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
for n in $rounds $seconds $strips; do
    [[ "$n" =~ ^[0-9]+$ ]] || { echo "gating-cpu.sh: '$n' is not a whole number" >&2; exit 2; }
done

for dir in $binaries; do
    [[ -x "$dir/foldback" ]] || { echo "gating-cpu.sh: no foldback binary in '$dir'" >&2; exit 2; }
done
[[ -z "$binaries" ]] || FOLDBACK_BIN="${binaries%% *}"
source Benchmarks/live-show.sh
show_setup gating
results="$work/results.txt"

# The shows, each as written (gated) and with gating = false.
sed 's/^\[preset\]$/[preset]\ngating = false/' presets/monitor-console.toml > "$work/monitor-off.toml"
cp presets/monitor-console.toml "$work/monitor-on.toml"
grep -q '^gating = false' "$work/monitor-off.toml" || { echo "gating-cpu.sh: no [preset] table in monitor-console.toml" >&2; exit 1; }
{
    printf '[[bus]]\nname = "main"\nchannels = 2\nlimiter = true\n'
    for index in $(seq "$strips"); do
        printf '\n[[strip]]\nname = "vox%s"\nchannels = 1\n' "$index"
        printf '\n  [[strip.unit]]\n  type = "eq"\n  gain_db = 0.0\n'
        band=0
        for frequency in 31.0 63.0 125.0 250.0 500.0 1000.0 2000.0 4000.0 8000.0 16000.0; do
            gain=$([[ $((band % 2)) -eq 0 ]] && echo 3.0 || echo -2.0)
            printf '    [[strip.unit.band]]\n    type = "peak"\n    freq_hz = %s\n    gain_db = %s\n    q = 1.4\n' "$frequency" "$gain"
            band=$((band + 1))
        done
        printf '\n  [[strip.unit]]\n  type = "compressor"\n  threshold_db = -24.0\n  ratio = 4.0\n  knee_db = 6.0\n  detection = "rms"\n'
        printf '\n  [[strip.unit]]\n  type = "reverb"\n  decay_s = 1.8\n  mix = 0.25\n'
        printf '\n  [[strip.send]]\n  bus = "main"\n'
    done
} > "$work/strips-body.toml"
printf '[preset]\nname = "%s idle strips"\n\n' "$strips" | cat - "$work/strips-body.toml" > "$work/strips-on.toml"
printf '[preset]\nname = "%s idle strips"\ngating = false\n\n' "$strips" | cat - "$work/strips-body.toml" > "$work/strips-off.toml"

# run SHOW MODE ROUND [BUILD]: one show on a fresh jackd; appends "show mode round audio watchdog nonaudio all load
# [build]" to $results.
run() {
    local show="$1" mode="$2" round="$3" build="${4:-}" base_pids=("${pids[@]}")
    server="gating-$$-${show:0:1}$round$mode${build:0:3}"   # (libjack 1.9.21 aborts on some longer names)
    show_start "$work/$show-$mode.toml"
    sleep 10   # start-up work done
    local table
    table="$(python3 Benchmarks/threadcpu.py "$foldback" "$seconds")"
    local audio watchdog nonaudio all
    audio="$(awk '/^foldback \(audio\)/ {print $NF}' <<< "$table")"
    watchdog="$(awk '/^fb-watchdog/ {print $NF}' <<< "$table")"
    nonaudio="$(awk '/^non-audio total/ {print $NF}' <<< "$table")"
    all="$(awk '/^all threads/ {print $NF}' <<< "$table")"
    echo "$show $mode $round ${audio:-0} ${watchdog:-0} ${nonaudio:-0} ${all:-0} $(cut -d' ' -f1 /proc/loadavg) $build" | tee -a "$results"
    for pid in "${pids[@]:${#base_pids[@]}}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]:${#base_pids[@]}}"; do wait "$pid" 2>/dev/null || true; done
    pids=("${base_pids[@]}")
}

echo "$(date -u '+%F %H:%M') UTC, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "show mode round audio-thread% fb-watchdog% non-audio% whole-process% load${binaries:+ build}"
builds=($binaries)
for round in $(seq "$rounds"); do
    for show in $shows; do
        if [[ $((round % 2)) -eq 1 ]]; then order="on off"; else order="off on"; fi
        for mode in $order; do
            if [[ ${#builds[@]} -eq 0 ]]; then run "$show" "$mode" "$round"; continue; fi
            turn=("${builds[@]}")
            if [[ $((round % 2)) -eq 0 ]]; then turn=(); for ((i = ${#builds[@]} - 1; i >= 0; i--)); do turn+=("${builds[i]}"); done; fi
            for dir in "${turn[@]}"; do
                foldback_bin_saved="$FOLDBACK_BIN"; FOLDBACK_BIN="$dir"
                run "$show" "$mode" "$round" "$(basename "$dir")"
                FOLDBACK_BIN="$foldback_bin_saved"
            done
        done
    done
done
echo "medians (show mode${binaries:+ build} audio-thread% fb-watchdog% non-audio% whole-process%):"
python3 - "$results" <<'EOF'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
for key in sorted({(r[0], r[1], r[8] if len(r) > 8 else "") for r in rows}):
    picked = [r for r in rows if (r[0], r[1], r[8] if len(r) > 8 else "") == key]
    print(key[0], "gated" if key[1] == "on" else "gating=false", *([key[2]] if key[2] else []),
          *(f"{statistics.median(float(r[i]) for r in picked):.2f}" for i in range(3, 7)))
EOF
