#!/usr/bin/env python3
"""Fix-it round trips: every positive case, buggy example and fixture is copied to a
scratch directory and fixed with `gradlint --fix --unsafe-fixes`. The fixed
file must still compile (gradlint reports no parse error), every finding that
had a fix must be gone without new findings appearing, and a second --fix
must change nothing. --fix-dry-run must print exactly the change --fix makes
(checked with patch(1)), --export-fixes must give the same result through
clang-apply-replacements, and safe/unsafe, read-only files and atomic writes
behave as documented.

usage: fixit_tests.py <gradlint> <repository root> [clang-apply-replacements]
"""
import collections
import glob
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import check, summary  # noqa: E402

GRADLINT, ROOT = sys.argv[1], sys.argv[2]
APPLY = sys.argv[3] if len(sys.argv) > 3 else shutil.which("clang-apply-replacements-19")


def gradlint(*args, cwd=None):
    # In-process: what is fixed does not depend on isolation (bad-input checks
    # that isolated runs print and export the same), which costs a process per file.
    return subprocess.run([GRADLINT, "--no-isolation", *args], capture_output=True, text=True,
                          cwd=cwd)


def findings(path):
    run = gradlint("--format=json", path)
    document = json.loads(run.stdout)
    return run.returncode, document["diagnostics"], document["errors"]


def read(path):
    with open(path, "rb") as f:
        return f.read()


# Every program with findings: the positive cases, the buggy examples and fixtures.
sources = sorted(glob.glob(os.path.join(ROOT, "test_cases", "accum-*", "positive_*.cpp")))
sources += sorted(glob.glob(os.path.join(ROOT, "examples", "*_buggy.cpp")))
sources += sorted(glob.glob(os.path.join(ROOT, "fixtures", "*", "buggy.cpp")))


def by_file(run):
    """JSON output of one multi-file run, as {path: diagnostics} and its errors."""
    document = json.loads(run.stdout)
    grouped = collections.defaultdict(list)
    for d in document["diagnostics"]:
        grouped[os.path.realpath(d["file"])].append(d)
    return grouped, document["errors"]


coverage = collections.Counter()
with tempfile.TemporaryDirectory() as scratch:
    # Every source in one tree (fixtures keep their layout: they include the
    # harness by a relative path), analysed and fixed in a few batch runs.
    tree = os.path.join(scratch, "tree")
    for source in sources:
        target = os.path.join(tree, os.path.relpath(source, ROOT))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy(source, target)
    if os.path.isdir(os.path.join(ROOT, "fixtures", "harness")):
        shutil.copytree(os.path.join(ROOT, "fixtures", "harness"),
                        os.path.join(tree, "fixtures", "harness"))
    paths = [os.path.realpath(os.path.join(tree, os.path.relpath(s, ROOT))) for s in sources]
    names = {p: os.path.relpath(p, os.path.realpath(tree)) for p in paths}

    before, errors = by_file(gradlint("-j2", "--format=json", *paths))
    check("every source analyses cleanly before fixing", not errors, errors)
    fixable = [p for p in paths if any(d.get("fix") for d in before[p])]
    for p in paths:
        for d in before[p]:
            coverage[(d["check"], bool(d.get("fix")))] += 1
    originals = {p: read(p) for p in paths}

    # --fix-dry-run (with --export-fixes in the same run): nothing changes;
    # patch(1) applies its diff.
    exported = os.path.join(scratch, "export", "fixes.yaml")
    os.makedirs(os.path.dirname(exported))
    dry = gradlint("-j2", "--fix-dry-run", "--unsafe-fixes", f"--export-fixes={exported}",
                   *fixable, cwd="/")
    check("--fix-dry-run exits 1 when there is something to fix", dry.returncode == 1, dry.stderr)
    check("--fix-dry-run leaves every file alone", all(read(p) == originals[p] for p in paths))
    mirror = os.path.join(scratch, "mirror")
    for p in fixable:
        target = mirror + p
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy(p, target)
    patch = subprocess.run(["patch", "-s", "-p1", "-d", mirror], input=dry.stdout,
                           capture_output=True, text=True)
    check("patch(1) accepts the dry-run diff", patch.returncode == 0, patch.stderr)

    fix = gradlint("-j2", "--fix", "--unsafe-fixes", *fixable)
    check("--fix exits 0 or 1", fix.returncode in (0, 1), fix.stderr)
    fixed_once = {p: read(p) for p in paths}
    after, errors = by_file(gradlint("-j2", "--format=json", *fixable))
    check("every fixed file still compiles", not errors, errors)

    for p in paths:
        name = names[p]
        if p not in fixable:
            check(f"{name}: no fix, no change", read(p) == originals[p])
            continue
        check(f"{name}: --fix changed the file", fixed_once[p] != originals[p])
        check(f"{name}: the dry-run diff gives the same result", read(mirror + p) == fixed_once[p])
        unfixable = collections.Counter(d["check"] for d in before[p] if not d.get("fix"))
        remaining = collections.Counter(d["check"] for d in after[p])
        check(f"{name}: every fixed finding is gone and no new one appears",
              all(remaining[c] <= unfixable[c] for c in remaining),
              [(d["check"], d["line"], d["message"][:80]) for d in after[p]])
        # A fix comes only with a finding: none offered means a second --fix changes nothing.
        check(f"{name}: nothing left to fix (a second --fix would change nothing)",
              not any(d.get("fix") for d in after[p]), after[p])
    leftovers = [f for _, _, files in os.walk(tree) for f in files if ".gradlint-" in f]
    check("no temporary file is left behind", not leftovers, leftovers)

    if APPLY:
        # clang-apply-replacements on the exported YAML, from the originals.
        for p in fixable:
            with open(p, "wb") as f:
                f.write(originals[p])
        applied = subprocess.run([APPLY, os.path.dirname(exported)], capture_output=True, text=True)
        check("clang-apply-replacements accepts --export-fixes", applied.returncode == 0,
              applied.stderr + applied.stdout)
        for p in fixable:
            check(f"{names[p]}: clang-apply-replacements gives the --fix result",
                  read(p) == fixed_once[p])

    fixable_total = sum(n for (c, has), n in coverage.items() if has)
    total = sum(coverage.values())
    print("fix-it coverage per check (with fix / all findings):")
    for check_id in sorted({c for c, _ in coverage}):
        print(f"  {check_id}: {coverage[(check_id, True)]} / "
              f"{coverage[(check_id, True)] + coverage[(check_id, False)]}")
    # Issue 29: at least 90% of the findings carry a fix-it (the rule documents
    # say which shapes have none, and why).
    check("at least 90% of the findings come with a fix", total and fixable_total >= 0.9 * total,
          f"{fixable_total} / {total}")

    # Safe and unsafe: a helper call moves only with --unsafe-fixes.
    example = os.path.join(scratch, "ddp.cpp")
    shutil.copy(os.path.join(ROOT, "examples", "ddp_gloo_buggy.cpp"), example)
    _, before, _ = findings(example)
    unsafe = [d for d in before if d.get("fix") and not d["fix"]["safe"]]
    check("the helper-call all-reduce move is marked unsafe",
          [d["check"] for d in unsafe] == ["accum-unguarded-grad-sync"], before)
    safe_only = gradlint("--fix", example)
    _, after, _ = findings(example)
    check("--fix without --unsafe-fixes leaves the unsafe finding",
          [d["check"] for d in after] == ["accum-unguarded-grad-sync"], after)
    check("--fix says how many unsafe fixes it skipped",
          "1 unsafe fix(es) not applied" in safe_only.stderr, safe_only.stderr)
    check("--fix exits 1 while an unfixed finding remains", safe_only.returncode == 1)
    text = gradlint(example).stdout
    check("text output offers the unsafe fix",
          "unsafe fix available (--fix --unsafe-fixes)" in text, text[-500:])

    # A read-only file is an error and stays untouched; other files still get fixed.
    readonly = os.path.join(scratch, "readonly.cpp")
    writable = os.path.join(scratch, "writable.cpp")
    shutil.copy(os.path.join(ROOT, "examples", "mnist_accumulation_buggy.cpp"), readonly)
    shutil.copy(os.path.join(ROOT, "examples", "mnist_accumulation_buggy.cpp"), writable)
    os.chmod(readonly, stat.S_IRUSR | stat.S_IRGRP)
    kept = read(readonly)
    run = gradlint("--fix", readonly, writable)
    check("read-only file: exit 2", run.returncode == 2, run.stderr)
    check("read-only file: a one-line error naming it",
          any(line.startswith(readonly) and "read-only" in line
              for line in run.stderr.splitlines()), run.stderr)
    check("read-only file: untouched", read(readonly) == kept)
    check("read-only file: permissions kept", stat.S_IMODE(os.stat(readonly).st_mode) == 0o440)
    check("the other file is still fixed", read(writable) != kept)
    os.chmod(writable, 0o640)
    gradlint("--fix", writable)
    check("--fix keeps a file's permissions", stat.S_IMODE(os.stat(writable).st_mode) == 0o640)

sys.exit(summary())
