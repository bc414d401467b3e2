#!/usr/bin/env bash
# What connected web pages cost: `foldback run` of a 64-strip, 16-bus show (an eq and a compressor on every
# strip, every strip sent to every bus) on a private dummy jackd (48 kHz / 256), its process CPU (all threads,
# /proc) over SECONDS with no page and with N musicians' pages connected (Benchmarks/phone_pages.py: clients
# that fetch the page and talk over its WebSocket as app.js does in a visible tab), in alternating rounds on
# the same running show. Not a test: figures go to Benchmarks/README.md.
#
#   Benchmarks/phones-cpu.sh [--pages "0 16"] [--rounds 2] [--seconds 30] [--strips 64] [--buses 16] [--signal]
#                            [--preset FILE] [--engineer]
#
#   --pages    the page counts measured in each round, in order (musicians of buses 1, 2, … in turn)
#   --preset   this show instead of the generated one (--signal then plays into every strip input it has)
#   --engineer the first page is the engineer's
#   --signal   foldback-probe plays noise into every strip meanwhile, so every meter moves every tick
#              (without it the show is silent and the meters rest at the floor)
# FOLDBACK_BIN=DIR uses binaries already built there (else a release build). Needs python3-websockets.
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
counts="0 16" rounds=2 seconds=30 strips=64 buses=16 signal=0 preset="" engineer=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --pages) counts="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --strips) strips="$2"; shift 2 ;;
        --buses) buses="$2"; shift 2 ;;
        --signal) signal=1; shift ;;
        --preset) preset="$2"; shift 2 ;;
        --engineer) engineer=1; shift ;;
        *) echo "phones-cpu.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
for n in $counts $rounds $seconds $strips $buses; do
    [[ "$n" =~ ^[0-9]+$ ]] || { echo "phones-cpu.sh: '$n' is not a whole number" >&2; exit 2; }
done
py=python3   # the first python3 with websockets: the PATH's, else Debian's (python3-websockets)
$py -c 'import websockets' 2>/dev/null || py=/usr/bin/python3
$py -c 'import websockets' 2>/dev/null || { echo "phones-cpu.sh: needs python3-websockets (apt-get install python3-websockets)" >&2; exit 2; }

source Benchmarks/live-show.sh
show_setup phones
export XDG_STATE_HOME="$work/state"   # the run's page tokens stay in the work folder

if [[ -z "$preset" ]]; then
preset="$work/phones-$strips-$buses.toml"
{ printf '[preset]\nname = "%s strips, %s buses"\n' "$strips" "$buses"
  for bus in $(seq "$buses"); do printf '\n[[bus]]\nname = "mix%s"\nchannels = 2\n' "$bus"; done
  for strip in $(seq "$strips"); do
      printf '\n[[strip]]\nname = "ch%s"\n' "$strip"
      printf '\n  [[strip.unit]]\n  type = "eq"\n  id = "eq"\n    [[strip.unit.band]]\n    type = "high_pass"\n    freq_hz = 80.0\n'
      printf '    [[strip.unit.band]]\n    type = "peak"\n    freq_hz = 2500.0\n    gain_db = -2.0\n    q = 1.0\n'
      printf '\n  [[strip.unit]]\n  type = "compressor"\n  id = "comp"\n  threshold_db = -18.0\n  ratio = 3.0\n'
      for bus in $(seq "$buses"); do printf '\n  [[strip.send]]\n  bus = "mix%s"\n  gain_db = -12.0\n' "$bus"; done
  done
} > "$preset"
fi
show_start "$preset"
mapfile -t links < <(grep -o "bus '[^']*': [^ ]*" "$work/foldback.log" | sed 's/^.*: //')
[[ "${#links[@]}" -gt 0 ]] || { cat "$work/foldback.log" >&2; echo "phones-cpu.sh: no musicians' links" >&2; exit 1; }
[[ "$engineer" -eq 1 ]] && links=("$web_url" "${links[@]}")

if [[ "$signal" -eq 1 ]]; then
    plays=()
    for port in $(jack_lsp -s "$server" "foldback:" | grep '_in' | grep -v midi_in); do plays+=(--play "$port=noise"); done
    "$FOLDBACK_BIN/foldback-probe" --server "$server" --name phones-probe --seconds 3600 "${plays[@]}" > "$work/probe.log" 2>&1 &
    probe=$!
    pids+=($probe)
fi
sleep 10   # start-up work done
if [[ "$signal" -eq 1 ]] && ! kill -0 "$probe" 2>/dev/null; then cat "$work/probe.log" >&2; echo "phones-cpu.sh: foldback-probe stopped" >&2; exit 1; fi
echo "$([[ "$preset" == "$work"/* ]] && echo "$strips strips x $buses buses (eq + compressor per strip, every strip sent to every bus)" || basename "$preset"), dummy jackd 48 kHz/256," \
    "$([[ $signal -eq 1 ]] && echo "noise into every strip" || echo silent), $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"

settle=5
for round in $(seq "$rounds"); do
    for n in $counts; do
        client=""
        if [[ "$n" -gt 0 ]]; then
            urls=()
            for i in $(seq 0 $((n - 1))); do urls+=("${links[$((i % ${#links[@]}))]}"); done
            "$py" Benchmarks/phone_pages.py --seconds $((settle + seconds + 1)) "${urls[@]}" > "$work/pages.log" 2>&1 &
            client=$!
            pids+=($client)
        fi
        sleep "$settle"   # pages connected, their trees and first states sent
        total="$(python3 Benchmarks/threadcpu.py "$foldback" "$seconds" | awk '/^all threads/ {print $3}')"
        pages=""
        if [[ -n "$client" ]]; then
            wait "$client" || { cat "$work/pages.log" >&2; echo "phones-cpu.sh: the pages failed" >&2; exit 1; }
            pages="$(cat "$work/pages.log")"
        fi
        printf 'round %d, %2d pages%s: foldback %6.2f %% of a core over %s s%s\n' "$round" "$n" "$([[ $engineer -eq 1 && $n -gt 0 ]] && echo ' (engineer + musicians)')" "$total" "$seconds" "${pages:+; $pages}"
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
