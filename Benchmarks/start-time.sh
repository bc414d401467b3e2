#!/usr/bin/env bash
# How long `foldback run` takes to start a show with plugin sandboxes: a generated preset of N mono strips, each
# x42 fil4 + darc (one "strip" sandbox per strip, the live default), on a private dummy jackd (48 kHz / 256); the
# time from exec to foldback's "running" line (its graph built, every sandbox ready), and the sandboxes then alive.
# Not a test: figures go to Benchmarks/README.md. Needs x42-plugins.
#
#   Benchmarks/start-time.sh [--rounds N] [--strips N] [--binaries "OLD NEW"]
#
#   --binaries  folders holding a `foldback` build (default .build/release): each round runs each in turn, the order
#               alternating by round, so an old and a new build see the same load
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=3 strips=8 binaries=".build/release"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --strips) strips="$2"; shift 2 ;;
        --binaries) binaries="$2"; shift 2 ;;
        *) echo "start-time.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
export JACK_NO_AUDIO_RESERVATION=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
preset="$work/plugin-strips.toml"
printf '[preset]\nname = "%s plugin strips"\n\n[[bus]]\nname = "main"\nchannels = 2\n' "$strips" >"$preset"
for ((i = 0; i < strips; i++)); do
    printf '\n[[strip]]\nname = "s%d"\nchannels = 1\n  [[strip.unit]]\n  type = "lv2"\n  id = "eq"\n  uri = "http://gareus.org/oss/lv2/fil4#mono"\n  [[strip.unit]]\n  type = "lv2"\n  id = "comp"\n  uri = "http://gareus.org/oss/lv2/darc#mono"\n  [[strip.send]]\n  bus = "main"\n' "$i" >>"$preset"
done

# one BIN: prints "seconds sandboxes"
one() {
    local bin=$1 server="fb-start-$$-$RANDOM" out="$work/out"
    jackd -n "$server" -t 2000 -d dummy -r 48000 -p 256 >/dev/null 2>&1 &
    local jackd_pid=$!
    jack_wait -s "$server" -w -t 10 >/dev/null
    : >"$out"
    local start; start=$(date +%s.%N)
    "$bin/foldback" run "$preset" --server "$server" --no-connect --quiet >"$out" 2>&1 &
    local pid=$!
    for _ in $(seq 1 2000); do grep -q '^foldback: running' "$out" && break; sleep 0.005; done
    local end; end=$(date +%s.%N)
    local alive; alive=$(pgrep -c -P "$pid" foldback-sandb || true)
    kill -INT "$pid"; wait "$pid" || true
    kill "$jackd_pid"; wait "$jackd_pid" 2>/dev/null || true
    echo "$(echo "$end - $start" | bc) $alive"
}

read -r -a folders <<<"$binaries"
echo "round build seconds-to-running sandboxes   ($strips strips of fil4 + darc)"
for ((round = 1; round <= rounds; round++)); do
    order=("${folders[@]}")
    if ((round % 2 == 0)); then order=(); for ((k = ${#folders[@]} - 1; k >= 0; k--)); do order+=("${folders[k]}"); done; fi
    for folder in "${order[@]}"; do
        read -r seconds alive < <(one "$folder")
        printf '%d %s %.3f %s\n' "$round" "$(basename "$folder")" "$seconds" "$alive"
    done
done
