#!/usr/bin/env python3
"""Runs gradlint on one annotated test case and checks its diagnostics.

The expected diagnostics are written next to the code, clang-tidy style:

    // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: gradient reset {{.*}} [accum-misplaced-zero-grad]

FileCheck matches them against gradlint's output, and any warning or error
that is not listed fails the test. A case without CHECK-MESSAGES lines must
produce no diagnostic at all (exit status 0).

usage: check_gradlint.py <gradlint> <source> [--headers=model|real] [--pch=<file>]
"""
import os
import re
import subprocess
import sys

REAL_HEADER_ARGS = [
    "-I/usr/include/torch/csrc/api/include",
    "-I/usr/include/torch/csrc/distributed",
    "-DUSE_C10D_GLOO",
]
HEADER_LINE = re.compile(r"^\S.*?:\d+:\d+: (warning|error|note): ")


def compiler_args(headers, pch):
    args = ["-std=c++17"]
    if headers == "real":
        args += REAL_HEADER_ARGS
        if pch:
            args += ["-include-pch", pch]
    return args


def main():
    gradlint, source = sys.argv[1], sys.argv[2]
    headers, pch = "model", None
    for arg in sys.argv[3:]:
        if arg.startswith("--headers="):
            headers = arg.split("=", 1)[1]
        elif arg.startswith("--pch="):
            pch = arg.split("=", 1)[1] or None
    filecheck = os.environ.get("FILECHECK", "/usr/lib/llvm-19/bin/FileCheck")

    run = subprocess.run([gradlint, source, "--"] + compiler_args(headers, pch),
                         capture_output=True, text=True)
    if run.returncode == 2:
        sys.exit(f"FAIL: gradlint reported an error:\n{run.stderr}")
    diagnostics = "\n".join(line for line in run.stdout.splitlines() if HEADER_LINE.match(line))
    warnings = [line for line in diagnostics.splitlines() if ": warning: " in line]

    with open(source, encoding="utf-8") as handle:
        text = handle.read()
    expected = [line for line in text.splitlines() if "CHECK-MESSAGES:" in line]
    if not expected:
        if warnings or run.returncode != 0:
            sys.exit("FAIL: expected no diagnostics, got:\n" + run.stdout)
        print("OK: no diagnostics")
        return
    if run.returncode != 1:
        sys.exit(f"FAIL: expected exit status 1, got {run.returncode}\n{run.stdout}")
    check = subprocess.run(
        [filecheck, source, "--check-prefix=CHECK-MESSAGES",
         "--implicit-check-not={{warning|error}}:", "--dump-input=never"],
        input=diagnostics, capture_output=True, text=True)
    if check.returncode != 0:
        sys.exit("FAIL: diagnostics do not match the annotations\n" + check.stderr +
                 "\n--- gradlint output ---\n" + diagnostics)
    print(f"OK: {len(warnings)} diagnostics as annotated")


if __name__ == "__main__":
    main()
