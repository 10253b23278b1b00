#!/usr/bin/env python3
"""Runs gradlint on one annotated test case and checks its diagnostics and fix-its.

The expected diagnostics are written next to the code, clang-tidy style:

    // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: gradient reset {{.*}} [accum-misplaced-zero-grad]

FileCheck matches them against gradlint's output, and any warning or error
that is not listed fails the test. A case without CHECK-MESSAGES lines must
produce no diagnostic at all (exit status 0).

Fix-its are pinned the same way (clang-tidy's CHECK-FIXES convention), as
exact lines of the fixed file:

    // CHECK-FIXES: {{^}}      optimizer.zero_grad();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    }{{$}}

The case is copied to a scratch directory and fixed there; the CHECK-*
annotation lines are removed from the fixed copy (so -NEXT means the next line
of code), and FileCheck --strict-whitespace matches the pins against it:

    CHECK-FIXES         the file after `gradlint --fix` (the safe fixes)
    CHECK-FIXES-UNSAFE  the file after `gradlint --fix --unsafe-fixes`

A case whose findings carry a safe fix-it must have CHECK-FIXES lines, one
whose findings carry an unsafe fix-it must have CHECK-FIXES-UNSAFE lines, and
a case with either kind of line must have such a fix: every fix is pinned, and
so is its safety. tools/pin_fixes.py writes the pins of a case (review them).

A case that still contains a GRADLINT-PLACEHOLDER line (written by
tools/new_check.py) fails until it is written.

usage: check_gradlint.py <gradlint> <source> [--headers=model|real] [--pch=<file>]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

REAL_HEADER_ARGS = [
    "-I/usr/include/torch/csrc/api/include",
    "-I/usr/include/torch/csrc/distributed",
    "-DUSE_C10D_GLOO",
]
HEADER_LINE = re.compile(r"^\S.*?:\d+:\d+: (warning|error|note): ")
PLACEHOLDER = "GRADLINT-PLACEHOLDER"
# (FileCheck prefix, gradlint options, which fixes it pins)
FIX_PREFIXES = [
    ("CHECK-FIXES", ["--fix"], "safe"),
    ("CHECK-FIXES-UNSAFE", ["--fix", "--unsafe-fixes"], "unsafe"),
]
ANNOTATION_LINE = re.compile(r"^\s*//\s*CHECK-[A-Z0-9-]+:")
FIX_NOTE = re.compile(r"^\S.*?:(\d+):\d+: note: (unsafe )?fix available \([^)]*\): (.*)$")


def compiler_args(headers, pch):
    args = ["-std=c++17"]
    if headers == "real":
        args += REAL_HEADER_ARGS
        if pch:
            args += ["-include-pch", pch]
    return args


def has_directives(text, prefix):
    """Whether the text has FileCheck directives of exactly this prefix."""
    return re.search(rf"\b{re.escape(prefix)}(-NEXT|-SAME|-NOT|-EMPTY|-DAG|-LABEL|-COUNT-\d+)?:",
                     text) is not None


def strip_annotations(text):
    """The code without its CHECK-* annotation lines (what fix pins are matched against)."""
    return "".join(line for line in text.splitlines(keepends=True)
                   if not ANNOTATION_LINE.match(line))


def fixed_text(gradlint, source_text, name, options, args):
    """(fixed text, gradlint's output): the case run through `gradlint <options>` in a
    scratch directory."""
    with tempfile.TemporaryDirectory(prefix="gradlint-fixes-") as scratch:
        copy = os.path.join(scratch, name)
        with open(copy, "w", encoding="utf-8") as handle:
            handle.write(source_text)
        run = subprocess.run([gradlint, "--inconclusive", *options, copy, "--"] + args,
                             capture_output=True, text=True)
        if run.returncode not in (0, 1):
            raise CaseFailure(f"gradlint {' '.join(options)} failed ({run.returncode}):\n{run.stderr}")
        with open(copy, encoding="utf-8") as handle:
            return handle.read(), run.stdout


class CaseFailure(Exception):
    """Why a case fails (the message starts after "FAIL: ")."""


def fix_kinds(output):
    """{"safe": [...], "unsafe": [...]}: the fix-its that gradlint's text output offers."""
    kinds = {"safe": [], "unsafe": []}
    for line in output.splitlines():
        match = FIX_NOTE.match(line)
        if match:
            kinds["unsafe" if match.group(2) else "safe"].append(f"line {match.group(1)}: {match.group(3)}")
    return kinds


def pinned_prefixes(text):
    """The FIX_PREFIXES entries whose pins the case has."""
    return [entry for entry in FIX_PREFIXES if has_directives(text, entry[0])]


def check_fixes(source, text, output, fixed_by, filecheck):
    """Raises CaseFailure unless every fix-it is pinned by CHECK-FIXES(-UNSAFE) lines that
    match; `fixed_by(options)` is the case's text after `gradlint <options>`."""
    kinds = fix_kinds(output)
    for prefix, options, kind in FIX_PREFIXES:
        pinned = has_directives(text, prefix)
        if kinds[kind] and not pinned:
            raise CaseFailure(f"the findings carry {kind} fix-its but the case has no {prefix} "
                              f"line to pin the fixed code (tools/pin_fixes.py writes them):\n  " +
                              "\n  ".join(kinds[kind]))
        if pinned and not kinds[kind]:
            raise CaseFailure(f"the case has {prefix} lines but no finding carries a {kind} fix-it")
        if not pinned:
            continue
        fixed = fixed_by(options)
        with tempfile.NamedTemporaryFile("w", suffix=".cpp", encoding="utf-8") as stripped:
            stripped.write(strip_annotations(fixed))
            stripped.flush()
            check = subprocess.run(
                [filecheck, source, f"--check-prefix={prefix}", "--strict-whitespace",
                 f"--input-file={stripped.name}", "--dump-input=fail"],
                capture_output=True, text=True)
        if check.returncode != 0:
            raise CaseFailure(f"the fixed code (gradlint {' '.join(options)}) does not match the "
                              f"{prefix} lines\n" + check.stderr)
    return sum(len(v) for v in kinds.values())


def check_case(source, text, output, errors, fixed_by, filecheck):
    """The verdict on one case from gradlint's text `output` for it (its diagnostics with
    their source excerpts) and its `errors` (error lines naming it). Returns the "OK: ..."
    line; raises CaseFailure."""
    placeholders = [line.strip() for line in text.splitlines() if PLACEHOLDER in line]
    if placeholders:
        raise CaseFailure("a placeholder case written by tools/new_check.py; write the case and "
                          "remove its " + PLACEHOLDER + " line:\n  " + "\n  ".join(placeholders))
    if errors:
        raise CaseFailure("gradlint reported an error:\n" + "\n".join(errors))
    diagnostics = "\n".join(line for line in output.splitlines() if HEADER_LINE.match(line))
    warnings = [line for line in diagnostics.splitlines() if ": warning: " in line]
    expected = [line for line in text.splitlines() if "CHECK-MESSAGES:" in line]
    if not expected:
        # Nothing at all: a note on its own (a gap in the API model) exits 1 too.
        if diagnostics:
            raise CaseFailure("expected no diagnostics, got:\n" + output)
        if pinned_prefixes(text):
            raise CaseFailure("the case has CHECK-FIXES lines but no diagnostics")
        return "OK: no diagnostics"
    if not warnings:
        raise CaseFailure("expected diagnostics (exit status 1), got none:\n" + output)
    check = subprocess.run(
        [filecheck, source, "--check-prefix=CHECK-MESSAGES",
         "--implicit-check-not={{warning|error}}:", "--dump-input=never"],
        input=diagnostics, capture_output=True, text=True)
    if check.returncode != 0:
        raise CaseFailure("diagnostics do not match the annotations\n" + check.stderr +
                          "\n--- gradlint output ---\n" + diagnostics)
    fixes = check_fixes(source, text, output, fixed_by, filecheck)
    return (f"OK: {len(warnings)} diagnostics as annotated" +
            (f", {fixes} fix-its as pinned" if fixes else ""))


def filecheck_path():
    filecheck = os.environ.get("FILECHECK", "/usr/lib/llvm-19/bin/FileCheck")
    if not shutil.which(filecheck):
        sys.exit(f"FAIL: FileCheck not found: {filecheck}")
    return filecheck


def main():
    gradlint, source = sys.argv[1], sys.argv[2]
    headers, pch = "model", None
    for arg in sys.argv[3:]:
        if arg.startswith("--headers="):
            headers = arg.split("=", 1)[1]
        elif arg.startswith("--pch="):
            pch = arg.split("=", 1)[1] or None
    filecheck = filecheck_path()
    with open(source, encoding="utf-8") as handle:
        text = handle.read()
    args = compiler_args(headers, pch)
    # --inconclusive: a case pins a conditional finding by its "(conditional) " mark.
    run = subprocess.run([gradlint, "--inconclusive", source, "--"] + args, capture_output=True,
                         text=True)
    errors = [line for line in run.stderr.splitlines() if ": error: " in line]
    if run.returncode == 2 and not errors:
        errors = [run.stderr]
    try:
        print(check_case(source, text, run.stdout, errors,
                         lambda options: fixed_text(gradlint, text, os.path.basename(source),
                                                    options, args)[0], filecheck))
    except CaseFailure as failure:
        sys.exit(f"FAIL: {failure}")


if __name__ == "__main__":
    main()
