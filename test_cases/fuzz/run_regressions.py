#!/usr/bin/env python3
"""Runs the gradlint CLI on every file of a folder of inputs that once broke
the model (fuzzer finds and hand-made nasty inputs). Findings (1) or a
refusal (2) are fine; a signal, a sanitizer report or a hang is not.

usage: run_regressions.py <gradlint> <folder>
"""
import os
import subprocess
import sys

GRADLINT, FOLDER = sys.argv[1], sys.argv[2]
passed = failed = 0
inputs = sorted(os.path.join(FOLDER, name) for name in os.listdir(FOLDER))
if not inputs:
    print(f"FAIL no inputs in {FOLDER}")
    failed += 1
for path in inputs:
    name = os.path.basename(path)
    try:
        run = subprocess.run([GRADLINT, path], capture_output=True, text=True,
                             errors="replace", timeout=120)
    except subprocess.TimeoutExpired:
        print(f"FAIL {name}: no answer in 120 s")
        failed += 1
        continue
    sanitizer = "Sanitizer" in run.stderr or "runtime error:" in run.stderr
    if run.returncode in (0, 1, 2) and not sanitizer:
        passed += 1
    else:
        print(f"FAIL {name}: exit status {run.returncode}\n{run.stderr[-3000:]}")
        failed += 1
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
