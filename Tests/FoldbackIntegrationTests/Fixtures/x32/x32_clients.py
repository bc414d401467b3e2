#!/usr/bin/env python3
# Drives Foldback's X32 / X-Air ports with two independent client libraries (behringer-mixer, xair-api); prints one JSON line.
# SPDX-License-Identifier: GPL-3.0-or-later
"""Usage:
  x32_clients.py behringer-sync KIND PORT            full state load, then names and faders
  x32_clients.py behringer-set KIND PORT KEY VALUE    set a state key (e.g. /ch/01/mix_fader_db -10) and read it back
  x32_clients.py xairapi-get PORT                     channel 1's name, fader, mute, send 1 and DCA 1 (kind X32)
  x32_clients.py xairapi-set PORT WHAT VALUE          WHAT: fader, send, mute, dca_on
  x32_clients.py push-latency KIND PORT OSC_PORT N    subscribe, move vox over Foldback's own OSC N times, time each push
  x32_clients.py behringer-info KIND HOST PORT        connect to HOST (a LAN address) and report what /xinfo said
  x32_clients.py discover PORT                        python-osc: /xinfo broadcast to 255.255.255.255:PORT, as apps discover consoles
  x32_clients.py periodic X32_PORT XAIR_PORT          python-osc: /batchsubscribe, /formatsubscribe, /unsubscribe ALIAS, X-Air /meters/1
KIND is X32 or XR18."""
import asyncio
import json
import socket
import statistics
import struct
import sys
import time

from behringer_mixer import mixer_api
from pythonosc.osc_message import OscMessage
from pythonosc.osc_message_builder import OscMessageBuilder
from pythonosc.udp_client import SimpleUDPClient
import xair_api


def out(result):
    print(json.dumps(result), flush=True)


async def behringer(kind, port, host="127.0.0.1"):
    mixer = mixer_api.create(kind, ip=host, port=int(port), delay=0.002)
    if not await mixer.start():
        raise SystemExit("behringer-mixer could not connect")
    return mixer


async def behringer_sync(kind, port):
    mixer = await behringer(kind, port)
    await mixer.reload()
    await asyncio.sleep(0.5)   # the last answers
    state = mixer.state()
    main = "/main/st"
    out({
        "mappings": len(mixer._mappings), "loaded": len(state),
        "missing": sorted(address for address, row in mixer._mappings.items() if row["output"] not in state)[:20],
        "name": mixer.name(), "type": mixer._mixer_status.get("type"), "firmware": mixer.firmware(),
        "ch1_name": state.get("/ch/1/config_name"), "ch1_fader_db": state.get("/ch/1/mix_fader_db"),
        "ch1_on": state.get("/ch/1/mix_on"), "main_name": state.get(main + "/config_name"),
        "bus1_name": state.get("/bus/1/config_name"), "send_1_1_db": state.get("/chsend/1/1/mix_fader_db"),
        "dca1_name": state.get("/dca/1/config_name"),
    })
    await mixer.stop()


async def behringer_set(kind, port, key, value):
    mixer = await behringer(kind, port)
    parsed = {"true": True, "false": False}.get(value.lower(), None)
    await mixer.set_value(key, parsed if parsed is not None else float(value))
    await asyncio.sleep(0.1)
    out({"key": key, "state": mixer.state(key.removesuffix("_db"))})
    await mixer.stop()


# xair-api answers a query with the last message received after a fixed wait (`delay`, 20 ms by default), so a reply
# later than that reads as the previous one (a CI run under load got "/xinfo"'s "127.0.0.1" as channel 1's name).
# 0.25 s is the wait a busy machine needs; the library has no other way to pair a reply with its query.
XAIRAPI_DELAY = 0.25


def xairapi_get(port):
    with xair_api.connect("X32", ip="127.0.0.1", port=int(port), delay=XAIRAPI_DELAY) as mixer:
        strip = mixer.strip[0]
        out({"name": strip.config.name, "fader_db": strip.mix.fader, "mute": strip.mute,
             "send1_db": strip.send[0].level, "dca1_on": mixer.dca[0].on, "info": list(mixer.info_response)})


def xairapi_set(port, what, value):
    with xair_api.connect("X32", ip="127.0.0.1", port=int(port), delay=XAIRAPI_DELAY) as mixer:
        strip = mixer.strip[0]
        if what == "fader":
            strip.mix.fader = float(value)
        elif what == "send":
            strip.send[0].level = float(value)
        elif what == "mute":
            strip.mute = value == "true"
        elif what == "dca_on":
            mixer.dca[0].on = value == "true"
        time.sleep(0.05)
        out({"fader_db": strip.mix.fader, "send1_db": strip.send[0].level, "mute": strip.mute, "dca1_on": mixer.dca[0].on})


async def push_latency(kind, port, osc_port, count):
    mixer = await behringer(kind, port)
    arrivals = asyncio.Queue()
    loop = asyncio.get_running_loop()

    def changed(row):
        if row["property"] == "/ch/1/mix_fader":
            loop.call_soon(arrivals.put_nowait, (time.monotonic(), row["value"]))

    task = asyncio.create_task(mixer.subscribe(changed))
    await asyncio.sleep(0.3)
    foldback = SimpleUDPClient("127.0.0.1", int(osc_port))
    delays = []
    for index in range(int(count)):
        decibels = -20.0 if index % 2 == 0 else -5.0
        sent = time.monotonic()
        foldback.send_message("/foldback/strip/vox/gain_db", decibels)
        try:
            arrived, value = await asyncio.wait_for(arrivals.get(), 2.0)
            delays.append((arrived - sent) * 1000)
        except asyncio.TimeoutError:
            delays.append(None)
        await asyncio.sleep(0.05)
    await mixer.unsubscribe()
    task.cancel()
    received = [d for d in delays if d is not None]
    out({"sent": len(delays), "received": len(received), "max_ms": max(received) if received else None,
         "median_ms": sorted(received)[len(received) // 2] if received else None})
    await mixer.stop()


async def behringer_info(kind, host, port):
    mixer = await behringer(kind, port, host)
    out({"status": mixer._mixer_status})
    await mixer.stop()


def discover(port):
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
    probe.settimeout(2)
    probe.sendto(OscMessageBuilder("/xinfo").build().dgram, ("255.255.255.255", int(port)))
    packet, sender = probe.recvfrom(4096)
    reply = OscMessage(packet)
    out({"from": sender[0], "address": reply.address, "arguments": list(reply.params)})


def collect(client, seconds):
    """Every message arriving within `seconds`: (arrival time, address, arguments)."""
    messages, end = [], time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        try:
            for message in client.get_messages(timeout=left):
                messages.append((time.monotonic(), message.address, message.params))
                break
        except (TimeoutError, OSError):
            break
    return messages


def drain_until_reply(client, address, seconds):
    """Asks `address` and drops what arrives until its reply: the console handles one port's messages in order,
    so every frame after the reply was sent after the requests before it had taken effect."""
    client.send_message(address, [])
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        try:
            for message in client.get_messages(timeout=left):
                if message.address == address:
                    return
                break
        except (TimeoutError, OSError):
            break
    raise SystemExit("no %s reply within %.0f s" % (address, seconds))


def blobs(messages, address):
    return [(at, params[0]) for at, path, params in messages if path == address and params and isinstance(params[0], bytes)]


def periodic(x32_port, xair_port):
    x32 = SimpleUDPClient("127.0.0.1", int(x32_port))
    x32.send_message("/batchsubscribe", ["/mtr", "/meters/0", 0, 0, 1])
    x32.send_message("/formatsubscribe", ["/faders", "/ch/**/mix/fader", "/ch/**/mix/on", 1, 2, 1])
    first = collect(x32, 1.0)
    meters, packed = blobs(first, "/mtr"), blobs(first, "/faders")
    x32.send_message("/unsubscribe", ["/mtr"])
    drain_until_reply(x32, "/xinfo", 5.0)
    after = collect(x32, 0.5)
    frame = meters[-1][1] if meters else b""
    floats = struct.unpack("<i%df" % ((len(frame) - 4) // 4), frame) if frame else []
    words = packed[-1][1] if packed else b""
    count = struct.unpack("<i", words[:4])[0] if words else None
    values = struct.unpack("<ffii", words[4:20]) if len(words) >= 20 else []
    xair = SimpleUDPClient("127.0.0.1", int(xair_port))
    xair.send_message("/meters", ["/meters/1"])
    xframes = blobs(collect(xair, 1.0), "/meters/1")
    xframe = xframes[-1][1] if xframes else b""
    shorts = struct.unpack("<i%dh" % ((len(xframe) - 4) // 2), xframe) if xframe else []
    out({
        "batch_frames": len(meters), "batch_bytes": len(frame), "batch_count": floats[0] if floats else None,
        "batch_interval_ms": statistics.median([(b[0] - a[0]) * 1000 for a, b in zip(meters, meters[1:])]) if len(meters) > 1 else None,
        "batch_ch1": floats[1] if floats else None, "batch_bus1": floats[49] if len(floats) > 49 else None,
        "batch_after_unsubscribe": len(blobs(after, "/mtr")), "format_after_unsubscribe": len(blobs(after, "/faders")),
        "format_frames": len(packed), "format_count": count, "format_values": list(values),
        "xair_frames": len(xframes), "xair_bytes": len(xframe), "xair_count": shorts[0] if shorts else None,
        "xair_ch1_db": shorts[1] / 256 if shorts else None, "xair_bus1_db": shorts[27] / 256 if len(shorts) > 27 else None,
        "xair_main_db": [shorts[37] / 256, shorts[38] / 256] if len(shorts) > 38 else None,
    })


COMMANDS = {
    "behringer-sync": lambda *rest: asyncio.run(behringer_sync(*rest)),
    "behringer-set": lambda *rest: asyncio.run(behringer_set(*rest)),
    "behringer-info": lambda *rest: asyncio.run(behringer_info(*rest)),
    "push-latency": lambda *rest: asyncio.run(push_latency(*rest)),
    "xairapi-get": xairapi_get,
    "xairapi-set": xairapi_set,
    "discover": discover,
    "periodic": periodic,
}


def main(argv):
    if len(argv) < 2 or argv[1] not in COMMANDS:
        raise SystemExit(__doc__)
    COMMANDS[argv[1]](*argv[2:])


if __name__ == "__main__":
    main(sys.argv)
