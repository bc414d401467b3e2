# Foldback: build, test and demo. Every target installs the Debian packages it needs first.
# SPDX-License-Identifier: GPL-3.0-or-later
SHELL := /bin/bash
SWIFT ?= swift
DEBS := jackd2 libjack-jackd2-dev liblilv-dev lv2-dev libsndfile1-dev libsamplerate0-dev librubberband-dev liblo-dev libebur128-dev libfftw3-dev libmysofa-dev libqrencode-dev libsystemd-dev libavahi-client-dev libcurl4-openssl-dev pkg-config
# Tools and LV2 plugins the tests use (not needed to build or run foldback itself).
TEST_DEBS := gcc rubberband-cli lilv-utils liblo-tools x42-plugins swh-lv2 mda-lv2 sox espeak-ng python3 python3-venv chromium chromium-driver pipewire pipewire-bin pipewire-jack iproute2
# What `make deb` and its check need besides DEBS: Debian's packaging tools, lintian, and Avahi's daemon (with D-Bus) for DNS-SD.
DEB_DEBS := dpkg-dev debhelper lintian man-db avahi-daemon avahi-utils dbus
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
RTSAN_RUNTIME = $(shell $(dir $(shell readlink -f $$(command -v swift)))clang -print-resource-dir)/lib/linux/libclang_rt.rtsan-x86_64.a
# Every test step has a deadline, so a hang fails the run with the hanging test named (output is line-buffered) instead of stalling CI.
BOUNDED = timeout --kill-after=30
RELEASE_BIN = .build/release
DEBUG_BIN = .build/debug
# The unit and integration tests build optimised, as release with -enable-testing (so @testable imports work), in a
# folder of their own: unoptimised SIMD DSP runs far slower than realtime, so the live JACK tests (300 inputs on a
# dummy server) would drop out, and whole-module release compiles take less CPU than a debug build at -O. Package.swift
# cannot ask for any of this itself (unsafe flags would make SwiftPM refuse the package as a dependency). Its own folder
# keeps .build (the release products the checks run) and a developer's plain `swift build` from rebuilding every module
# when the flags change. One test by hand: see DEVELOPERS.md, "Testing".
UNIT_BUILD = -c release -Xswiftc -enable-testing --scratch-path .build-unit

.PHONY: all deps test-deps install-debs build test unit unit-build checks pipewire-tests rtcheck rtsan rtsan-build rtsan-live fuzz demo feedback-demo clean help \
	static-build man install uninstall deb package-check

all: build

help:
	@echo "make demo    install, build, and play a monitor mix on a private dummy JACK server into demo-out.wav, then the monitor-console preset into demo-console.wav"
	@echo "make feedback-demo   the simulated stage howling without the feedback unit, tamed with it: an 11 ms loop into feedback-demo.wav, a 25 ms loop into feedback-demo-25ms.wav"
	@echo "make test    install, build, and run every test: unit, JACK integration (on jackd, then a selection on PipeWire's JACK), allocation count, RealtimeSanitizer, preset fuzzing"
	@echo "make build   release build of foldback, foldback-sandbox, foldback-probe, foldback-rtcheck, foldback-fuzz and the allocation counter"
	@echo "make install [PREFIX=/usr/local DESTDIR=]   foldback (Swift runtime linked statically), its presets and curves in share/foldback, docs, man pages; make uninstall"
	@echo "make deb     foldback_VERSION_ARCH.deb (Depends from dpkg-shlibdeps, the systemd unit), checked by lintian; make package-check installs it and plays a tone through it"
	@echo "make rtcheck / rtsan / rtsan-live / fuzz / unit / pipewire-tests   the parts of make test (unit: the XCTest suites, optimised, in .build-unit, after scripts/check-imports.sh)"

deps:
	@$(MAKE) --no-print-directory install-debs PACKAGES="$(DEBS)"

test-deps:
	@$(MAKE) --no-print-directory install-debs PACKAGES="$(DEBS) $(TEST_DEBS)"
	@$(MAKE) --no-print-directory $(X32_VENV)/.installed

# The X32 / X-Air client libraries the X32 surface's tests drive, at the versions pinned in their requirements file,
# in a virtual environment of Debian's python3 (FoldbackIntegrationTests' X32ClientEndToEndTests find it there).
X32_VENV = .build/x32-venv
PACKAGE_CHECK_VENV = .build/package-check-venv
X32_REQUIREMENTS = Tests/FoldbackIntegrationTests/Fixtures/x32/requirements.txt
$(X32_VENV)/.installed: $(X32_REQUIREMENTS)
	rm -rf $(X32_VENV) && mkdir -p .build && /usr/bin/python3 -m venv $(X32_VENV)
	$(X32_VENV)/bin/pip install --quiet --disable-pip-version-check -r $(X32_REQUIREMENTS)
	touch $@

install-debs:
	@missing=$$(for p in $(PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:" $$missing; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi

# Installing: foldback built with the Swift runtime (stdlib, Foundation, Dispatch) linked in statically, in .build-deb, so
# neither the package nor `make install` needs a Swift toolchain at run time; man pages from the command definitions
# (swift-argument-parser's generate-manual plugin, one page per verb: `man foldback-run`). See docs/stage-box.md.
PREFIX ?= /usr/local
DESTDIR ?=
STATIC_BUILD = -c release --static-swift-stdlib --scratch-path .build-deb -Xlinker -lcurl
STATIC_BIN = .build-deb/release
MAN_DIR = .build-deb/man
static-build: deps
	$(SWIFT) build $(STATIC_BUILD) --product foldback
	$(SWIFT) build $(STATIC_BUILD) --product foldback-sandbox

# The plugin builds every product of the package in release in .build-deb (`swift package` takes no
# --static-swift-stdlib, so it links foldback with the shared runtime: install and deb link it statically again
# after, in under a minute, nothing recompiled), then runs `foldback --experimental-dump-help`. Pages are named
# foldback-VERB.1 as git's (`man foldback-run`), their titles to match.
man: deps
	$(SWIFT) package -c release --scratch-path .build-deb -Xlinker -lcurl plugin generate-manual --multi-page --authors "Foldback maintainers"
	@rm -rf $(MAN_DIR) && mkdir -p $(MAN_DIR)
	@for page in .build-deb/plugins/GenerateManual/outputs/foldback/*.1; do \
	  name=$$(basename $$page .1 | tr . -); \
	  sed -e "/^\.Dt /s/\./-/g; s/^-Dt /.Dt /; /^\.Nm /s/foldback\.\([a-z.-]*\)/foldback-\1/; /^\.Xr /s/foldback\.\([a-z.-]*\)/foldback-\1/" $$page >$(MAN_DIR)/$$name.1; \
	done; ls $(MAN_DIR)

install: man
	$(SWIFT) build $(STATIC_BUILD) --product foldback
	$(SWIFT) build $(STATIC_BUILD) --product foldback-sandbox
	install -D -m 755 $(STATIC_BIN)/foldback $(DESTDIR)$(PREFIX)/bin/foldback
	install -D -m 755 $(STATIC_BIN)/foldback-sandbox $(DESTDIR)$(PREFIX)/lib/foldback/foldback-sandbox
	install -d $(DESTDIR)$(PREFIX)/share/foldback/presets $(DESTDIR)$(PREFIX)/share/foldback/curves $(DESTDIR)$(PREFIX)/share/foldback/web \
	  $(DESTDIR)$(PREFIX)/share/doc/foldback/docs $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 presets/*.toml $(DESTDIR)$(PREFIX)/share/foldback/presets/
	install -m 644 presets/curves/*.toml $(DESTDIR)$(PREFIX)/share/foldback/curves/
	install -m 644 Sources/FoldbackWeb/Resources/* $(DESTDIR)$(PREFIX)/share/foldback/web/
	install -m 644 README.md $(DESTDIR)$(PREFIX)/share/doc/foldback/
	install -m 644 docs/*.md docs/*.png $(DESTDIR)$(PREFIX)/share/doc/foldback/docs/
	install -m 644 $(MAN_DIR)/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/foldback $(DESTDIR)$(PREFIX)/share/man/man1/foldback.1 $(DESTDIR)$(PREFIX)/share/man/man1/foldback-*.1
	rm -rf $(DESTDIR)$(PREFIX)/share/foldback $(DESTDIR)$(PREFIX)/share/doc/foldback $(DESTDIR)$(PREFIX)/lib/foldback

# The Debian package, from `make install PREFIX=/usr` into a staging folder (scripts/make-deb.sh), then lintian.
deb: man
	@$(MAKE) --no-print-directory install-debs PACKAGES="$(DEB_DEBS)"
	bash scripts/make-deb.sh

# CI's check of the package as a user gets it: `make deb`, `apt-get install ./foldback_….deb`, then the installed
# /usr/bin/foldback with no toolchain on the PATH plays a shipped preset on a private dummy server (tone in, tone out),
# refuses a used port at once, speaks systemd's notify protocol and advertises over DNS-SD (scripts/package-check.py).
package-check: deb $(PACKAGE_CHECK_VENV)/.installed
	$(BOUNDED) 600 python3 scripts/package-check.py

# python-zeroconf, the phone's-eye mDNS browser package-check drives (scripts/dnssd-browse.py), pinned.
$(PACKAGE_CHECK_VENV)/.installed: scripts/package-check-requirements.txt
	rm -rf $(PACKAGE_CHECK_VENV) && mkdir -p .build && /usr/bin/python3 -m venv $(PACKAGE_CHECK_VENV)
	$(PACKAGE_CHECK_VENV)/bin/pip install --quiet --disable-pip-version-check -r $<
	touch $@

# Every product in one `swift build` (one plan, and llbuild compiles the executables side by side).
build: deps
	$(SWIFT) build -c release

# The audio path must make no allocation or free: counted by the preloaded counter on a release build.
rtcheck: build
	LD_PRELOAD=$(CURDIR)/$(RELEASE_BIN)/libFoldbackAllocCounter.so $(BOUNDED) 300 $(RELEASE_BIN)/foldback-rtcheck --cycles 20000 --threads 1
	LD_PRELOAD=$(CURDIR)/$(RELEASE_BIN)/libFoldbackAllocCounter.so $(BOUNDED) 300 $(RELEASE_BIN)/foldback-rtcheck --cycles 20000 --threads 2

# foldback-rtcheck, foldback and the plugin sandbox they start (foldback-sandbox, found beside them) with the audio
# path's C built under clang's RealtimeSanitizer, in .build-rtsan. Only
# Foldback's own C carries the sanitizer's marks (fb_realtime_scope.h), so scripts/rtsan-link.py recompiles just that C
# with -fsanitize=realtime and links both products from the release build's objects with the sanitizer's runtime,
# instead of compiling every module again (`-Xcc` reaches swiftc too); when SwiftPM's build manifest is not what the
# script expects (exit 3) the full build runs instead.
rtsan-build: build test-deps
	@RTSAN_RUNTIME=$(RTSAN_RUNTIME) python3 scripts/rtsan-link.py foldback-rtcheck foldback foldback-sandbox; status=$$?; \
	if [ $$status -eq 3 ]; then \
	  echo "rtsan: a full RealtimeSanitizer build in .build-rtsan instead"; rm -rf .build-rtsan; \
	  for product in foldback-rtcheck foldback foldback-sandbox; do \
	    $(SWIFT) build -c release --scratch-path .build-rtsan --product $$product -Xcc -fsanitize=realtime -Xlinker $(RTSAN_RUNTIME) || exit 1; \
	  done; \
	elif [ $$status -ne 0 ]; then exit $$status; fi

# The same scenario with the cycle wrapper built under clang's RealtimeSanitizer (errors are fatal). A sandbox's report
# lands on the same standard error (the sandbox may be killed as hung while it prints it), so the output is checked too.
rtsan: rtsan-build
	set -o pipefail; RTSAN_OPTIONS=halt_on_error=true $(BOUNDED) 300 .build-rtsan/release/foldback-rtcheck --no-alloc-count --cycles 20000 2>&1 \
	  | tee .build-rtsan/rtcheck.log && ! grep -q "ERROR: RealtimeSanitizer" .build-rtsan/rtcheck.log

# The real foldback binary under RealtimeSanitizer, mixing live on a dummy JACK server with audio flowing.
rtsan-live: rtsan-build
	$(BOUNDED) 600 bash scripts/rtsan-live.sh

# The preset, curve and setlist loaders against 20,000 mutated and the hand-made extreme inputs: no crash, no hang,
# every refusal located. Longer: .build/release/foldback-fuzz --seconds 3600 --seed N (see its --help).
fuzz: build
	$(BOUNDED) 600 $(RELEASE_BIN)/foldback-fuzz --cases 20000

# The tests, their executables and the allocation counter, optimised (UNIT_BUILD).
unit-build: test-deps
	$(SWIFT) build --build-tests $(UNIT_BUILD)
	$(SWIFT) build --product FoldbackAllocCounter $(UNIT_BUILD)

unit: unit-build
	bash scripts/check-imports.sh
	SWIFT=$(SWIFT) UNIT_BUILD="$(UNIT_BUILD)" bash scripts/unit-tests.sh

# The JACK integration tests PipeWire must pass (levels, threads, pretty names and latency, MIDI, stop signals with a
# take, ten PipeWire restarts, first contact, a sandboxed plugin crashing and hanging), on private headless pipewire daemons through PipeWire's libjack.
pipewire-tests: unit-build
	SWIFT=$(SWIFT) UNIT_BUILD="$(UNIT_BUILD)" $(BOUNDED) 300 bash scripts/pipewire-tests.sh

# The release-build checks, one after another.
checks: rtcheck rtsan rtsan-live fuzz package-check

# Everything, on two tracks side by side: the unit build, the XCTest run and PipeWire's selection (make unit
# pipewire-tests, the longer track: its tests mostly wait on JACK audio in real time), and the release build with its
# checks (make checks), at nice $(CHECKS_NICE) so that on a shared machine the unit build, which the tests wait for,
# goes first. The checks print as they run; the unit track's output (its log: .build/make-unit.log) when it ends.
# Serially: make unit checks pipewire-tests.
CHECKS_NICE ?= 5
test: test-deps
	@mkdir -p .build; \
	$(MAKE) --no-print-directory unit pipewire-tests >.build/make-unit.log 2>&1 & unit=$$!; \
	nice -n $(CHECKS_NICE) $(MAKE) --no-print-directory checks; checks=$$?; \
	wait $$unit; unit_status=$$?; \
	echo "=== make unit pipewire-tests (exit status $$unit_status; log in .build/make-unit.log):"; cat .build/make-unit.log; \
	echo "make test: checks exit status $$checks, unit and pipewire-tests exit status $$unit_status"; \
	[ $$checks -eq 0 ] && [ $$unit_status -eq 0 ]

demo: build
	bash scripts/demo.sh

feedback-demo: build
	bash scripts/feedback-demo.sh

clean:
	rm -rf .build .build-rtsan .build-unit .build-deb demo-out.wav demo-console.wav feedback-demo.wav feedback-demo-25ms.wav
