#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Web pages for Benchmarks/phones-cpu.sh: N WebSocket clients that behave like the web page in a visible tab.

Usage: phone_pages.py --seconds S URL [URL...]

Each URL is a page link (`http://host:port/?token=T`). Like a browser, each client fetches the page and its
script over HTTP, opens `/ws?token=T`, reads the hello, and, when the hello says the server takes a meter
request (`"meters": true`), asks for level frames at 25 a second, as app.js does in a visible tab. It then
reads every message until S seconds pass and prints, per page and in all, the messages and bytes a second and
the level updates a second (binary level frames, or JSON `meters` messages carrying levels from a server that
sends those).
Needs python3-websockets (Debian) or `pip install websockets` (benchmark tooling only).
"""
import argparse
import asyncio
import json
import time
import urllib.parse
import urllib.request

import websockets


async def page(url, seconds, stats):
    parts = urllib.parse.urlsplit(url)
    token = urllib.parse.parse_qs(parts.query)["token"][0]
    base = f"http://{parts.netloc}"
    loop = asyncio.get_running_loop()
    for path in ("/?token=", "/app.js?token="):   # what a browser fetches first
        await loop.run_in_executor(None, lambda p=path: urllib.request.urlopen(base + p + token, timeout=10).read())
    counts = {"messages": 0, "bytes": 0, "meters": 0, "state": 0}
    stats.append(counts)
    async with websockets.connect(f"ws://{parts.netloc}/ws?token={token}", max_size=None, ping_interval=None) as socket:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                message = await asyncio.wait_for(socket.recv(), timeout=left)
            except asyncio.TimeoutError:
                break
            counts["messages"] += 1
            counts["bytes"] += len(message)
            if isinstance(message, bytes):
                counts["meters"] += 1
                continue
            decoded = json.loads(message)
            kind = decoded.get("type")
            if kind == "hello" and decoded.get("meters"):
                await socket.send(json.dumps({"meters": 25}))   # a visible tab (app.js: visibilitychange)
            elif kind == "meters" and (decoded.get("strips") or decoded.get("buses")):
                counts["meters"] += 1   # levels as JSON (a server without binary frames)
            elif kind == "state":
                counts["state"] += 1


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("urls", nargs="+")
    args = parser.parse_args()
    stats = []
    await asyncio.gather(*(page(url, args.seconds, stats) for url in args.urls))
    s = args.seconds
    total = {key: sum(c[key] for c in stats) for key in ("messages", "bytes", "meters", "state")}
    lowest = min(c["meters"] for c in stats) / s
    print(f"pages {len(stats)}: {total['messages'] / s:.1f} messages/s, {total['bytes'] / s / 1024:.1f} KiB/s in all; "
          f"meter updates per page per second: lowest {lowest:.1f}, mean {total['meters'] / s / len(stats):.1f}; "
          f"state messages/s per page {total['state'] / s / len(stats):.2f}")


asyncio.run(main())
