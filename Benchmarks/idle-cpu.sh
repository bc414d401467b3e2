#!/usr/bin/env bash
# CPU per thread of a running show: `foldback run` with --web-port and --osc-port on a private dummy jackd
# (48 kHz / 256), sampled from /proc/<pid>/task/*/stat over SECONDS after it settles; prints a table
# (Benchmarks/threadcpu.py). Not a test: figures go to Benchmarks/README.md.
#
#   Benchmarks/idle-cpu.sh [--buses N] [--signal] [--seconds S] [PRESET]
#
#   PRESET      default presets/monitor-console.toml (nothing plays into it: idle)
#   --buses N   instead of PRESET, a generated show of N stereo buses (loudness on every bus), fed by one
#               stereo strip
#   --signal    foldback-probe plays into the strips meanwhile (a voice, and a chord into stereo strips),
#               so loudness, feedback and meters work on sound rather than digital silence
#   --seconds S how long to sample (default 60)
# FOLDBACK_BIN=DIR uses binaries already built there (else a release build).
set -euo pipefail
cd "$(dirname "$0")/.."
buses=0 signal=0 seconds=60 preset=presets/monitor-console.toml
while [[ $# -gt 0 ]]; do
    case "$1" in
        --buses) buses="$2"; shift 2 ;;
        --signal) signal=1; shift ;;
        --seconds) seconds="$2"; shift 2 ;;
        -*) echo "idle-cpu.sh: unknown option $1" >&2; exit 2 ;;
        *) preset="$1"; shift ;;
    esac
done
[[ "$buses" =~ ^[0-9]+$ && "$seconds" =~ ^[0-9]+$ ]] || { echo "idle-cpu.sh: --buses and --seconds take whole numbers" >&2; exit 2; }

if [[ -z "${FOLDBACK_BIN:-}" ]]; then
    swift build -c release --product foldback >&2
    swift build -c release --product foldback-probe >&2
    FOLDBACK_BIN="$(swift build -c release --show-bin-path)"
fi
work="$(mktemp -d /tmp/foldback-idle.XXXXXX)"
server="idle-$$"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

if [[ "$buses" -gt 0 ]]; then
    preset="$work/buses-$buses.toml"
    { printf '[preset]\nname = "%s stereo buses"\n' "$buses"
      for bus in $(seq "$buses"); do printf '\n[[bus]]\nname = "mix%s"\nchannels = 2\n' "$bus"; done
      printf '\n[[strip]]\nname = "band"\nchannels = 2\n'
      for bus in $(seq "$buses"); do printf '\n  [[strip.send]]\n  bus = "mix%s"\n  gain_db = -6.0\n' "$bus"; done
    } > "$preset"
fi

JACK_NO_AUDIO_RESERVATION=1 jackd -n "$server" -t 2000 -d dummy -r 48000 -p 256 -C 4 -P 8 > "$work/jackd.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do jack_lsp -s "$server" > /dev/null 2>&1 && break; sleep 0.1; done

"$FOLDBACK_BIN/foldback" run "$preset" --server "$server" --quiet --osc-port 0 --web-port 0 > "$work/foldback.log" 2>&1 &
foldback=$!
pids+=($foldback)
for _ in $(seq 300); do grep -q "engineer: " "$work/foldback.log" && break; sleep 0.1; done
grep -q "engineer: " "$work/foldback.log" || { cat "$work/foldback.log" >&2; echo "idle-cpu.sh: foldback did not start" >&2; exit 1; }

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
