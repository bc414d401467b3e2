#!/usr/bin/env bash
# Checks that every Swift target in Package.swift declares exactly the modules its files import: no import of an
# undeclared target or product (it would build only through another target's dependency) and no declared
# dependency that no file imports. A test target may also depend on an executable it runs without importing it.
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
"${SWIFT:-swift}" package dump-package 2>/dev/null | python3 -c '
import json, os, re, sys

package = json.load(sys.stdin)
# Modules of the toolchain and the system: imported freely, never declared.
system = {"Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Musl", "Darwin", "Dispatch",
          "Synchronization", "FoundationXML", "XCTest", "Testing", "_Concurrency", "os", "CoreFoundation"}
# What each target is, to tell executables (a test may run one without importing it) from libraries.
kinds = {target["name"]: target["type"] for target in package["targets"]}
importLine = re.compile(r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?"
                        r"import\s+(?:(?:struct|class|enum|protocol|typealias|func|let|var)\s+)?([A-Za-z_][A-Za-z0-9_]*)")

def module(name):
    return name.replace("-", "_")

problems = []
for target in package["targets"]:
    if target["type"] in ("system", "plugin", "binary"):
        continue
    folder = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", target["name"])
    imports = {}
    for root, _, files in os.walk(folder):
        for file in files:
            if not file.endswith(".swift"):
                continue
            path = os.path.join(root, file)
            for line in open(path, encoding="utf-8"):
                match = importLine.match(line)
                if match and match.group(1) not in system:
                    imports.setdefault(match.group(1), path)
    if not imports and target["type"] == "regular" and not any(
            f.endswith(".swift") for _, _, files in os.walk(folder) for f in files):
        continue  # a C target: the compiler checks its #includes
    declared, targetName = {}, target["name"]
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        declared[module(value[0])] = value[0]
    for name, path in sorted(imports.items()):
        if name not in declared:
            problems.append(f"{targetName}: imports {name} ({path}) without declaring it")
    for name, declaredName in sorted(declared.items()):
        if name in imports:
            continue
        if target["type"] == "test" and kinds.get(declaredName) == "executable":
            continue  # built for the test to run, not imported
        problems.append(f"{targetName}: declares {declaredName} but no file imports it")

for problem in problems:
    print("check-imports: " + problem)
sys.exit(1 if problems else 0)
'
