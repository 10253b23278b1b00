#!/usr/bin/env python3
"""gradlint --confirm on the CUDA backend gives the CPU's verdicts and figures.

Every positive test case, confirm case and example runs with --backend=cpu and
with --backend=cuda; each diagnosis must get the same verdict, and every
figure must agree within 1e-5 (relative to max(1, |figure|)). Without a CUDA
device (gradlint says so and exits 2) the test is skipped: exit 77.

usage: confirm_cuda_parity.py <gradlint> <repository root>
"""
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import check, summary  # noqa: E402

GRADLINT, ROOT = sys.argv[1], sys.argv[2]
FIGURES = ("accumulation_steps", "world_size", "rel_error_buggy", "rel_error_fixed",
           "grad_norm_ratio", "allreduce_calls_per_step", "update_ratio",
           "parameter_error_as_written", "parameter_error_with_fix")
TOLERANCE = 1e-5

files = (sorted(glob.glob(os.path.join(ROOT, "test_cases", "accum-*", "positive_*.cpp")))
         + sorted(glob.glob(os.path.join(ROOT, "test_cases", "confirm", "cases", "*.cpp")))
         + sorted(glob.glob(os.path.join(ROOT, "examples", "*_buggy.cpp"))))

probe = subprocess.run([GRADLINT, "--confirm", "--backend=cuda", files[0]], capture_output=True,
                       text=True)
if probe.returncode == 2 and "no CUDA device" in probe.stderr:
    print("SKIPPED: no CUDA device (" + probe.stderr.strip().splitlines()[-1] + ")")
    sys.exit(77)


def confirmations(backend):
    run = subprocess.run([GRADLINT, "--confirm", f"--backend={backend}", "--inconclusive",
                          "--format=json", *files],
                         capture_output=True, text=True)
    found = {}
    for d in json.loads(run.stdout)["diagnostics"]:
        found[(os.path.relpath(d["file"], ROOT), d["line"], d["check"])] = d["confirmation"]
    return found


cpu, cuda = confirmations("cpu"), confirmations("cuda")
check("the same diagnoses on both backends", set(cpu) == set(cuda),
      sorted(set(cpu) ^ set(cuda))[:5])
check("every diagnosis is confirmed on cuda by the cuda backend",
      all(c["backend"] == "cuda" for c in cuda.values()))
for key in sorted(set(cpu) & set(cuda)):
    a, b = cpu[key], cuda[key]
    where = f"{key[0]}:{key[1]} [{key[2]}]"
    check(f"{where}: the same verdict", a["verdict"] == b["verdict"],
          (a["verdict"], b["verdict"], b["detail"]))
    for figure in FIGURES:
        check(f"{where}: {figure} agrees within {TOLERANCE}",
              abs(a[figure] - b[figure]) <= TOLERANCE * max(1.0, abs(a[figure])),
              (a[figure], b[figure]))
print(f"{len(cpu)} diagnoses compared")
sys.exit(summary())
