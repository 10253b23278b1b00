#!/usr/bin/env python3
"""The robustness tally: runs the bad-input and fault-injection tests and
counts their scenarios, a scenario being the part of a check's name before its
first ': ' (one bad input, one injected fault, one kill point...). A scenario
is handled cleanly when every one of its checks passed.

usage: tally.py <gradlint> <repository root> [--kill-runs N] [--kill-files N]
"""
import argparse
import collections
import os
import subprocess
import sys
import tempfile
import time

SUITES = [
    # (label, kind, script relative to the root, extra arguments)
    ("bad-input", "bad input", "test_cases/badinput/badinput_tests.py", []),
    ("bad-input/bounded", "bad input", "test_cases/badinput/bounded_inputs_tests.py", []),
    ("cache/faults", "fault", "test_cases/cache/cache_tests.py", ["{root}", "faults"]),
    ("fixits/safety", "fault", "test_cases/fixits/fix_safety_tests.py", ["{root}"]),
    ("fix-kill-safety", "fault", "test_cases/fixits/kill_safety_tests.py",
     ["{root}", "{kill_runs}", "{kill_files}"]),
    # The whole language-server suite: its faults (a crashed, hung or
    # macro-bomb analysis, nested and oversized messages) and its normal use.
    ("lsp", "server", "test_cases/lsp/lsp_tests.py", ["{root}"]),
]


def scenarios(tally_path):
    """{scenario: all checks passed} in the order first seen."""
    outcome = collections.OrderedDict()
    with open(tally_path, encoding="utf-8") as tally:
        for line in tally:
            result, _, name = line.rstrip("\n").partition("\t")
            scenario = name.split(": ", 1)[0]
            outcome[scenario] = outcome.get(scenario, True) and result == "pass"
    return outcome


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("gradlint")
    parser.add_argument("root")
    parser.add_argument("--kill-runs", default="6")
    parser.add_argument("--kill-files", default="24")
    args = parser.parse_args()
    values = {"root": os.path.abspath(args.root), "kill_runs": args.kill_runs,
              "kill_files": args.kill_files}
    totals = collections.Counter()
    unclean = []
    print(f"{'suite':20} {'kind':10} {'scenarios':>9} {'clean':>6} {'time':>7}")
    for label, kind, script, extra in SUITES:
        with tempfile.NamedTemporaryFile(prefix="gradlint-tally-", delete=False) as handle:
            tally_path = handle.name
        env = dict(os.environ, GRADLINT_TALLY_FILE=tally_path)
        command = [sys.executable, os.path.join(values["root"], script),
                   os.path.abspath(args.gradlint)] + [e.format(**values) for e in extra]
        started = time.time()
        run = subprocess.run(command, env=env, capture_output=True, text=True)
        seconds = time.time() - started
        outcome = scenarios(tally_path)
        os.unlink(tally_path)
        clean = sum(outcome.values())
        totals[kind, "tried"] += len(outcome)
        totals[kind, "clean"] += clean
        unclean += [f"{label}: {name}" for name, ok in outcome.items() if not ok]
        if run.returncode != 0 and clean == len(outcome):
            unclean.append(f"{label}: the script failed (exit {run.returncode}): "
                           f"{run.stdout[-300:]}{run.stderr[-300:]}")
        print(f"{label:20} {kind:10} {len(outcome):9} {clean:6} {seconds:6.0f}s")
        # The kill test's own figures (kills mid-write, files checked).
        for line in run.stdout.splitlines():
            if label == "fix-kill-safety" and ("kills landed" in line or "files checked" in line):
                print(f"{'':20} {line.strip()}")
    for kind, what in (("bad input", "bad inputs"), ("fault", "injected faults"),
                       ("server", "language-server scenarios")):
        print(f"{what}: {totals[kind, 'tried']} tried, {totals[kind, 'clean']} handled cleanly")
    for line in unclean:
        print("NOT CLEAN", line)
    return 1 if unclean else 0


if __name__ == "__main__":
    sys.exit(main())
