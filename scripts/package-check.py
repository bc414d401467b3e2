#!/usr/bin/env python3
# `make package-check`: the Debian package as a user gets it. Installs .build-deb/foldback_*.deb with apt-get, then runs
# the installed /usr/bin/foldback with the toolchain off the PATH (env -i PATH=/usr/bin:/bin): no library from the
# toolchain (ldd), the curves and man pages found, a used web or OSC port refused at once (one line, exit 2), a shipped
# preset found by name playing a 1 kHz tone through a private dummy JACK server (level and frequency measured), and the
# systemd notify protocol on a socket this script reads (systemd is not PID 1 on CI): READY only once the ports exist and
# are connected, WATCHDOG only while audio cycles run (none while the server is stopped), STOPPING on SIGTERM. Then the
# DNS-SD advertisement through a private dbus-daemon and avahi-daemon when they can start (browsed on the wire by
# python-zeroconf, as a phone would), and the one line a
# show prints without a daemon. Every wait has a deadline.
# SPDX-License-Identifier: GPL-3.0-or-later
import glob
import math
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE = os.path.join(ROOT, ".build-deb/release/foldback-probe")
FOLDBACK = "/usr/bin/foldback"
TMP = tempfile.mkdtemp(prefix="foldback-package-check-")
# python-zeroconf's interpreter (make package-check builds the virtual environment from package-check-requirements.txt).
BROWSER_PYTHON = os.path.join(ROOT, ".build/package-check-venv/bin/python")
CLEAN = {"PATH": "/usr/bin:/bin", "HOME": TMP, "JACK_NO_AUDIO_RESERVATION": "1"}
failures = []


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what, flush=True)
    if not condition:
        failures.append(what)
    return condition


def wait_for(condition, timeout, step=0.02):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


def run(command, env=None, timeout=60, **options):
    return subprocess.run(command, env=env, timeout=timeout, capture_output=True, text=True, **options)


class Jackd:
    """A private dummy JACK server under a unique name."""

    def __init__(self):
        self.name = f"foldback-pkg-{os.getpid()}"
        self.env = dict(CLEAN, JACK_DEFAULT_SERVER=self.name)
        self.process = subprocess.Popen(["jackd", "-n", self.name, "-t", "5000", "-d", "dummy", "-r", "48000", "-p", "256"],
                                        env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        run(["jack_wait", "-s", self.name, "-w", "-t", "20"], env=self.env, timeout=30)

    def ports(self):
        return run(["jack_lsp"], env=self.env, timeout=10).stdout.split("\n")

    def connections(self):
        return run(["jack_lsp", "-c"], env=self.env, timeout=10).stdout

    def stop(self):
        self.process.send_signal(signal.SIGCONT)
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


class NotifySocket:
    """What systemd would read: the datagrams sent to $NOTIFY_SOCKET, with their arrival times."""

    def __init__(self):
        self.path = os.path.join(TMP, "notify")
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind(self.path)
        self.socket.settimeout(0.1)
        self.messages = []
        self.on_ready = None
        self.running = True
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        while self.running:
            try:
                data = self.socket.recv(4096).decode()
            except socket.timeout:
                continue
            if "READY=1" in data and self.on_ready:
                self.on_ready()
            self.messages.append((time.monotonic(), data))

    def count(self, text, since=0.0, until=math.inf):
        return sum(1 for moment, data in self.messages if since <= moment < until and text in data.split("\n"))

    def close(self):
        self.running = False
        self.thread.join(timeout=2)
        self.socket.close()


def install(deb):
    result = run(["apt-get", "install", "-y", "-q", "--reinstall", "./" + os.path.relpath(deb, ROOT)], cwd=ROOT, timeout=600,
                 env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    check(result.returncode == 0 and os.access(FOLDBACK, os.X_OK), f"apt-get install ./{os.path.basename(deb)}")
    if result.returncode != 0:
        print(result.stdout[-2000:], result.stderr[-2000:])
        sys.exit(1)


def check_files():
    libraries = run(["ldd", FOLDBACK]).stdout
    check("/opt/swift" not in libraries and "libswift" not in libraries and "not found" not in libraries,
          f"ldd {FOLDBACK}: {len(libraries.splitlines())} libraries, none from the toolchain, none missing")
    version = run([FOLDBACK, "--version"], env=CLEAN)
    check(version.returncode == 0 and re.match(r"^\d+\.\d+\.\d+", version.stdout.strip()), f"foldback --version: {version.stdout.strip()}")
    curves = run([FOLDBACK, "curves"], env=CLEAN)
    first = curves.stdout.split("\n")[0]
    check(curves.returncode == 0 and re.match(r"^\d+ factory EQ curves in /usr/share/foldback/curves:", first), f"foldback curves: {first}")
    page = run(["man", "-w", "foldback-run"], env=CLEAN).stdout.strip()
    check(page == "/usr/share/man/man1/foldback-run.1.gz", f"man -w foldback-run: {page}")
    text = run(["man", "-P", "cat", "foldback-run"], env=dict(CLEAN, MANWIDTH="100")).stdout
    check("--web-port" in text and "foldback-run" in text.lower(), "man foldback-run shows the run verb's options")


def check_sandbox():
    """The installed plugin sandbox (/usr/lib/foldback/foldback-sandbox): the shipped LV2 vocal preset rendered with its
    plugins in sandbox processes is bit-identical to the same preset with them in foldback's own process."""
    import struct
    import wave
    source = os.path.join(TMP, "voice.wav")
    with wave.open(source, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(48000)
        frames = (int(8000 * math.sin(2 * math.pi * 440 * n / 48000) * (1 + math.sin(2 * math.pi * 3 * n / 48000)) / 2)
                  for n in range(48000))
        out.writeframes(b"".join(struct.pack("<h", value) for value in frames))
    preset = open("/usr/share/foldback/presets/lv2-vocal.toml").read()
    outputs = {}
    for isolation in ["none", "strip"]:
        path = os.path.join(TMP, f"lv2-vocal-{isolation}.toml")
        with open(path, "w") as file:
            file.write(preset.replace("[preset]\n", f'[preset]\nisolation = "{isolation}"\n', 1))
        output = os.path.join(TMP, f"vocal-{isolation}.wav")
        result = run([FOLDBACK, "render", path, "-i", source, "-o", output, "--format", "wav24", "--tail", "0"],
                     env=CLEAN, timeout=120)
        check(result.returncode == 0, f"foldback render lv2-vocal with isolation = \"{isolation}\" ({result.stderr.strip()[-300:]})")
        outputs[isolation] = open(output, "rb").read() if result.returncode == 0 else b""
    check(outputs["none"] != b"" and outputs["none"] == outputs["strip"],
          f"sandboxed plugins render bit-identical to in-process ones ({len(outputs['strip'])} bytes)")


def check_port_refusals():
    """A used TCP (web) and UDP (OSC) port: one line naming it and this process, exit 2, at once, no JACK needed."""
    for transport, option, surface in ((socket.SOCK_STREAM, "--web-port", "web"), (socket.SOCK_DGRAM, "--osc-port", "OSC")):
        holder = socket.socket(socket.AF_INET, transport)
        holder.bind(("127.0.0.1", 0))
        if transport == socket.SOCK_STREAM:
            holder.listen(1)
        port = holder.getsockname()[1]
        started = time.monotonic()
        result = run([FOLDBACK, "run", "passthrough", "--server", "no-such-server", option, str(port)], env=CLEAN, timeout=30)
        elapsed = time.monotonic() - started
        holder.close()
        lines = [line for line in result.stderr.split("\n") if line]
        expected = f"foldback: {surface} port {port} is already in use by python3 (pid {os.getpid()}) (try {option} "
        check(result.returncode == 2 and len(lines) == 1 and lines[0].startswith(expected) and elapsed < 2.0,
              f"{option} {port} in use: exit {result.returncode} after {elapsed:.2f} s, {len(lines)} line: {lines[:1]}")


def read_wav(path):
    """(rate, channels, bytes per sample, data) of a PCM WAV file, WAVE_FORMAT_EXTENSIBLE too (the wave module refuses it)."""
    with open(path, "rb") as file:
        blob = file.read()
    position, fmt, data = 12, None, None
    while position + 8 <= len(blob):
        kind, size = blob[position:position + 4], int.from_bytes(blob[position + 4:position + 8], "little")
        body = blob[position + 8:position + 8 + size]
        if kind == b"fmt ":
            fmt = body
        elif kind == b"data":
            data = body
        position += 8 + size + (size & 1)
    channels, rate, bits = int.from_bytes(fmt[2:4], "little"), int.from_bytes(fmt[4:8], "little"), int.from_bytes(fmt[14:16], "little")
    return rate, channels, bits // 8, data


def tone_level(path):
    """Peak (dBFS) and frequency (Hz, from zero crossings) of a PCM WAV's first channel, past its first half second."""
    rate, channels, width, raw = read_wav(path)
    step = channels * width
    samples = [int.from_bytes(raw[i:i + width], "little", signed=True) / float(1 << (8 * width - 1)) for i in range(0, len(raw) - step + 1, step)]
    steady = samples[rate // 2:]
    crossings = sum(1 for a, b in zip(steady, steady[1:]) if a < 0 <= b)
    peak = max(abs(x) for x in steady) if steady else 0.0
    return (20 * math.log10(peak) if peak > 0 else -math.inf), crossings * rate / max(1, len(steady))


def check_show():
    """The shipped passthrough preset, by name, under the notify harness, with a tone played through it."""
    jackd = Jackd()
    notify = NotifySocket()
    env = dict(CLEAN, JACK_DEFAULT_SERVER=jackd.name, NOTIFY_SOCKET=notify.path, WATCHDOG_USEC="900000")
    seen_at_ready = {}
    show = None

    def on_ready():   # look at what exists the moment READY arrives (freezing foldback would stall jack_lsp's own client)
        try:
            seen_at_ready["ports"] = [p for p in jackd.ports() if p.startswith("foldback:")]
            seen_at_ready["connections"] = jackd.connections()
        except subprocess.TimeoutExpired:
            pass

    notify.on_ready = on_ready
    log = open(os.path.join(TMP, "show.log"), "w")
    show = subprocess.Popen([FOLDBACK, "run", "passthrough", "--quiet"], env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        ready = wait_for(lambda: notify.count("READY=1") > 0, 30)
        check(ready, "READY=1 arrives on the notify socket")
        ports = sorted(seen_at_ready.get("ports", []))
        check({"foldback:input_in_L", "foldback:input_in_R", "foldback:main_L", "foldback:main_R"} <= set(ports),
              f"at READY the ports exist: {ports}")
        connections = seen_at_ready.get("connections", "")
        check(re.search(r"^foldback:main_L\n\s+system:playback_1$", connections, re.M) is not None,
              "at READY foldback:main_L is connected to system:playback_1")
        status = [data for _, data in notify.messages if "READY=1" in data]
        check(bool(status) and "STATUS=playing Passthrough" in status[0], f"READY carries a STATUS line: {status[:1]}")

        output = os.path.join(TMP, "tone.wav")
        probe = run([PROBE, "--server", jackd.name, "--name", "pkgcheck", "--seconds", "3", "--format", "pcm24",
                     "--play", "foldback:input_in_L=sine:1000:-20", "--record", "foldback:main_L", "--output", output],
                    env=jackd.env, timeout=60)
        check(probe.returncode == 0, f"foldback-probe played and recorded ({probe.stderr.strip()[-200:]})")
        if probe.returncode == 0:
            peak, frequency = tone_level(output)
            check(abs(peak + 20) < 0.5 and abs(frequency - 1000) < 5,
                  f"the tone comes out: peak {peak:.2f} dBFS (-20 ± 0.5), {frequency:.1f} Hz (1000 ± 5)")

        start = time.monotonic()
        wait_for(lambda: False, 2.0)
        fed = notify.count("WATCHDOG=1", since=start)
        check(fed >= 4, f"WATCHDOG=1 while cycles run: {fed} in 2 s (interval 0.9 s, fed every 0.3 s)")
        jackd.process.send_signal(signal.SIGSTOP)   # no more cycles: the watchdog must starve
        stopped = time.monotonic()
        wait_for(lambda: False, 2.5)
        starved = notify.count("WATCHDOG=1", since=stopped + 0.35)
        jackd.process.send_signal(signal.SIGCONT)
        resumed = time.monotonic()
        check(starved == 0, f"no WATCHDOG=1 while the server runs no cycle: {starved} in 2.15 s")
        check(wait_for(lambda: notify.count("WATCHDOG=1", since=resumed) > 0, 5),
              "WATCHDOG=1 again once cycles run again")

        show.send_signal(signal.SIGTERM)
        try:
            status = show.wait(timeout=20)
        except subprocess.TimeoutExpired:
            status = None
        check(status == 0 and notify.count("STOPPING=1") == 1, f"SIGTERM: STOPPING=1, exit status {status}")
    finally:
        if show.poll() is None:
            show.kill()
            show.wait(timeout=10)
        log.close()
        notify.close()
        jackd.stop()
    print("      (foldback's output: " + log.name + ")")


class PrivateAvahi:
    """A dbus-daemon of its own (system bus rules loosened to this test) and an avahi-daemon on it, or why not."""

    def __init__(self):
        self.processes = []
        self.problem = None
        folder = os.path.join(TMP, "avahi")
        os.makedirs(folder)
        bus = os.path.join(folder, "bus")
        config = os.path.join(folder, "dbus.conf")
        with open(config, "w") as file:
            file.write(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>system</type><listen>unix:path={bus}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/></policy>
</busconfig>
""")
        self.address = f"unix:path={bus}"
        dbus = subprocess.Popen(["dbus-daemon", "--config-file", config, "--nofork", "--nopidfile"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.processes.append(dbus)
        if not wait_for(lambda: os.path.exists(bus), 10):
            self.problem = "dbus-daemon did not start"
            return
        avahi_config = os.path.join(folder, "avahi.conf")
        with open(avahi_config, "w") as file:
            file.write("[server]\nuse-ipv4=yes\nuse-ipv6=no\nenable-dbus=yes\nratelimit-interval-usec=1000000\n"
                       "[publish]\npublish-workstation=no\n[reflector]\n[rlimits]\n")
        self.env = dict(CLEAN, DBUS_SYSTEM_BUS_ADDRESS=self.address)
        self.avahi_log = open(os.path.join(folder, "avahi.log"), "w")
        avahi = subprocess.Popen(["/usr/sbin/avahi-daemon", "-f", avahi_config, "--no-drop-root", "--no-chroot", "--no-rlimits", "--no-proc-title"],
                                 env=self.env, stdout=self.avahi_log, stderr=subprocess.STDOUT)
        self.processes.append(avahi)
        if not wait_for(lambda: "Server startup complete" in open(self.avahi_log.name).read() or avahi.poll() is not None, 15):
            self.problem = "avahi-daemon did not finish starting in 15 s"
        elif avahi.poll() is not None:
            self.problem = "avahi-daemon exited: " + open(self.avahi_log.name).read().strip().split("\n")[-1]

    def browser(self, service_type):
        """A browser that stays open, as a phone's app does: it sees announcements and goodbyes as they come."""
        browser = Browser(service_type, self.env)
        self.processes.append(browser.process)
        return browser

    def stop(self):
        for process in reversed(self.processes):
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


class Browser:
    """scripts/dnssd-browse.py (python-zeroconf, a phone's mDNS stack) browsing TYPE on the wire: what it lists now."""

    def __init__(self, service_type, env):
        self.process = subprocess.Popen([BROWSER_PYTHON, "-u", os.path.join(ROOT, "scripts/dnssd-browse.py"), service_type],
                                        env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.lock = threading.Lock()
        self.current = {}
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            fields = line.rstrip("\n").split("\t")
            with self.lock:
                if fields[0] == "add" and len(fields) == 4:
                    self.current[fields[1]] = {"name": fields[1], "port": fields[2], "text": fields[3]}
                elif fields[0] == "remove" and len(fields) == 2:
                    self.current.pop(fields[1], None)

    def entries(self, name_part):
        with self.lock:
            return [entry for entry in self.current.values() if name_part in entry["name"]]

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def free_port(kind):
    probe = socket.socket(socket.AF_INET, kind)
    probe.bind(("0.0.0.0", 0))
    port = probe.getsockname()[1]
    probe.close()
    return port


def start_show(env, arguments, expect):
    log_path = os.path.join(TMP, f"show-{len(os.listdir(TMP))}.log")
    log = open(log_path, "w")
    show = subprocess.Popen([FOLDBACK, "run", "passthrough", "--quiet", "--start-server", "dummy"] + arguments,
                            env=env, stdout=log, stderr=subprocess.STDOUT)
    found = wait_for(lambda: expect in open(log_path).read() or show.poll() is not None, 30)
    return show, log, log_path, found


def stop_show(show, log):
    show.send_signal(signal.SIGTERM)
    try:
        show.wait(timeout=20)
    except subprocess.TimeoutExpired:
        show.kill()
        show.wait(timeout=10)
    log.close()


def browse_private(avahi, web, osc, surfaces):
    """A show advertised through the private daemon: an mDNS browser on the wire finds both services on their ports; gone after exit."""
    # Browsers open before the show starts, as a phone's app already is: they see the services when they are announced.
    # (avahi-browse on the same daemon was no witness: one-shot runs begun while the services were probed stayed empty
    # for the rest of the run, 2 runs in 4, and a browser left open never saw the goodbye, while python-zeroconf on the
    # wire sees the services go 0.02 s after exit.)
    http_browser, osc_browser = avahi.browser("_http._tcp"), avahi.browser("_osc._udp")
    show, log, path, found = start_show(avahi.env, surfaces, "advertised on the LAN over DNS-SD")
    check(found and show.poll() is None, "advertised: " + " / ".join(l for l in open(path).read().split("\n") if "DNS-SD" in l or "by name" in l))
    found = {}

    def browse_both():
        found["http"], found["osc"] = http_browser.entries("Foldback"), osc_browser.entries("Foldback")
        return found["http"] and found["osc"]

    if not wait_for(browse_both, 20, step=0.1):
        print("      avahi-daemon's log: " + open(avahi.avahi_log.name).read().replace("\n", " | ")[-600:])
    http, osc_entries = found["http"], found["osc"]
    check(len(http) == 1 and http[0]["port"] == str(web) and http[0]["text"] == "path=/" and "Foldback – Passthrough" in http[0]["name"],
          f"an mDNS browser (python-zeroconf) finds _http._tcp {http} (want port {web}, TXT path=/)")
    check(len(osc_entries) == 1 and osc_entries[0]["port"] == str(osc), f"an mDNS browser finds _osc._udp {osc_entries} (want port {osc})")
    # A show plays for hours before it stops; Avahi 0.8 sends no goodbye for records it is still announcing (a show
    # stopped within seconds of starting stayed listed, 3 runs in 4 here; after 10 s the goodbye came 0.01 s after
    # exit, 3 of 3). So the show plays on for 10 s after it was found, the announcements' span.
    wait_for(lambda: show.poll() is not None, 10, step=0.1)
    check(show.poll() is None, "the advertised show played on for 10 s")
    stop_show(show, log)
    started = time.monotonic()
    gone = wait_for(lambda: not http_browser.entries("Foldback") and not osc_browser.entries("Foldback"), 10, step=0.05)
    check(gone, f"withdrawn on exit: the browser saw both services go {time.monotonic() - started:.2f} s after foldback exited (within 10 s)"
          + ("" if gone else f"; still listed: {http_browser.entries('Foldback') + osc_browser.entries('Foldback')}"))
    http_browser.stop()
    osc_browser.stop()


def check_dnssd():
    web, osc = free_port(socket.SOCK_STREAM), free_port(socket.SOCK_DGRAM)
    surfaces = ["--web-port", str(web), "--web-bind", "0.0.0.0", "--osc-port", str(osc), "--osc-bind", "0.0.0.0"]
    avahi = None
    try:
        avahi = PrivateAvahi()
        if avahi.problem:
            print(f"skip  DNS-SD browse: a private avahi-daemon cannot run here ({avahi.problem})")
        else:
            browse_private(avahi, web, osc, surfaces)
    finally:
        if avahi:
            avahi.stop()
    # No daemon: one line, and the show goes on. (Run after the browse: browsing found nothing when this ran first, an
    # unexplained interaction noted on the issue.)
    env = dict(CLEAN, DBUS_SYSTEM_BUS_ADDRESS="unix:path=" + os.path.join(TMP, "no-bus"))
    show, log, path, found = start_show(env, surfaces, "not advertised on the LAN")
    alive = show.poll() is None
    stop_show(show, log)
    lines = [line for line in open(path).read().split("\n") if "DNS-SD" in line or "Avahi" in line]
    check(found and alive and len(lines) == 1 and "no Avahi daemon is running" in lines[0],
          f"without an Avahi daemon: one line, the show plays on: {lines}")


def main():
    debs = sorted(glob.glob(os.path.join(ROOT, ".build-deb/foldback_*.deb")), key=os.path.getmtime)
    if not debs:
        sys.exit("package-check: no .build-deb/foldback_*.deb: run make deb")
    install(debs[-1])
    check_files()
    check_port_refusals()
    check_sandbox()
    check_show()
    check_dnssd()
    if failures:
        print(f"package-check: {len(failures)} check(s) failed")
        sys.exit(1)
    print("package-check: every check passed")


if __name__ == "__main__":
    main()
