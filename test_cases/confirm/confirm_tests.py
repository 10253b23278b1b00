#!/usr/bin/env python3
"""gradlint --confirm on every positive test case and the examples: each
diagnosis must be confirmed by the reference runtime, with the numeric
signature CHECKS.md gives for its check, and the fixed loop must match the
large-batch reference.

usage: confirm_tests.py <gradlint> <repository root>
"""
import glob
import json
import os
import subprocess
import sys
import tempfile
from xml.etree import ElementTree

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import check, summary  # noqa: E402

GRADLINT, ROOT = sys.argv[1], sys.argv[2]
KEYS = {"verdict", "backend", "accumulation_steps", "world_size", "rel_error_buggy",
        "rel_error_fixed", "grad_norm_ratio", "allreduce_calls_per_step", "detail"}


def confirm(files):
    run = subprocess.run([GRADLINT, "--confirm", "--backend=cpu", "--format=json", *files],
                         capture_output=True, text=True)
    return json.loads(run.stdout)["diagnostics"]


def signature(diagnostic):
    c = diagnostic["confirmation"]
    where = f'{os.path.basename(diagnostic["file"])}:{diagnostic["line"]}'
    check(f"{where} confirmation keys", set(c) == KEYS, sorted(c))
    check(f"{where} confirmed", c["verdict"] == "confirmed", c["detail"])
    check(f"{where} fixed loop matches the reference", c["rel_error_fixed"] < 1e-5, c)
    n, w = c["accumulation_steps"], c["world_size"]
    kind = diagnostic["check"]
    if kind == "accum-missing-loss-division":
        check(f"{where} norm ratio == N", abs(c["grad_norm_ratio"] - n) < 1e-3 * n, c)
    elif kind == "accum-double-world-size-scaling":
        check(f"{where} norm ratio == 1/W", abs(c["grad_norm_ratio"] - 1.0 / w) < 1e-3, c)
    elif kind == "accum-unguarded-grad-sync":
        check(f"{where} at least N all-reduces per step", c["allreduce_calls_per_step"] >= n, c)
    else:
        check(f"{where} deviates from the reference", c["rel_error_buggy"] > 1e-3, c)


for case_dir in sorted(glob.glob(os.path.join(ROOT, "test_cases", "accum-*"))):
    positives = sorted(glob.glob(os.path.join(case_dir, "positive_*.cpp")))
    diagnostics = confirm(positives)
    check(f"{os.path.basename(case_dir)}: every positive case has a diagnosis",
          len({d["file"] for d in diagnostics}) == len(positives))
    for diagnostic in diagnostics:
        signature(diagnostic)

examples = sorted(glob.glob(os.path.join(ROOT, "examples", "*_buggy.cpp")))
example_diagnostics = confirm(examples)
check("examples: all five checks are confirmed",
      {d["check"] for d in example_diagnostics if d["confirmation"]["verdict"] == "confirmed"} ==
      {"accum-misplaced-zero-grad", "accum-missing-loss-division", "accum-per-micro-batch-clip",
       "accum-unguarded-grad-sync", "accum-double-world-size-scaling"})
zero_grad = [d for d in example_diagnostics if d["check"] == "accum-misplaced-zero-grad"]
check("misplaced reset applies the last micro-batch's gradient",
      zero_grad and "last micro-batch" in zero_grad[0]["confirmation"]["detail"], zero_grad)
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
