#!/usr/bin/env python3
"""gradlint --confirm on every positive test case and the examples: each
diagnosis must be confirmed by the reference runtime with its check's numeric
signature, and the fixed loop must match the large-batch reference.

Nothing here names a check. The checks are the registered ones
(`gradlint --list-checks --checks='*'`); each check's signature is the
"check_signature" of its fixture (fixtures/<name>/fixture.json, see
fixtures/signatures.py); the checks each example must report are the ones
examples/README.md lists for it.

usage: confirm_tests.py <gradlint> <repository root>
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
from xml.etree import ElementTree

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import check, summary  # noqa: E402

GRADLINT, ROOT = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(ROOT, "fixtures"))
import signatures  # noqa: E402

KEYS = {"verdict", "backend", "accumulation_steps", "world_size", "rel_error_buggy",
        "rel_error_fixed", "grad_norm_ratio", "allreduce_calls_per_step", "detail"}


def confirm(files):
    run = subprocess.run([GRADLINT, "--confirm", "--backend=cpu", "--format=json", *files],
                         capture_output=True, text=True)
    return json.loads(run.stdout)["diagnostics"]


def registered_checks():
    listed = subprocess.run([GRADLINT, "--list-checks", "--checks=*"], capture_output=True,
                            text=True, check=True).stdout
    return [line.split()[0] for line in listed.splitlines()[1:] if line.strip()]


def check_signatures():
    """{check id: its fixture's check_signature}."""
    found = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "fixtures", "*", "fixture.json"))):
        with open(path) as f:
            spec = json.load(f)
        if spec.get("check"):
            found[spec["check"]] = spec.get("check_signature")
    return found


def example_expectations():
    """{example file: the checks examples/README.md says fire on it}."""
    with open(os.path.join(ROOT, "examples", "README.md"), encoding="utf-8") as f:
        rows = [line.split("|") for line in f if line.startswith("| `")]
    return {row[1].strip().strip("`"): sorted(set(re.findall(r"\baccum-[a-z0-9-]+", row[3])))
            for row in rows}


CHECKS = registered_checks()
SIGNATURES = check_signatures()
check("gradlint lists the registered checks", CHECKS, CHECKS)
for check_id in CHECKS:
    check(f"{check_id}: its fixture gives a check_signature", SIGNATURES.get(check_id) is not None,
          "add \"check_signature\" to the fixture.json whose \"check\" is " + check_id)


def signature(diagnostic):
    c = diagnostic["confirmation"]
    where = f'{os.path.basename(diagnostic["file"])}:{diagnostic["line"]} [{diagnostic["check"]}]'
    check(f"{where} confirmation keys", set(c) == KEYS, sorted(c))
    expected = SIGNATURES.get(diagnostic["check"])
    if expected is None:
        check(f"{where}: the check has a signature", False, diagnostic["check"])
        return
    violated = signatures.problems(expected, c)
    check(f"{where} has the signature {expected}", not violated, "; ".join(violated))


for check_id in CHECKS:
    positives = sorted(glob.glob(os.path.join(ROOT, "test_cases", check_id, "positive_*.cpp")))
    check(f"{check_id}: has positive test cases", positives)
    diagnostics = confirm(positives) if positives else []
    check(f"{check_id}: every positive case has a diagnosis",
          len({d["file"] for d in diagnostics}) == len(positives))
    for diagnostic in diagnostics:
        signature(diagnostic)

examples = sorted(glob.glob(os.path.join(ROOT, "examples", "*_buggy.cpp")))
example_diagnostics = confirm(examples)
expected_checks = example_expectations()
for example in examples:
    name = os.path.basename(example)
    found = sorted({d["check"] for d in example_diagnostics if os.path.basename(d["file"]) == name})
    check(f"examples: {name} reports the checks examples/README.md lists",
          name in expected_checks and found == expected_checks[name], (found, expected_checks.get(name)))
for diagnostic in example_diagnostics:
    signature(diagnostic)
text = subprocess.run([GRADLINT, "--confirm", examples[0]], capture_output=True, text=True).stdout
check("text output carries a confirmation note", ": note: confirmed on cpu: " in text, text[:400])


def plot_series(panel_polylines):
    """Pixel y of each polyline's points; larger error = smaller y."""
    return [[float(point.split(",")[1]) for point in line.get("points").split()]
            for line in panel_polylines]


# --plot: one panel per diagnosis, three curves; the loop as written drifts away
# from the reference (the zero line), the fixed loop stays on it.
with tempfile.TemporaryDirectory() as scratch:
    svg_path = os.path.join(scratch, "errors.svg")
    run = subprocess.run([GRADLINT, "--backend=cpu", f"--plot={svg_path}", *examples],
                         capture_output=True, text=True)
    check("--plot run exits 1 (findings)", run.returncode == 1, run.stderr)
    root = ElementTree.parse(svg_path).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    lines = root.findall(f"{ns}polyline")
    check("--plot: three curves per diagnosis", len(lines) == 3 * len(example_diagnostics),
          (len(lines), len(example_diagnostics)))
    for i in range(0, len(lines), 3):
        reference, fixed, buggy = plot_series(lines[i:i + 3])
        check(f"--plot panel {i // 3}: 11 points (steps 0..10)",
              len(buggy) == len(fixed) == len(reference) == 11)
        check(f"--plot panel {i // 3}: all curves start together", buggy[0] == fixed[0] == reference[0])
        check(f"--plot panel {i // 3}: the fixed loop stays on the reference",
              max(abs(y - reference[0]) for y in fixed) < 1.0, fixed)
        confirmation = example_diagnostics[i // 3]["confirmation"]
        if confirmation["rel_error_buggy"] > 1e-3:
            check(f"--plot panel {i // 3}: the loop as written drifts away",
                  reference[0] - buggy[-1] > 20.0, buggy)
        else:  # only the traffic differs: both curves stay on the reference
            check(f"--plot panel {i // 3}: matching values stay on the reference",
                  max(abs(y - reference[0]) for y in buggy) < 1.0, buggy)
    bad = subprocess.run([GRADLINT, "--backend=cpu", f"--plot={scratch}/missing/dir/errors.svg",
                          examples[0]], capture_output=True, text=True)
    check("--plot to an unwritable path: exit 2 and a one-line error naming it",
          bad.returncode == 2 and "missing/dir/errors.svg: error: cannot write the plot" in bad.stderr,
          bad.stderr)
    check("--plot to an unwritable path leaves no file behind",
          not os.path.exists(os.path.join(scratch, "missing")))

sys.exit(summary())
