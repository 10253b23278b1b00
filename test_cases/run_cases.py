#!/usr/bin/env python3
"""Runs annotated test cases in batches: the same verdicts as check_gradlint.py
gives each case alone, from one gradlint process per batch instead of up to
three per case.

A batch is analysed once, then fixed once with --fix and once with
--fix --unsafe-fixes (copies of the cases that pin such fixes, in a scratch
directory); each case's part of the output and its fixed text are checked as
check_gradlint.check_case checks a single run. gradlint runs with
--no-isolation and without the result cache: each case is analysed afresh, and
a crash ends the batch loudly (the bad-input test checks that isolated runs
print the same).

usage: run_cases.py <gradlint> [--headers=model|real] [--pch=<file>] [--jobs=N]
                    [--sample-stride=N] <case.cpp or directory>...

--sample-stride=N runs every Nth case (by name, so negative and positive ones)
of each directory: the sanitizer suite's sample, where the release build runs
them all.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_gradlint import (FIX_PREFIXES, HEADER_LINE, CaseFailure, check_case,  # noqa: E402
                            compiler_args, filecheck_path, pinned_prefixes)

ERROR_LINE = re.compile(r"^(.*?): error: ")


def cases_of(paths, stride=1):
    cases = []
    for path in paths:
        if os.path.isdir(path):
            cases += sorted(os.path.join(path, name) for name in os.listdir(path)
                            if name.endswith(".cpp"))[::stride]
        else:
            cases.append(path)
    return [os.path.abspath(case) for case in cases]


def split_by_file(stdout, stderr, files):
    """({file: its diagnostics with their excerpts}, {file: its error lines}). A header
    line starts a file's part; the excerpt lines under it belong to the same file."""
    outputs = {file: [] for file in files}
    errors = {file: [] for file in files}
    current = None
    for line in stdout.splitlines():
        if HEADER_LINE.match(line):
            current = next((f for f in files if line.startswith(f + ":")), None)
            if current is None:
                raise CaseFailure(f"a diagnostic in no case of the batch: {line}")
        if current is not None:
            outputs[current].append(line)
    for line in stderr.splitlines():
        match = ERROR_LINE.match(line)
        if match:
            named = next((f for f in files if match.group(1).startswith(f)), None)
            if named is None:
                raise CaseFailure(f"an error about no case of the batch: {line}")
            errors[named].append(line)
    return {f: "\n".join(lines) for f, lines in outputs.items()}, errors


def run_gradlint(gradlint, options, files, args, jobs):
    # --inconclusive: the cases pin conditional findings too, by their "(conditional) " mark.
    return subprocess.run([gradlint, "--no-isolation", "--no-result-cache", "--inconclusive",
                           f"-j{jobs}", *options,
                           *files, "--", *args], capture_output=True, text=True)


def fixed_texts(gradlint, texts, options, args, jobs, scratch):
    """{case: its text after `gradlint <options>`}, one run on copies of the cases."""
    copies = {}
    for index, (case, text) in enumerate(texts.items()):
        # One folder per case: cases of two checks may share a name.
        folder = os.path.join(scratch, str(index))
        os.makedirs(folder)
        copies[case] = os.path.join(folder, os.path.basename(case))
        with open(copies[case], "w", encoding="utf-8") as handle:
            handle.write(text)
    if not copies:
        return {}
    run = run_gradlint(gradlint, options, list(copies.values()), args, jobs)
    if run.returncode not in (0, 1):
        raise CaseFailure(f"gradlint {' '.join(options)} on the batch failed "
                          f"({run.returncode}):\n{run.stderr}")
    fixed = {}
    for case, copy in copies.items():
        with open(copy, encoding="utf-8") as handle:
            fixed[case] = handle.read()
    return fixed


def main():
    gradlint = sys.argv[1]
    headers, pch, jobs, stride, paths = "model", None, os.cpu_count() or 2, 1, []
    for arg in sys.argv[2:]:
        if arg.startswith("--headers="):
            headers = arg.split("=", 1)[1]
        elif arg.startswith("--pch="):
            pch = arg.split("=", 1)[1] or None
        elif arg.startswith("--jobs="):
            jobs = int(arg.split("=", 1)[1])
        elif arg.startswith("--sample-stride="):
            stride = int(arg.split("=", 1)[1])
        else:
            paths.append(arg)
    filecheck = filecheck_path()
    cases = cases_of(paths, stride)
    if not cases:
        sys.exit("FAIL: no cases in " + " ".join(paths))
    texts = {}
    for case in cases:
        with open(case, encoding="utf-8") as handle:
            texts[case] = handle.read()
    args = compiler_args(headers, pch)
    run = run_gradlint(gradlint, [], cases, args, jobs)
    if run.returncode not in (0, 1, 2):
        sys.exit(f"FAIL: gradlint on the batch ended with status {run.returncode}:\n{run.stderr}")
    try:
        outputs, errors = split_by_file(run.stdout, run.stderr, cases)
        with tempfile.TemporaryDirectory(prefix="gradlint-cases-") as scratch:
            fixed = {}
            for prefix, options, _ in FIX_PREFIXES:
                pinning = {case: texts[case] for case in cases
                           if prefix in [p for p, _, _ in pinned_prefixes(texts[case])]}
                fixed[prefix] = fixed_texts(gradlint, pinning, options, args, jobs,
                                            os.path.join(scratch, prefix))
    except CaseFailure as failure:
        sys.exit(f"FAIL: {failure}")

    def fixed_by(case):
        def lookup(options):
            prefix = next(p for p, o, _ in FIX_PREFIXES if o == options)
            return fixed[prefix][case]
        return lookup

    failed = 0
    for case in cases:
        name = os.path.relpath(case)
        try:
            verdict = check_case(case, texts[case], outputs[case], errors[case], fixed_by(case),
                                 filecheck)
        except CaseFailure as failure:
            failed += 1
            print(f"FAIL {name}: {failure}")
            continue
        print(f"{verdict.split(':')[0]} {name}:{verdict.split(':', 1)[1]}")
    print(f"{len(cases) - failed} of {len(cases)} cases passed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
