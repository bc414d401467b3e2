#!/usr/bin/env python3
# A phone's view of DNS-SD for package-check: python-zeroconf (a third-party mDNS stack, on the wire) browses TYPE and
# prints a tab-separated line per change, "add NAME PORT TXT" or "remove NAME", until it is terminated.
# SPDX-License-Identifier: GPL-3.0-or-later
import signal
import sys
import threading

from zeroconf import IPVersion, ServiceBrowser, ServiceStateChange, Zeroconf


def main():
    service_type = sys.argv[1] + ".local."
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())

    def changed(zeroconf, service_type, name, state_change):
        if state_change is ServiceStateChange.Added:
            info = zeroconf.get_service_info(service_type, name, 3000)
            text = ";".join(f"{k.decode()}={(v or b'').decode()}" for k, v in (info.properties if info else {}).items())
            print(f"add\t{name}\t{info.port if info else ''}\t{text}", flush=True)
        elif state_change is ServiceStateChange.Removed:
            print(f"remove\t{name}", flush=True)

    zeroconf = Zeroconf(ip_version=IPVersion.V4Only)
    ServiceBrowser(zeroconf, service_type, handlers=[changed])
    done.wait()
    zeroconf.close()


if __name__ == "__main__":
    main()
