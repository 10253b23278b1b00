#!/usr/bin/env python3
"""Test api-model/std-headers: each public header of the API model provides (includes,
directly or not) every standard-library header the real LibTorch 1.13 header provides,
because user code relies on <torch/torch.h> giving it <cstring>, <fstream>, <unordered_map>...

Usage: check_std_headers.py [--model DIR] [--headers FILE] [--cxx CLANG] [--one-by-one]

For each `parse` entry of public_headers.txt that the model has, lists the standard C++
headers (and the standard C headers) that a file including the real header includes and
that one including the model's header includes, and fails on every standard header the
real one provides that the model's does not. Exits 77 (skipped) without the real headers.

What a header includes is read from the include tree `clang++ -E -H
-fshow-skipped-includes` prints: one preprocessing of a file that includes every public
header gives each file's direct includes (a file included again is shown, not entered),
and a header provides what its file reaches. That is the same as preprocessing each
header alone (--one-by-one: 408 runs instead of 2, 140 s of CPU instead of 3) as long as
no public header's includes depend on a macro an earlier one defines: for the model and
the real 1.13 headers the two give the same sets. A header set whose combined run fails
is read one by one, so that a header the real tree cannot compile alone is skipped and
a model header that does not preprocess is named. (`clang++ -M` lists the files that
`__has_include` looked up as well, such as <codecvt> for c10/util/variant.h: -H lists
only what is included.)
"""
import argparse
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
TREE_LINE = re.compile(r"^(\.+) (.+)$")


def standard_name(path):
    """'vector' for libstdc++'s <vector>, 'stdio.h' for the C header, else None."""
    match = CXX_STD.search(path)
    if match:
        return match.group(1)
    match = C_STD.search(path)
    return match.group(1) if match and match.group(1) in C_STD_NAMES else None


def std_headers(cxx, headers, args):
    """({header: the standard headers a file including it includes}, None) from one
    preprocessing of a file that includes every one of the headers, or (None, error)."""
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "tu.cpp")
        with open(source, "w") as out:
            out.writelines(f"#include <{header}>\n" for header in headers)
        command = [cxx, "-std=c++17", "-E", "-H", "-fshow-skipped-includes", source,
                   "-o", os.devnull] + args
        result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        diagnostics = [l for l in result.stderr.splitlines() if not TREE_LINE.match(l)]
        return None, "\n".join(diagnostics)[:2000]
    includes = {}  # file -> the files its #include directives reach (real paths)
    names = {}  # file -> its standard header name, if it is one
    tops = []  # the file each line of the source includes
    stack = [source]
    for line in result.stderr.splitlines():
        match = TREE_LINE.match(line)
        if not match:
            continue
        depth, spelled = len(match.group(1)), os.path.normpath(match.group(2))
        path = os.path.realpath(spelled)
        names.setdefault(path, standard_name(spelled))
        del stack[depth:]
        includes.setdefault(stack[-1], set()).add(path)
        stack.append(path)
        if depth == 1:
            tops.append(path)
    if len(tops) != len(headers):
        return None, f"{len(tops)} top-level includes in the tree for {len(headers)} headers"
    provided = {}
    for header, top in zip(headers, tops):
        reached, pending = {top}, [top]
        while pending:
            for path in includes.get(pending.pop(), ()):
                if path not in reached:
                    reached.add(path)
                    pending.append(path)
        provided[header] = {names[p] for p in reached if names.get(p)}
    return provided, None


def provided_by_each(cxx, headers, args, one_by_one):
    """{header: (standard headers, None) or (None, error)}: from one combined run, or
    header by header when asked or when the combined run fails."""
    if not one_by_one:
        together, _ = std_headers(cxx, headers, args)
        if together is not None:
            return {header: (together[header], None) for header in headers}
    result = {}
    for header in headers:
        alone, error = std_headers(cxx, [header], args)
        result[header] = (alone[header], None) if alone is not None else (None, error)
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=os.path.join(check_coverage.SOURCE_ROOT, "api_model"))
    parser.add_argument("--headers", default=os.path.join(HERE, "public_headers.txt"))
    parser.add_argument("--cxx", default=os.environ.get("CXX", "clang++-19"))
    parser.add_argument("--one-by-one", action="store_true",
                        help="preprocess each header alone (slow; the reference)")
    options = parser.parse_args()

    if not os.path.isfile(os.path.join(check_coverage.REAL_ROOTS[0], "torch", "torch.h")):
        print("real LibTorch headers not installed: skipped")
        return 77
    parsed, _ = check_coverage.read_public_headers(options.headers)
    headers = [h for h in parsed if os.path.isfile(os.path.join(options.model, h))]
    real_args = ["-DUSE_C10D_GLOO"] + [a for r in check_coverage.REAL_ROOTS[:2] for a in ("-I", r)]
    model_args = ["-isystem", options.model]
    real_sets = provided_by_each(options.cxx, headers, real_args, options.one_by_one)
    model_sets = provided_by_each(options.cxx, headers, model_args, options.one_by_one)

    failures, errors, provided = {}, [], set()
    for header in headers:
        (real, _), (model, model_error) = real_sets[header], model_sets[header]
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
