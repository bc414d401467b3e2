#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Per-thread CPU of a running process from /proc/<pid>/task/*/schedstat (ns on the CPU; else stat's utime +
stime, in clock ticks), as % of one core.

Usage: threadcpu.py PID SECONDS     samples twice, SECONDS apart, and prints one row per thread name
                                    (threads of one name summed, with their count), busiest first, then
                                    the total of the non-realtime threads (the audio thread is the one
                                    JACK runs SCHED_FIFO/RR) and of all threads.
       threadcpu.py PID rss         prints the resident set size in MiB (VmRSS).
       threadcpu.py PID memory      prints VmRSS and its anonymous part (RssAnon: the heap and thread
                                    stacks, where a leak shows; the rest is mapped files and JACK's shared
                                    memory, whose pages count once first touched), MiB.
"""
import os
import sys
import time

TICKS = os.sysconf("SC_CLK_TCK")


def threads(pid):
    """{tid: (name, cpu seconds, realtime?)} of every thread of pid."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                text = f.read()
        except OSError:
            continue   # the thread ended between listdir and open
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text[text.rindex(")") + 2:].split()
        # fields[0] is field 3 (state): utime is field 14, stime 15, policy 41.
        cpu = (int(fields[11]) + int(fields[12])) / TICKS
        try:   # the scheduler's own count, in ns, where the kernel keeps it (sampled ticks are 10 ms coarse)
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                cpu = int(f.read().split()[0]) / 1e9
        except (OSError, ValueError, IndexError):
            pass
        out[tid] = (name, cpu, int(fields[38]) in (1, 2))
    return out


def status_mib(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    raise SystemExit(f"threadcpu.py: no {key} for {pid}")


def table(pid, seconds):
    before, start = threads(pid), time.monotonic()
    time.sleep(seconds)
    after, elapsed = threads(pid), time.monotonic() - start
    rows = {}
    for tid, (name, cpu, realtime) in after.items():
        used = cpu - before.get(tid, (name, 0.0, realtime))[1]
        label = f"{name} (audio)" if realtime else name
        count, total = rows.get(label, (0, 0.0))
        rows[label] = (count + 1, total + used)
    print(f"{'thread':<24} {'n':>3} {'% of a core':>12}")
    audio = other = 0.0
    for label, (count, used) in sorted(rows.items(), key=lambda item: -item[1][1]):
        percent = 100 * used / elapsed
        print(f"{label:<24} {count:>3} {percent:>12.2f}")
        if label.endswith("(audio)"):
            audio += percent
        else:
            other += percent
    print(f"{'non-audio total':<24} {'':>3} {other:>12.2f}")
    print(f"{'all threads':<24} {'':>3} {audio + other:>12.2f}")
    print(f"(over {elapsed:.1f} s; from schedstat where the kernel keeps it, else in ticks of {1000 / TICKS:.0f} ms of CPU)")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    if sys.argv[2] == "rss":
        print(f"{status_mib(int(sys.argv[1]), 'VmRSS'):.2f}")
    elif sys.argv[2] == "memory":
        print(f"{status_mib(int(sys.argv[1]), 'VmRSS'):.2f} {status_mib(int(sys.argv[1]), 'RssAnon'):.2f}")
    else:
        table(int(sys.argv[1]), float(sys.argv[2]))
