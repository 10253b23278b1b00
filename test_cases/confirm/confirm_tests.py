#!/usr/bin/env python3
"""gradlint --confirm on every positive test case, the examples and the cases
of test_cases/confirm/cases: each diagnosis must be confirmed by the reference
runtime with its check's numeric signature (the fixed loop matching the
large-batch reference), unless the file pins another verdict:

    // CONFIRM-VERDICT: <check> <confirmed|not-confirmed|not-executable>[: <regex on the detail>]
    // CONFIRM-FIGURE: <check> <figure> <op> <expression in N and W>
    // CONFIRM-ASSUMED: <check> <name> = <value>

Every run pins its backend (--backend=cpu).

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
        "rel_error_fixed", "grad_norm_ratio", "allreduce_calls_per_step", "detail",
        "update_ratio", "parameter_error_as_written", "parameter_error_with_fix", "windows", "fix",
        "learning_rate_as_written", "learning_rate_reference", "last_step_gradient_ratio",
        "unstepped_fraction", "leaked_fraction", "triangular_fit_error", "assumptions", "setting", "skipped"}
SETTING_KEYS = {"model", "loss", "optimizer", "dtype", "backend"}
PIN = re.compile(r"//\s*CONFIRM-(VERDICT|FIGURE|ASSUMED):\s*(accum-[a-z0-9-]+)\s+(.*?)\s*$")


def pins(path):
    """{check: {"verdict": (verdict, regex), "figures": [...], "assumed": [(name, value)]}}."""
    found = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            match = PIN.search(line)
            if not match:
                continue
            kind, check_id, rest = match.groups()
            entry = found.setdefault(check_id, {"verdict": None, "figures": [], "assumed": []})
            if kind == "VERDICT":
                verdict, _, regex = rest.partition(":")
                entry["verdict"] = (verdict.strip(), regex.strip())
            elif kind == "FIGURE":
                entry["figures"].append(rest)
            else:
                # " = " with its spaces: a name may hold `>=` or `==`.
                name, _, value = rest.partition(" = ")
                entry["assumed"].append((name.strip(), value.strip()))
    return found


def confirm(files):
    # In-process: bad-input checks that isolated runs confirm the same (one
    # process per file would cost more than the loops here).
    run = subprocess.run([GRADLINT, "--no-isolation", "--confirm", "--backend=cpu",
                          "--inconclusive", "--format=json", *files],
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
    check(f"{where} setting keys", set(c.get("setting", {})) == SETTING_KEYS, c.get("setting"))
    check(f"{where} ran on the pinned backend", c["backend"] == "cpu" == c["setting"]["backend"],
          c["backend"])
    for a in c.get("assumptions", []):
        check(f"{where} assumption {a.get('name')!r} says its value and why",
              a.get("name") and a.get("value") and a.get("why"), a)
    pinned = pins(diagnostic["file"]).get(diagnostic["check"], {})
    verdict, regex = pinned.get("verdict") or ("confirmed", "")
    for name, value in pinned.get("assumed", []):
        check(f"{where} assumes {name} = {value}",
              any(a["name"] == name and a["value"] == value for a in c["assumptions"]),
              c["assumptions"])
    for condition in pinned.get("figures", []):
        violated = signatures.conditions_violated([condition], c)
        check(f"{where} {condition}", not violated, "; ".join(violated))
    if verdict != "confirmed" or regex:
        check(f"{where} is {verdict}", c["verdict"] == verdict, (c["verdict"], c["detail"]))
        check(f"{where} says why ({regex})", re.search(regex, c["detail"]) is not None, c["detail"])
        if c["verdict"] == "not-confirmed" and "no numerical effect" in c["detail"]:
            check(f"{where} as written matches the reference",
                  c["parameter_error_as_written"] < 1e-4, c["parameter_error_as_written"])
        return
    expected = SIGNATURES.get(diagnostic["check"])
    if expected is None:
        check(f"{where}: the check has a signature", False, diagnostic["check"])
        return
    # A conditional finding holds only for values the code does not give: when
    # the run chose them, its verdict says the effect depends on them, and its
    # figures (for that stand-in) still carry the check's signature.
    depends = (diagnostic.get("conditional") and c["verdict"] == "not-confirmed"
               and c["detail"].startswith("depends on"))
    violated = signatures.problems(expected, dict(c, verdict="confirmed") if depends else c)
    check(f"{where} has the signature {expected}", not violated, "; ".join(violated))
    check(f"{where} the fixed loop's parameters match the reference",
          c["parameter_error_with_fix"] < signatures.FIXED_TOLERANCE, c["parameter_error_with_fix"])


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
# The cases that pin a verdict other than confirmed, or the figures behind one.
cases = sorted(glob.glob(os.path.join(ROOT, "test_cases", "confirm", "cases", "*.cpp")))
case_diagnostics = confirm(cases)
check("confirm/cases: every case has a diagnosis",
      {d["file"] for d in case_diagnostics} == set(cases),
      sorted(set(cases) - {d["file"] for d in case_diagnostics}))
for case in cases:
    check(f"confirm/cases/{os.path.basename(case)} pins a verdict",
          any(p["verdict"] for p in pins(case).values()))
for diagnostic in case_diagnostics:
    signature(diagnostic)
verdicts = [d["confirmation"]["verdict"] for d in case_diagnostics]
for verdict in ("confirmed", "not-confirmed", "not-executable"):
    check(f"confirm/cases: some case is {verdict}", verdict in verdicts, verdicts)

# Programs written by someone who had not read these tests, with their TRUTH line.
blind = sorted(glob.glob(os.path.join(ROOT, "test_cases", "confirm", "blind", "*.cpp")))
blind_diagnostics = confirm(blind)
for program in blind:
    with open(program, encoding="utf-8") as f:
        truth = next((line for line in f if line.startswith("// TRUTH:")), "")
    found = [d for d in blind_diagnostics if d["file"] == program]
    name = os.path.basename(program)
    if truth.startswith("// TRUTH: correct"):
        check(f"blind/{name}: no finding in a correct program", not found,
              [(d["line"], d["check"]) for d in found])
    else:
        check(f"blind/{name}: a finding in a buggy program", found, truth)
for diagnostic in blind_diagnostics:
    signature(diagnostic)

text = subprocess.run([GRADLINT, "--confirm", "--backend=cpu", examples[0]], capture_output=True,
                      text=True).stdout
check("text output carries a confirmation note", ": note: confirmed on cpu: " in text, text[:400])
check("text output says what it ran on", ": note: ran " in text and "stand-in" in text, text[:400])


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
    panels = root.findall(f"{ns}g")
    check("--plot: one panel per diagnosis", len(panels) == len(example_diagnostics),
          (len(panels), len(example_diagnostics)))
    width = float(root.get("width"))
    # SVG text does not wrap: each left-aligned line must fit at a generous
    # 0.6 em per character (the subtitles ran off the image before).
    overflowing = [t.text for t in root.iter(f"{ns}text")
                   if t.get("text-anchor") is None and "transform" not in t.attrib and t.text and
                   float(t.get("x")) + len(t.text) * 0.6 * float(t.get("font-size", 12)) > width]
    check("--plot: every heading and legend line fits the image's width", not overflowing,
          overflowing)
    for i, (panel, diagnostic) in enumerate(zip(panels, example_diagnostics)):
        lines = panel.findall(f"{ns}polyline")
        confirmation = diagnostic["confirmation"]
        check(f"--plot panel {i}: the panel of {diagnostic['check']}",
              panel.get("data-check") == diagnostic["check"], panel.attrib)
        if panel.get("data-plot") == "all-reduce-calls":
            # Only the traffic differs: all-reduces so far, as written and fixed.
            check(f"--plot panel {i}: only a sync whose values match shows its all-reduces",
                  diagnostic["check"] == "accum-unguarded-grad-sync" and
                  confirmation["parameter_error_as_written"] <= 1e-3, confirmation)
            fixed, buggy = plot_series(lines)
            rise = lambda series: series[0] - series[-1]  # noqa: E731
            check(f"--plot panel {i}: as written, N times the all-reduces of the fix",
                  len(lines) == 2 and rise(fixed) > 0 and
                  abs(rise(buggy) / rise(fixed) / confirmation["accumulation_steps"] - 1) < 0.05,
                  (rise(buggy), rise(fixed), confirmation["accumulation_steps"]))
            continue
        check(f"--plot panel {i}: three curves", len(lines) == 3, len(lines))
        reference, fixed, buggy = plot_series(lines)
        check(f"--plot panel {i}: 11 points (steps 0..10)",
              len(buggy) == len(fixed) == len(reference) == 11)
        check(f"--plot panel {i}: all curves start together", buggy[0] == fixed[0] == reference[0])
        check(f"--plot panel {i}: the fixed loop stays on the reference",
              max(abs(y - reference[0]) for y in fixed) < 1.0, fixed)
        if confirmation["parameter_error_as_written"] > 1e-3:
            check(f"--plot panel {i}: the loop as written drifts away",
                  reference[0] - buggy[-1] > 20.0, buggy)
        else:  # the gradient's scale under Adam differs, the values match
            check(f"--plot panel {i}: matching values stay on the reference",
                  max(abs(y - reference[0]) for y in buggy) < 1.0, buggy)
    check("--plot: the unguarded sync is drawn as all-reduces",
          any(p.get("data-plot") == "all-reduce-calls" for p in panels),
          [p.attrib for p in panels])
    bad = subprocess.run([GRADLINT, "--backend=cpu", f"--plot={scratch}/missing/dir/errors.svg",
                          examples[0]], capture_output=True, text=True)
    check("--plot to an unwritable path: exit 2 and a one-line error naming it",
          bad.returncode == 2 and "missing/dir/errors.svg: error: cannot write the plot" in bad.stderr,
          bad.stderr)
    check("--plot to an unwritable path leaves no file behind",
          not os.path.exists(os.path.join(scratch, "missing")))

sys.exit(summary())
