#!/usr/bin/env python3
"""Test api-model/std-headers: each public header of the API model provides (includes,
directly or not) every standard-library header the real LibTorch 1.13 header provides,
because user code relies on <torch/torch.h> giving it <cstring>, <fstream>, <unordered_map>...

Usage: check_std_headers.py [--model DIR] [--headers FILE] [--jobs N] [--cxx CLANG]

For each `parse` entry of public_headers.txt that the model has, lists the standard C++
headers (and the standard C headers) that `clang++ -M` reports for a file including the
real header and for one including the model's, and fails on every standard header the
real one provides that the model's does not. Exits 77 (skipped) without the real headers.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_coverage  # noqa: E402

# <vector>, <cstring>, ... : files without an extension directly in libstdc++'s include dir.
CXX_STD = re.compile(r"/include/c\+\+/\d+/([a-z_]+)$")
C_STD_NAMES = {
    "assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h",
    "iso646.h", "limits.h", "locale.h", "math.h", "setjmp.h", "signal.h", "stdalign.h",
    "stdarg.h", "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "string.h",
    "tgmath.h", "time.h", "uchar.h", "wchar.h", "wctype.h"}
# The C headers themselves, in /usr/include or in Clang's resource directory (not the
# libstdc++ wrappers of the same name, which <cmath> & co. include as well).
C_STD = re.compile(r"(?:^/usr/include|/lib/clang/\d+/include)/([a-z_]+\.h)$")


def std_headers(cxx, header, args):
    """The standard headers a file including <header> includes, per clang -M."""
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "tu.cpp")
        with open(source, "w") as out:
            out.write(f"#include <{header}>\n")
        command = [cxx, "-std=c++17", "-M", "-MF", os.path.join(tmp, "tu.d"), source] + args
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            return None, result.stderr[:2000]
        text = open(os.path.join(tmp, "tu.d")).read().replace("\\\n", " ")
    found = set()
    for path in text.split(":", 1)[1].split():
        path = os.path.normpath(path)
        match = CXX_STD.search(path)
        if match:
            found.add(match.group(1))
            continue
        match = C_STD.search(path)
        if match and match.group(1) in C_STD_NAMES:
            found.add(match.group(1))
    return found, None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=os.path.join(check_coverage.SOURCE_ROOT, "api_model"))
    parser.add_argument("--headers", default=os.path.join(HERE, "public_headers.txt"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--cxx", default=os.environ.get("CXX", "clang++-19"))
    options = parser.parse_args()

    if not os.path.isfile(os.path.join(check_coverage.REAL_ROOTS[0], "torch", "torch.h")):
        print("real LibTorch headers not installed: skipped")
        return 77
    parsed, _ = check_coverage.read_public_headers(options.headers)
    headers = [h for h in parsed if os.path.isfile(os.path.join(options.model, h))]
    real_args = ["-DUSE_C10D_GLOO"] + [a for r in check_coverage.REAL_ROOTS[:2] for a in ("-I", r)]
    model_args = ["-isystem", options.model]

    def both(header):
        return (header, std_headers(options.cxx, header, real_args),
                std_headers(options.cxx, header, model_args))

    failures, errors, provided = {}, [], set()
    with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
        for header, (real, real_error), (model, model_error) in pool.map(both, headers):
            if real is None:
                # A header the real tree cannot compile alone (CUDA, ...): nothing to compare.
                continue
            if model is None:
                errors.append(f"{header}: the model's header does not preprocess:\n{model_error}")
                continue
            if header == "torch/torch.h":
                provided = real
            missing = sorted(real - model)
            if missing:
                failures[header] = missing
    print(f"{len(headers)} public headers compared; <torch/torch.h> provides "
          f"{len(provided)} standard headers")
    for message in errors:
        print(message)
    for header, missing in sorted(failures.items()):
        print(f"{header}: missing {len(missing)}: {' '.join(missing)}")
    if failures or errors:
        print(f"FAIL: {len(failures)} model headers provide fewer standard headers than the "
              "real ones (add the includes to the model, see api_model/README.md)")
        return 1
    print("OK: every model header provides the standard headers its real header provides")
    return 0


if __name__ == "__main__":
    sys.exit(main())
