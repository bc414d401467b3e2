# Sourced by idle-cpu.sh and soak.sh: a release build, a private dummy jackd (48 kHz / 256) and `foldback run`
# on it with OSC and the web surface, all stopped (and the work folder removed) on exit. Not run by itself.
# FOLDBACK_BIN=DIR uses binaries already built there.
# SPDX-License-Identifier: GPL-3.0-or-later

# show_setup TAG: the release binaries ($FOLDBACK_BIN), a work folder ($work) and the cleanup of every pid in $pids.
show_setup() {
    if [[ -z "${FOLDBACK_BIN:-}" ]]; then
        swift build -c release --product foldback >&2
        swift build -c release --product foldback-probe >&2
        FOLDBACK_BIN="$(swift build -c release --show-bin-path)"
    fi
    work="$(mktemp -d "/tmp/foldback-$1.XXXXXX")"
    server="$1-$$"
    pids=()
    trap show_cleanup EXIT
}

show_cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}

# show_start PRESET [ARG...]: jackd '$server', then `foldback run PRESET --quiet --osc-port 0 --web-port 0 ARG...`;
# sets $foldback (its pid), $osc_port and $web_url (the engineer's link). Exits 1 if it does not start.
show_start() {
    local preset="$1"
    shift
    JACK_NO_AUDIO_RESERVATION=1 jackd -n "$server" -t 2000 -d dummy -r 48000 -p 256 -C 4 -P 8 > "$work/jackd.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 300); do jack_lsp -s "$server" > /dev/null 2>&1 && break; sleep 0.1; done
    jack_lsp -s "$server" > /dev/null 2>&1 || { cat "$work/jackd.log" >&2; echo "jackd did not start in 30 s" >&2; exit 1; }
    "$FOLDBACK_BIN/foldback" run "$preset" --server "$server" --quiet --osc-port 0 --web-port 0 "$@" > "$work/foldback.log" 2>&1 &
    foldback=$!
    pids+=($foldback)
    for _ in $(seq 300); do grep -q "engineer: " "$work/foldback.log" && grep -q "OSC on" "$work/foldback.log" && break; sleep 0.1; done
    osc_port="$(grep -o 'OSC on [^ ]*' "$work/foldback.log" | grep -o '[0-9]*$' || true)"
    web_url="$(grep -o 'engineer: [^ ]*' "$work/foldback.log" | cut -d' ' -f2 || true)"
    [[ -n "$osc_port" && -n "$web_url" ]] || { cat "$work/foldback.log" >&2; echo "foldback did not start" >&2; exit 1; }
}
