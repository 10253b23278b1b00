#!/usr/bin/env python3
"""Holds the tree to its architecture: dependencies point one way.

    driver  -> confirm -> runtime
    driver  -> checks  -> model
    confirm -> model
    confirm -> checks/ConfirmationPlan.h (the plan each check declares: plain data)

Every #include "..." of a project header under a top-level room must name a
room that room may depend on; runtime/ includes only itself (and never
Clang). With a clang-tidy plugin, its dynamic symbols must name nothing of
the runtime, the confirmation or the driver.

usage: check_layering.py <repository root> [<libGradlintTidy.so>]
"""
import os
import re
import subprocess
import sys

# Which rooms each room may include from (itself always).
ALLOWED = {
    "model": set(),
    "checks": {"model"},
    "confirm": {"model", "runtime"},
    "runtime": set(),
    "driver": {"model", "checks", "confirm", "runtime"},
}
# The clang-tidy plugin is driver code that may use checks and model only.
PLUGIN_DIR = os.path.join("driver", "tidy_plugin")
PLUGIN_ALLOWED = {"model", "checks"}
# Single headers a room may include from a room it otherwise may not.
ALLOWED_HEADERS = {"confirm": {"checks/ConfirmationPlan.h"}}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cu", ".cuh")


def runtime_headers(root):
    names = set()
    for directory, _, files in os.walk(os.path.join(root, "runtime")):
        for name in files:
            if name.endswith(SOURCE_SUFFIXES):
                names.add(os.path.relpath(os.path.join(directory, name), os.path.join(root, "runtime")))
    return names


def room_of(include, root, bare_runtime):
    """The room a quoted include names, or None when it is not ours."""
    first = include.split("/", 1)[0]
    if first in ALLOWED and os.path.exists(os.path.join(root, include)):
        return first
    if include in bare_runtime:
        return "runtime"
    return None


def check_sources(root):
    problems = []
    bare_runtime = runtime_headers(root)
    for room, allowed in ALLOWED.items():
        for directory, _, files in os.walk(os.path.join(root, room)):
            for name in files:
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(directory, name)
                rel = os.path.relpath(path, root)
                permitted = PLUGIN_ALLOWED if rel.startswith(PLUGIN_DIR + os.sep) else allowed
                with open(path, encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
                for match in INCLUDE.finditer(text):
                    include = match.group(1)
                    line = text.count("\n", 0, match.start()) + 1
                    target = room_of(include, root, bare_runtime)
                    if include.startswith(("clang/", "llvm/", "clang-tidy/")) and room == "runtime":
                        target = "Clang"
                    if target is None or (target == room and permitted is allowed):
                        continue
                    if target not in permitted and include not in ALLOWED_HEADERS.get(room, ()):
                        problems.append(f"{rel}:{line}: {room}/ may not include \"{include}\" "
                                        f"({target})")
    return problems


def check_plugin(plugin):
    symbols = subprocess.run(["nm", "-C", "-D", "--defined-only", plugin],
                             capture_output=True, text=True, check=True).stdout
    bad = [line for line in symbols.splitlines()
           if re.search(r"gradlint::(runtime|confirm|interp)\b|\bgradlint::(Confirmation|FindingCode|"
                        r"confirmFinding|translateLoop|FileAnalysis|analyseFile)",
                        line)]
    # The runtime's kernels and runs by name, in case they were not namespaced.
    bad += [line for line in symbols.splitlines()
            if re.search(r"\b(RunSettings|microBatch|forwardBackward|cudaBackend|cpuBackend)\b", line)]
    return [f"{plugin}: exports {line.split(' ', 2)[-1]}" for line in bad]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    root = os.path.abspath(sys.argv[1])
    problems = check_sources(root)
    if len(sys.argv) == 3:
        problems += check_plugin(sys.argv[2])
    for problem in problems:
        print(problem)
    if problems:
        sys.exit(f"FAIL: {len(problems)} dependencies point the wrong way")
    print("OK: model <- checks <- driver, model <- confirm <- driver, runtime <- confirm")


if __name__ == "__main__":
    main()
