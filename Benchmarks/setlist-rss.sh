#!/usr/bin/env bash
# Memory over setlist moves (not CI): `foldback run --setlist` of two built-in presets on a private dummy jackd
# (48 kHz / 256), SWITCHES OSC moves back and forth (each waits for its reply), RSS and its anonymous part every
# 100 moves, and the growth after the warm-up (the first WARMUP moves). Issue 41's goal: flat within 2 MiB.
#
#   Benchmarks/setlist-rss.sh [SWITCHES] [WARMUP] [PRESET_A] [PRESET_B]
#       (default 2000 moves, 200 warm-up, presets/vocal-monitor.toml and presets/monitor-console.toml)
#
# FOLDBACK_BIN=DIR uses binaries already built there (else a release build).
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
switches="${1:-2000}"
warmup="${2:-200}"
first="$(realpath "${3:-presets/vocal-monitor.toml}")"
second="$(realpath "${4:-presets/monitor-console.toml}")"
[[ "$switches" =~ ^[0-9]+$ && "$warmup" =~ ^[0-9]+$ && "$warmup" -lt "$switches" ]] \
    || { echo "setlist-rss.sh: SWITCHES and WARMUP must be whole numbers, WARMUP < SWITCHES" >&2; exit 2; }

source Benchmarks/live-show.sh
show_setup setlist-rss
printf '[setlist]\nname = "rss"\n[[song]]\npreset = "%s"\n[[song]]\npreset = "%s"\n' "$first" "$second" > "$work/setlist.toml"

JACK_NO_AUDIO_RESERVATION=1 jackd -n "$server" -t 2000 -d dummy -r 48000 -p 256 -C 4 -P 8 > "$work/jackd.log" 2>&1 &
pids+=($!)
for _ in $(seq 300); do jack_lsp -s "$server" > /dev/null 2>&1 && break; sleep 0.1; done
jack_lsp -s "$server" > /dev/null 2>&1 || { cat "$work/jackd.log" >&2; echo "jackd did not start in 30 s" >&2; exit 1; }
"$FOLDBACK_BIN/foldback" run --setlist "$work/setlist.toml" --server "$server" --quiet --no-connect --osc-port 0 > "$work/foldback.log" 2>&1 &
foldback=$!
pids+=($foldback)
for _ in $(seq 300); do grep -q "OSC on" "$work/foldback.log" && break; sleep 0.1; done
osc_port="$(grep -o 'OSC on [^ ]*' "$work/foldback.log" | grep -o '[0-9]*$' || true)"
[[ -n "$osc_port" ]] || { cat "$work/foldback.log" >&2; echo "foldback did not start" >&2; exit 1; }

echo "setlist-rss: $switches moves between $(basename "$first") and $(basename "$second") on dummy jackd '$server', pid $foldback, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "   moves   RSS MiB  anon MiB"
PYTHONPATH=Benchmarks python3 Benchmarks/setlist_switches.py --osc-port "$osc_port" --pid "$foldback" --switches "$switches" | tee "$work/rss.txt"
python3 - "$work/rss.txt" "$warmup" "$switches" <<'PY'
import sys
rows = {int(m): (float(r), float(a)) for m, r, a in (line.split() for line in open(sys.argv[1]))}
warm, last = int(sys.argv[2]), int(sys.argv[3])
start = rows[max(m for m in rows if m <= warm)]
end = rows[last]
moves = last - max(m for m in rows if m <= warm)
print(f"after the warm-up ({warm} moves): RSS {end[0] - start[0]:+.2f} MiB, anon {end[1] - start[1]:+.2f} MiB over {moves} moves "
      f"({(end[1] - start[1]) * 1024 / moves:+.2f} KiB a move)")
PY
kill -0 "$foldback" 2>/dev/null || { tail -20 "$work/foldback.log" >&2; echo "setlist-rss.sh: foldback exited" >&2; exit 1; }
echo "foldback warnings: $(grep -c -i 'warning\|error' "$work/foldback.log" || true)"
