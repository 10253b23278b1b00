#!/usr/bin/env python3
"""Test api-model/coverage: the API model declares every public name and provides every
public header path of the real LibTorch 1.13 headers, except the reviewed exclusions.

Usage: check_coverage.py LISTER [--model DIR] [--exclusions FILE] [--headers FILE]
                         [--write-lists DIR]

Lists both sides with api_coverage_lister (the same rules), prints the coverage per kind
and fails listing every missing header path and name not matched by an exclusion.
"""
import argparse
import fnmatch
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))
# Innermost first: a header's path is relative to the innermost root holding it.
REAL_ROOTS = ["/usr/include/torch/csrc/api/include", "/usr/include/torch/csrc/distributed",
              "/usr/include"]
# at:: operator functions are declared in ATen/ops/<op>.h, which ATen/Functions.h includes;
# the other files there (_ops, _native, _meta, *_dispatch) are the dispatcher's.
ATEN_OP_HEADER = re.compile(r"ATen/ops/[a-z0-9_]+\.h$")
ATEN_OP_INTERNAL = re.compile(r"_(ops|native|meta|dispatch)\.h$")


def real_path(path):
    for root in REAL_ROOTS:
        full = os.path.join(root, path)
        if os.path.isfile(full):
            return full
    return None


def expand(pattern):
    """Header paths matching a pattern with * / ** in the innermost root that has its
    directory (torch/** is the C++ API's, not every header under /usr/include/torch)."""
    if "*" not in pattern:
        return [pattern]
    directory = pattern.split("*")[0].rsplit("/", 1)[0]
    root = next(r for r in REAL_ROOTS if os.path.isdir(os.path.join(r, directory)))
    # ** crosses directories, * does not.
    regex = re.escape(pattern).replace(r"\*\*", ".*").replace(r"\*", "[^/]*")
    found = set()
    for walked, _, files in os.walk(os.path.join(root, directory)):
        for name in files:
            relative = os.path.relpath(os.path.join(walked, name), root)
            # *-inl.h are bodies their header includes at its end, not headers of their own.
            if re.fullmatch(regex, relative) and not name.endswith("-inl.h"):
                found.add(relative)
    return sorted(found)


def read_public_headers(path):
    parsed, path_only = [], []
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        mode, pattern = line.split()
        (parsed if mode == "parse" else path_only).extend(expand(pattern))
    path_only = sorted(set(path_only))
    parsed = [p for p in dict.fromkeys(parsed) if p not in path_only]
    return parsed, path_only


def read_exclusions(path):
    """(pattern, justification) pairs; a line without a justification is an error."""
    exclusions = []
    for number, line in enumerate(open(path), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        pattern, _, why = line.partition("#")
        if not why.strip():
            sys.exit(f"{path}:{number}: exclusion '{pattern.strip()}' has no justification")
        exclusions.append((pattern.strip(), why.strip()))
    return exclusions


def list_names(lister, roots, headers, args):
    with tempfile.NamedTemporaryFile("w", suffix=".cpp", delete=False) as tu:
        tu.write("".join(f"#include <{h}>\n" for h in headers))
    try:
        command = [lister] + [a for r in roots for a in ("--root", r)] + [tu.name, "--"]
        command += ["-x", "c++", "-std=c++17"] + args
        result = subprocess.run(command, capture_output=True, text=True)
    finally:
        os.unlink(tu.name)
    if result.returncode != 0:
        sys.exit(f"api_coverage_lister failed ({' '.join(command)}):\n{result.stderr[:4000]}")
    names = {}
    for line in result.stdout.splitlines():
        kind, name, header = line.split("\t")
        names[name] = (kind, header)
    return names


def excluded(entry, exclusions):
    return next((p for p, _ in exclusions if fnmatch.fnmatchcase(entry, p)), None)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("lister")
    parser.add_argument("--model", default=os.path.join(SOURCE_ROOT, "api_model"))
    parser.add_argument("--exclusions",
                        default=os.path.join(SOURCE_ROOT, "api_model", "coverage_exclusions.txt"))
    parser.add_argument("--headers", default=os.path.join(HERE, "public_headers.txt"))
    parser.add_argument("--backlog",
                        default=os.path.join(SOURCE_ROOT, "api_model", "coverage_backlog.txt"),
                        help="names and header:PATHs not yet modelled (not exclusions: to do)")
    parser.add_argument("--write-backlog", action="store_true",
                        help="write every missing entry to the backlog file and pass")
    parser.add_argument("--write-lists", help="write real.txt and model.txt to this directory")
    options = parser.parse_args()

    if not os.path.isfile(os.path.join(REAL_ROOTS[0], "torch", "torch.h")):
        print("real LibTorch headers not installed: skipped")
        return 77
    parsed, path_only = read_public_headers(options.headers)
    exclusions = read_exclusions(options.exclusions)
    public = set(parsed)

    real_args = ["-DUSE_C10D_GLOO"] + [a for r in REAL_ROOTS[:2] for a in ("-I", r)]
    real = list_names(options.lister, REAL_ROOTS, parsed, real_args)
    real = {n: (k, h) for n, (k, h) in real.items()
            if h in public or (ATEN_OP_HEADER.match(h) and not ATEN_OP_INTERNAL.search(h))}

    all_headers = sorted(set(parsed) | set(path_only))
    model_headers = [h for h in all_headers if os.path.isfile(os.path.join(options.model, h))]
    model = list_names(options.lister, [options.model], model_headers, ["-I", options.model])

    if options.write_lists:
        for name, names in (("real.txt", real), ("model.txt", model)):
            with open(os.path.join(options.write_lists, name), "w") as out:
                out.writelines(f"{k}\t{n}\t{h}\n" for n, (k, h) in sorted(names.items()))

    missing_headers = [h for h in all_headers if h not in model_headers
                       and not excluded("header:" + h, exclusions)]
    missing_names = [(k, n, h) for n, (k, h) in sorted(real.items())
                     if n not in model and not excluded(n, exclusions)]

    print(f"{'kind':<12} {'covered':>8} {'excluded':>9} {'total':>7}  coverage")
    rows = [("header", [("header", "header:" + h, h) for h in all_headers])]
    kinds = sorted({k for k, _ in real.values()})
    rows += [(kind, [(k, n, h) for n, (k, h) in real.items() if k == kind]) for kind in kinds]
    rows.append(("all names", [(k, n, h) for n, (k, h) in real.items()]))
    for label, entries in rows:
        covered = sum(1 for k, n, h in entries
                      if (h in model_headers if k == "header" else n in model))
        skipped = sum(1 for k, n, h in entries if excluded(n, exclusions)
                      and not (h in model_headers if k == "header" else n in model))
        total = len(entries)
        print(f"{label:<12} {covered:>8} {skipped:>9} {total:>7}  "
              f"{100.0 * covered / total if total else 100:5.1f}% "
              f"({100.0 * (covered + skipped) / total if total else 100:5.1f}% with exclusions)")

    unused = [p for p, _ in exclusions
              if not any(fnmatch.fnmatchcase(n, p) for n in real)
              and not any(fnmatch.fnmatchcase("header:" + h, p) for h in all_headers)]
    for pattern in unused:
        print(f"note: exclusion '{pattern}' matches nothing")
    missing = [("header", "header:" + h, h) for h in missing_headers] + missing_names
    if options.write_backlog:
        with open(options.backlog, "w") as out:
            out.write("# Names and header paths of the real headers the API model does not declare\n"
                      "# yet (a to-do list, not exclusions); check_coverage.py --write-backlog.\n")
            out.writelines(f"{n}\n" for _, n, _ in missing)
    backlog = set()
    if os.path.isfile(options.backlog):
        backlog = {l.strip() for l in open(options.backlog) if l.strip() and not l.startswith("#")}
    done = sorted(backlog - {n for _, n, _ in missing})
    if done:
        print(f"note: {len(done)} backlog entries are now covered; remove them "
              f"(--write-backlog): {' '.join(done[:10])}")
    regressions = [(k, n, h) for k, n, h in missing if n not in backlog]
    print(f"backlog: {len(missing) - len(regressions)} entries not modelled yet")
    if regressions:
        for kind, name, header in regressions:
            print(f"missing {kind}: {name} ({header})")
        print(f"FAIL: {len(regressions)} header paths and names of the real headers are missing "
              "from the API model (and from its backlog)")
        return 1
    print("OK: the API model covers every public header path and name not excluded or in the backlog")
    return 0


if __name__ == "__main__":
    sys.exit(main())
