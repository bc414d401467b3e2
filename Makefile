# Foldback: build, test and demo. Every target installs the Debian packages it needs first.
# SPDX-License-Identifier: GPL-3.0-or-later
SHELL := /bin/bash
SWIFT ?= swift
DEBS := jackd2 libjack-jackd2-dev liblilv-dev lv2-dev libsndfile1-dev libsamplerate0-dev librubberband-dev liblo-dev libebur128-dev libfftw3-dev libqrencode-dev pkg-config
# Tools and LV2 plugins the tests use (not needed to build or run foldback itself).
TEST_DEBS := rubberband-cli lilv-utils liblo-tools x42-plugins swh-lv2 mda-lv2 sox espeak-ng python3 chromium chromium-driver pipewire pipewire-bin pipewire-jack iproute2
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
RTSAN_RUNTIME = $(shell $(dir $(shell readlink -f $$(command -v swift)))clang -print-resource-dir)/lib/linux/libclang_rt.rtsan-x86_64.a
# Every test step has a deadline, so a hang fails the run with the hanging test named (output is line-buffered) instead of stalling CI.
BOUNDED = timeout --kill-after=30
RELEASE_BIN = .build/release
DEBUG_BIN = .build/debug
# The unit and integration tests build in debug (so @testable imports work and asserts stay on) but optimised, in a
# folder of their own: unoptimised SIMD DSP runs far slower than realtime, so the live JACK tests (300 inputs on a
# dummy server) would drop out. Package.swift cannot ask for -O itself (unsafe flags would make SwiftPM refuse the
# package as a dependency). Its own folder keeps a developer's plain `swift build` in .build from rebuilding every
# module each time the flags change. One test by hand: see DEVELOPERS.md, "Testing".
UNIT_BUILD = --scratch-path .build-unit -Xswiftc -O

.PHONY: all deps test-deps install-debs build test unit pipewire-tests rtcheck rtsan rtsan-live fuzz demo feedback-demo clean help

all: build

help:
	@echo "make demo    install, build, and play a monitor mix on a private dummy JACK server into demo-out.wav, then the monitor-console preset into demo-console.wav"
	@echo "make feedback-demo   the simulated stage howling without the feedback unit, tamed with it: an 11 ms loop into feedback-demo.wav, a 25 ms loop into feedback-demo-25ms.wav"
	@echo "make test    install, build, and run every test: unit, JACK integration (on jackd, then a selection on PipeWire's JACK), allocation count, RealtimeSanitizer, preset fuzzing"
	@echo "make build   release build of foldback, foldback-probe and foldback-rtcheck"
	@echo "make rtcheck / rtsan / rtsan-live / fuzz / unit / pipewire-tests   the parts of make test (unit: the XCTest suites, optimised, in .build-unit, after scripts/check-imports.sh)"

deps:
	@$(MAKE) --no-print-directory install-debs PACKAGES="$(DEBS)"

test-deps:
	@$(MAKE) --no-print-directory install-debs PACKAGES="$(DEBS) $(TEST_DEBS)"

install-debs:
	@missing=$$(for p in $(PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:" $$missing; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi

build: deps
	$(SWIFT) build -c release --product foldback
	$(SWIFT) build -c release --product foldback-probe
	$(SWIFT) build -c release --product foldback-rtcheck
	$(SWIFT) build -c release --product FoldbackAllocCounter

# The audio path must make no allocation or free: counted by the preloaded counter on a release build.
rtcheck: build
	LD_PRELOAD=$(CURDIR)/$(RELEASE_BIN)/libFoldbackAllocCounter.so $(BOUNDED) 300 $(RELEASE_BIN)/foldback-rtcheck --cycles 20000 --threads 1
	LD_PRELOAD=$(CURDIR)/$(RELEASE_BIN)/libFoldbackAllocCounter.so $(BOUNDED) 300 $(RELEASE_BIN)/foldback-rtcheck --cycles 20000 --threads 2

# The same scenario with the cycle wrapper built under clang's RealtimeSanitizer (errors are fatal).
rtsan: deps
	$(SWIFT) build -c release --scratch-path .build-rtsan --product foldback-rtcheck \
	  -Xcc -fsanitize=realtime -Xlinker $(RTSAN_RUNTIME)
	RTSAN_OPTIONS=halt_on_error=true $(BOUNDED) 300 .build-rtsan/release/foldback-rtcheck --no-alloc-count --cycles 20000

# The real foldback binary under RealtimeSanitizer, mixing live on a dummy JACK server with audio flowing.
rtsan-live: build
	$(SWIFT) build -c release --scratch-path .build-rtsan --product foldback \
	  -Xcc -fsanitize=realtime -Xlinker $(RTSAN_RUNTIME)
	$(BOUNDED) 600 bash scripts/rtsan-live.sh

# The preset, curve and setlist loaders against 20,000 mutated and the hand-made extreme inputs: no crash, no hang,
# every refusal located. Longer: .build/release/foldback-fuzz --seconds 3600 --seed N (see its --help).
fuzz: deps
	$(SWIFT) build -c release --product foldback-fuzz
	$(BOUNDED) 600 $(RELEASE_BIN)/foldback-fuzz --cases 20000

unit: test-deps
	bash scripts/check-imports.sh
	$(SWIFT) build --build-tests $(UNIT_BUILD)
	$(SWIFT) build --product FoldbackAllocCounter $(UNIT_BUILD)
	SWIFT=$(SWIFT) UNIT_BUILD="$(UNIT_BUILD)" bash scripts/unit-tests.sh

# The JACK integration tests PipeWire must pass (levels, threads, pretty names and latency, MIDI, stop signals with a
# take, ten PipeWire restarts, first contact), on private headless pipewire daemons through PipeWire's libjack.
pipewire-tests: test-deps
	$(SWIFT) build --build-tests $(UNIT_BUILD)
	SWIFT=$(SWIFT) UNIT_BUILD="$(UNIT_BUILD)" $(BOUNDED) 300 bash scripts/pipewire-tests.sh

test: test-deps rtcheck rtsan rtsan-live fuzz unit pipewire-tests

demo: build
	bash scripts/demo.sh

feedback-demo: build
	bash scripts/feedback-demo.sh

clean:
	rm -rf .build .build-rtsan .build-unit demo-out.wav demo-console.wav feedback-demo.wav feedback-demo-25ms.wav