#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Control traffic for Benchmarks/soak.sh: OSC moves and meter subscriptions, WebSocket pages, HTTP fetches,
until killed (SIGTERM) or SECONDS pass. Needs `pip install websockets` (test tooling only).

Usage: soak_traffic.py --osc-port P --web-url http://127.0.0.1:W/?token=T [--osc-rate 500] [--seconds S]

- OSC: `--osc-rate` fader moves a second on /foldback/strip/vox/gain_db (and a send), a /get query every
  100 ms, one meter subscriber at 30 Hz kept for the whole run, and every 10 s a new subscriber from a new
  UDP port (so the subscriber table turns over past its 16 places).
- Web: one engineer page kept open (reads every push, moves a fader every 50 ms); every 5 s a page opens,
  reads its hello and state and closes; every 5 s `/`, `/app.js` and a QR code over HTTP.
Prints what it sent and received when it ends.
"""
import argparse
import asyncio
import json
import signal
import socket
import struct
import urllib.parse
import urllib.request

import websockets


def osc_string(text):
    data = text.encode() + b"\0"
    return data + b"\0" * (-len(data) % 4)


def osc_message(address, *args):
    tags, payload = ",", b""
    for arg in args:
        if isinstance(arg, float):
            tags, payload = tags + "f", payload + struct.pack(">f", arg)
        elif isinstance(arg, int):
            tags, payload = tags + "i", payload + struct.pack(">i", arg)
        else:
            tags, payload = tags + "s", payload + osc_string(arg)
    return osc_string(address) + osc_string(tags) + payload


class Counts:
    def __init__(self):
        self.osc_sent = self.osc_received = self.ws_sent = self.ws_received = self.pages = self.http = 0
        self.errors = []


def drain(sock, counts):
    while True:
        try:
            sock.recv(65536)
            counts.osc_received += 1
        except BlockingIOError:
            return


async def osc(port, rate, counts):
    target = ("127.0.0.1", port)
    main = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    main.setblocking(False)
    main.sendto(osc_message("/foldback/meters/subscribe", 30.0), target)
    visitors = []
    step, interval = 0, 1 / rate
    loop = asyncio.get_running_loop()
    next_time = loop.time()
    while True:
        value = -20.0 + 10.0 * ((step % 200) / 200)
        main.sendto(osc_message("/foldback/strip/vox/gain_db", value), target)
        counts.osc_sent += 1
        if step % 2 == 0:
            main.sendto(osc_message("/foldback/strip/gtr/send/iem_vox/gain_db", value - 5), target)
            counts.osc_sent += 1
        if step % max(int(rate / 10), 1) == 0:
            main.sendto(osc_message("/foldback/strip/vox/gain_db/get"), target)
            counts.osc_sent += 1
            drain(main, counts)
            for visitor in visitors:
                drain(visitor, counts)
        if step % max(int(rate * 10), 1) == 0:   # a new subscriber every 10 s, at most 20 sockets open
            visitor = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            visitor.setblocking(False)
            visitor.sendto(osc_message("/foldback/meters/subscribe", 10), target)
            visitors.append(visitor)
            if len(visitors) > 20:
                visitors.pop(0).close()
        step += 1
        next_time += interval
        await asyncio.sleep(max(0.0, next_time - loop.time()))


def ws_url(web_url, token=None):
    parts = urllib.parse.urlsplit(web_url)
    query = urllib.parse.parse_qs(parts.query)
    return f"ws://{parts.netloc}/ws?token={token or query['token'][0]}"


async def engineer(web_url, counts):
    async with websockets.connect(ws_url(web_url), max_size=None) as ws:
        hello = json.loads(await ws.recv())
        counts.ws_received += 1

        async def reader():
            async for _ in ws:
                counts.ws_received += 1

        task = asyncio.create_task(reader())
        step = 0
        try:
            while True:
                await ws.send(json.dumps({"path": "/foldback/bus/foh/gain_db", "value": -6 + (step % 60) / 10}))
                counts.ws_sent += 1
                step += 1
                await asyncio.sleep(0.05)
        finally:
            task.cancel()
        return hello


async def visitors(web_url, counts):
    links = []
    while True:
        await asyncio.sleep(5)
        try:
            if not links:   # the engineer's hello lists every bus's token
                async with websockets.connect(ws_url(web_url)) as ws:
                    links = [link["token"] for link in json.loads(await ws.recv()).get("links", [])]
            token = links[counts.pages % len(links)] if links else None
            async with websockets.connect(ws_url(web_url, token)) as ws:
                await ws.recv()   # hello
                await ws.recv()   # state
            counts.pages += 1
            await asyncio.to_thread(fetch_pages, web_url, counts)
        except Exception as error:   # noqa: BLE001 - a soak reports and goes on
            counts.errors.append(repr(error))


def fetch_pages(web_url, counts):
    parts = urllib.parse.urlsplit(web_url)
    token = urllib.parse.parse_qs(parts.query)["token"][0]
    for path in ("/", "/app.js", "/qr.svg?bus=foh&"):
        separator = "&" if "?" in path else "?"
        url = f"http://{parts.netloc}{path.rstrip('&')}{separator}token={token}"
        with urllib.request.urlopen(url, timeout=5) as response:
            response.read()
        counts.http += 1


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--osc-port", type=int, required=True)
    parser.add_argument("--web-url", required=True)
    parser.add_argument("--osc-rate", type=float, default=500)
    parser.add_argument("--seconds", type=float, default=10 ** 9)
    options = parser.parse_args()
    counts = Counts()
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    tasks = [
        asyncio.create_task(osc(options.osc_port, options.osc_rate, counts)),
        asyncio.create_task(engineer(options.web_url, counts)),
        asyncio.create_task(visitors(options.web_url, counts)),
    ]
    try:
        await asyncio.wait_for(stop.wait(), options.seconds)
    except asyncio.TimeoutError:
        pass
    for task in tasks:
        if task.done() and task.exception():
            counts.errors.append(repr(task.exception()))
        task.cancel()
    print(f"traffic: OSC {counts.osc_sent} sent, {counts.osc_received} received; WebSocket {counts.ws_sent} sent, "
          f"{counts.ws_received} received; {counts.pages} short page visits, {counts.http} HTTP fetches; "
          f"{len(counts.errors)} errors {counts.errors[:3]}", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
