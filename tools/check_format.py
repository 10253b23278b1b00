#!/usr/bin/env python3
"""Fails when a C++ file of the project is not formatted as .clang-format says.

Test inputs and data opt out with their own .clang-format (DisableFormat), so
this runs clang-format on every C++ file of the repository and lists the ones
it would change. `--fix` formats them in place instead.

usage: check_format.py <repository root> [--clang-format=<binary>] [--fix]
"""
import os
import re
import shutil
import subprocess
import sys

SUFFIXES = (".h", ".hpp", ".cpp", ".cu", ".cuh")
SKIPPED_DIRS = {".git", "node_modules"}


def sources(root):
    for directory, subdirs, files in os.walk(root):
        # Build trees (build/, build-fuzz/, ...) hold generated code.
        subdirs[:] = sorted(d for d in subdirs
                            if d not in SKIPPED_DIRS and not d.startswith("build"))
        for name in sorted(files):
            if name.endswith(SUFFIXES):
                yield os.path.join(directory, name)


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    root = os.path.abspath(args[0])
    binary = next((a.split("=", 1)[1] for a in args if a.startswith("--clang-format=")), None)
    binary = binary or shutil.which("clang-format-19") or "/usr/lib/llvm-19/bin/clang-format"
    fix = "--fix" in args
    files = list(sources(root))
    if fix:
        subprocess.run([binary, "-i", *files], check=True)
        print(f"formatted {len(files)} files")
        return
    # One clang-format process per batch (a process per file was most of the
    # test's time); its errors name the files it would change.
    unformatted = {}
    batch = 200
    for start in range(0, len(files), batch):
        run = subprocess.run([binary, "--dry-run", "--Werror", *files[start:start + batch]],
                             capture_output=True, text=True)
        if run.returncode == 0:
            continue
        for line in run.stderr.splitlines():
            match = re.match(r"(.+?):\d+:\d+: error: (.*)", line)
            if match and match.group(1) not in unformatted:
                unformatted[match.group(1)] = line
        if not any(path in unformatted for path in files[start:start + batch]):
            sys.exit(f"FAIL: clang-format failed: {run.stderr.strip()}")
    unformatted = [f"{os.path.relpath(path, root)}: {line.split(': ', 1)[1]}"
                   for path, line in unformatted.items()]
    for line in unformatted:
        print(line)
    if unformatted:
        sys.exit(f"FAIL: {len(unformatted)} of {len(files)} C++ files are not formatted "
                 f"(python3 tools/check_format.py . --fix formats them)")
    print(f"OK: {len(files)} C++ files formatted as .clang-format says")


if __name__ == "__main__":
    main()
