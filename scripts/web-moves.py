#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Moves faders over foldback's web surface (scripts/rtsan-live.sh): connects PAGES WebSockets with TOKEN on
127.0.0.1:PORT and sends COUNT send-level moves from each, reading the pushes between them. Standard library
only. Exits 0 when every move was answered and at least 90 % were applied ({"type":"ok"}: a move that meets
a preset reload may be refused); prints what it did."""
import base64, json, os, socket, struct, sys, time


def connect(port, token):
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    status = head.split(b"\r\n")[0]
    if b" 101 " not in status:
        sys.exit(f"web-moves: upgrade refused: {status!r}")
    return sock


def send(sock, text):
    payload, mask = text.encode(), os.urandom(4)
    header = bytes([0x81, 0x80 | len(payload)]) if len(payload) < 126 else bytes([0x81, 0xFE]) + struct.pack(">H", len(payload))
    sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def receive(sock):
    def exact(n):
        data = b""
        while len(data) < n:
            chunk = sock.recv(n - len(data))
            if not chunk:
                raise EOFError("closed")
            data += chunk
        return data
    # A large message (the state carries the parameter tree) may come as a text frame and continuation frames.
    opcode, message = None, b""
    while True:
        first, second = exact(2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack(">H", exact(2))[0]
        elif length == 127:
            length = struct.unpack(">Q", exact(8))[0]
        frame_opcode, payload = first & 0x0F, exact(length)
        if frame_opcode >= 8:          # a control frame (ping, pong, close) may come between fragments
            if opcode is None:
                return frame_opcode, payload
            continue
        if opcode is None:
            opcode = frame_opcode
        message += payload
        if first & 0x80:
            return opcode, message


def main():
    port, token, path, pages, count = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    socks = [connect(port, token) for _ in range(pages)]
    answered = 0
    for step in range(count):
        for sock in socks:
            send(sock, json.dumps({"path": path, "value": -(step % 12) / 2}))
            while True:
                opcode, payload = receive(sock)
                if opcode == 1 and json.loads(payload).get("type") in ("ok", "error"):
                    answered += json.loads(payload)["type"] == "ok"
                    break
        time.sleep(0.02)
    print(f"web-moves: {pages} pages, {answered} of {pages * count} moves of {path} applied")
    sys.exit(0 if answered >= 0.9 * pages * count else 1)


main()
