#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Setlist moves for Benchmarks/setlist-rss.sh: SWITCHES alternating /foldback/setlist/next and /prev over OSC,
each waiting for its reply, printing `switches RSS_MiB ANON_MiB` every EVERY moves (VmRSS and RssAnon of PID).

Usage: setlist_switches.py --osc-port P --pid PID [--switches 2000] [--every 100]
"""
import argparse
import socket
import sys

from threadcpu import status_mib


def padded(text):
    data = text.encode() + b"\0"
    return data + b"\0" * (-len(data) % 4)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--osc-port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--switches", type=int, default=2000)
    parser.add_argument("--every", type=int, default=100)
    args = parser.parse_args()
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.settimeout(10)
    print(f"{0:8d} {status_mib(args.pid, 'VmRSS'):9.2f} {status_mib(args.pid, 'RssAnon'):9.2f}", flush=True)
    for move in range(1, args.switches + 1):
        address = "/foldback/setlist/next" if move % 2 else "/foldback/setlist/prev"
        sock.sendto(padded(address) + padded(","), ("127.0.0.1", args.osc_port))
        reply, _ = sock.recvfrom(65536)
        if not reply.startswith(b"/foldback/setlist\0"):
            sys.exit(f"move {move}: {reply[:200]!r}")
        if move % args.every == 0:
            print(f"{move:8d} {status_mib(args.pid, 'VmRSS'):9.2f} {status_mib(args.pid, 'RssAnon'):9.2f}", flush=True)


if __name__ == "__main__":
    main()
