#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Makes RealtimeSanitizer builds of PRODUCT… (make rtsan, make rtsan-live) from the release build in .build without
compiling the package a second time: usage  rtsan-link.py PRODUCT…  →  .build-rtsan/release/PRODUCT.

Only Foldback's own C code carries RealtimeSanitizer's marks (FB_NONBLOCKING in fb_realtime_scope.h: the cycle
wrapper in CFoldback, the render team's work loop in CFoldbackTeam), and the Swift code has none, so a
`swift build --scratch-path .build-rtsan -Xcc -fsanitize=realtime` recompiles every Swift module (the -Xcc flag
reaches swiftc too) into objects that do the same. This script instead takes the exact commands SwiftPM used for
.build (its build manifest, .build/release.yaml): it recompiles the C files under Sources/ with
-fsanitize=realtime into .build-rtsan, and links each product from .build's objects with those in place of
their uninstrumented twins, adding the sanitizer's runtime (RTSAN_RUNTIME) as the full build does. Each binary
is checked to hold the sanitizer's entry points; on any surprise in the manifest it exits 3 and prints why, so
the Makefile can fall back to the full build. Standard library only."""
import json, os, re, shutil, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, ".build", "release.yaml")
OUT = os.path.join(ROOT, ".build-rtsan", "release")
SOURCES = os.path.join(ROOT, "Sources") + os.sep


class Unusable(Exception):
    """The manifest does not look as this script expects (a SwiftPM change): the caller builds in full instead."""


def commands(path):
    """The manifest's commands: key → {"tool", "inputs", "outputs", "args"} (the JSON-valued lines of each)."""
    result, key = {}, None
    with open(path, encoding="utf-8") as manifest:
        for line in manifest:
            heading = re.match(r'^  "(.+)":\s*$', line)
            if heading:
                key = heading.group(1)
                result[key] = {}
                continue
            field = re.match(r"^    (tool|inputs|outputs|args): (.*)$", line)
            if key and field:
                value = field.group(2).strip()
                result[key][field.group(1)] = json.loads(value) if value.startswith("[") else value
    return result


def run(args):
    status = subprocess.run(args).returncode
    if status != 0:
        sys.exit(f"rtsan-link: failed (status {status}): {' '.join(args[:4])} …")


def sanitized_objects(manifest):
    """Compiles every C file under Sources/ again with -fsanitize=realtime; returns {release object: rtsan object}."""
    replaced = {}
    for key, command in manifest.items():
        inputs = command.get("inputs") or []
        if command.get("tool") != "clang" or len(inputs) != 1 or not inputs[0].startswith(SOURCES):
            continue
        args = list(command["args"])
        if "-o" not in args or args[args.index("-o") + 1] != key:
            raise Unusable(f"no -o {key} in its compile command")
        target_dir = os.path.basename(os.path.dirname(key))          # e.g. CFoldback.build
        out = os.path.join(OUT, "objects", target_dir, os.path.basename(key))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        args[args.index("-o") + 1] = out
        if "-MF" in args:  # the dependency file SwiftPM wrote beside the object
            args[args.index("-MF") + 1] = out[:-2] + ".d"
        run(args + ["-fsanitize=realtime"])
        replaced[key] = out
    if not replaced:
        raise Unusable("no C sources under Sources/ in the manifest")
    return replaced


def link(manifest, product, replaced, runtime):
    key = next((k for k, c in manifest.items()
                if k.startswith("C.") and k.endswith("-release.exe") and [os.path.basename(o) for o in c.get("outputs", [])] == [product]), None)
    if key is None:
        raise Unusable(f"no link command for {product}")
    args = list(manifest[key]["args"])
    lists = [i for i, a in enumerate(args) if a.startswith("@") and a.endswith("Objects.LinkFileList")]
    if "-o" not in args or len(lists) != 1:
        raise Unusable(f"the link command for {product} has no -o or no single object list")
    with open(args[lists[0]][1:], encoding="utf-8") as listed:
        objects = [line.rstrip("\n") for line in listed if line.strip()]
    unquoted = [o[1:-1] if o.startswith("'") and o.endswith("'") else o for o in objects]
    swapped = sum(1 for o in unquoted if o in replaced)
    if swapped == 0:
        raise Unusable(f"{product} links none of the recompiled C objects")
    file_list = os.path.join(OUT, "objects", f"{product}.LinkFileList")
    with open(file_list, "w", encoding="utf-8") as out:
        for quoted, plain in zip(objects, unquoted):
            out.write((f"'{replaced[plain]}'" if plain in replaced else quoted) + "\n")
    binary = os.path.join(OUT, product)
    args[args.index("-o") + 1] = binary
    args[lists[0]] = "@" + file_list
    run(args + ["-Xlinker", runtime])
    symbols = subprocess.run(["nm", binary], capture_output=True, text=True).stdout
    if "__rtsan_realtime_enter" not in symbols:
        sys.exit(f"rtsan-link: {binary} holds no RealtimeSanitizer entry point")
    print(f"rtsan-link: {os.path.relpath(binary, ROOT)} ({swapped} C objects instrumented, {len(objects)} linked)")


def main():
    products, runtime = sys.argv[1:], os.environ.get("RTSAN_RUNTIME", "")
    if not products or not os.path.isfile(runtime):
        sys.exit("usage: RTSAN_RUNTIME=libclang_rt.rtsan-….a rtsan-link.py PRODUCT…  (after swift build -c release)")
    try:
        if not os.path.isfile(MANIFEST):
            raise Unusable(f"{MANIFEST} is missing")
        manifest = commands(MANIFEST)
        os.makedirs(OUT, exist_ok=True)
        replaced = sanitized_objects(manifest)
        for product in products:
            link(manifest, product, replaced, runtime)
        resources = [n for n in os.listdir(os.path.join(ROOT, ".build", "release")) if n.endswith(".resources")]
        for name in resources:  # the web surface's files, found beside the executable
            target = os.path.join(OUT, name)
            if not os.path.lexists(target):
                os.symlink(os.path.realpath(os.path.join(ROOT, ".build", "release", name)), target)
    except (Unusable, OSError, ValueError, KeyError) as problem:
        print(f"rtsan-link: cannot relink from the manifest ({problem})", file=sys.stderr)
        sys.exit(3)


if __name__ == "__main__":
    main()
