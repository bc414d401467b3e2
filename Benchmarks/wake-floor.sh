#!/usr/bin/env bash
# What any plugin sandbox costs on this machine before a plugin runs: a paced 48 kHz / 256 cycle alone, then waking a
# second process and waiting for its answer each cycle (Foldback's hand-over, without the plugins), unpinned and with
# both on one CPU. Rounds alternate. Usage: Benchmarks/wake-floor.sh [--rounds N] [--cycles N]
set -euo pipefail
rounds=3 cycles=2000
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds=$2; shift 2 ;;
        --cycles) cycles=$2; shift 2 ;;
        *) echo "usage: $0 [--rounds N] [--cycles N]" >&2; exit 2 ;;
    esac
done
binary=$(mktemp /tmp/wake-floor.XXXXXX)
trap 'rm -f "$binary"' EXIT
cc -O2 -Wall -o "$binary" "$(dirname "$0")/wake-floor.c"
echo "$(date -u '+%F %H:%M UTC'), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
for round in $(seq "$rounds"); do
    printf 'round %s  alone:           ' "$round"; "$binary" "$cycles" 0
    printf 'round %s  woken:           ' "$round"; "$binary" "$cycles" 1
    printf 'round %s  woken, one CPU:  ' "$round"; taskset -c 0 "$binary" "$cycles" 1
done
