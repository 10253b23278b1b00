#!/usr/bin/env python3
"""Scores gradlint on the blind benchmark (test_cases/benchmark/): precision and
recall per check and overall, in both header modes (the bundled API model, the
real LibTorch headers), and the confirmation verdicts of the true findings.

usage: score.py [--gradlint build/bin/gradlint] [--modes model,real] [--confirm]
                [--check] [--update-baseline] [--json OUT] [-j N]

A finding is true when a label of the same program names its check and its line
is the label's `line` or one of its `alt_lines`; each label is matched once.
Labels with a `proposed-*` check (mechanisms no check covers) are listed apart
and kept out of precision and recall. --check fails (exit 1) when a mode's
overall precision or recall is below tools/benchmark/baseline.json: the ratchet
CI runs in model mode.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCHMARK = os.path.join(ROOT, "test_cases", "benchmark")
BASELINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "baseline.json")
TORCH_FLAGS = ["-I/usr/include/torch/csrc/api/include", "-I/usr/include/torch/csrc/distributed"]
MODE_FLAGS = {"model": [], "real": TORCH_FLAGS}


def load_labels():
    with open(os.path.join(BENCHMARK, "labels.json")) as f:
        document = json.load(f)
    return document["programs"]


def run_gradlint(gradlint, programs, mode, confirm, jobs, cache, real_pch):
    """Findings and errors per program path (relative to the benchmark), for one mode."""
    by_flags = collections.defaultdict(list)
    for program in programs:
        by_flags[tuple(program.get("include_dirs", []))].append(program["path"])
    findings, errors = collections.defaultdict(list), collections.defaultdict(list)
    for include_dirs, paths in sorted(by_flags.items()):
        # --inconclusive: the conditional findings come too, scored apart from the
        # definite ones (what a user sees by default).
        command = [gradlint, "--format=json", "--inconclusive", f"-j{jobs}", f"--cache-dir={cache}",
                   *(["--confirm"] if confirm else []), *paths, "--", "-std=c++17",
                   "-DUSE_C10D_GLOO", *(f"-I{d}" for d in include_dirs), *MODE_FLAGS[mode],
                   *(["-include-pch", real_pch] if mode == "real" and real_pch else [])]
        result = subprocess.run(command, cwd=BENCHMARK, capture_output=True, text=True)
        try:
            document = json.loads(result.stdout)
        except json.JSONDecodeError:
            raise SystemExit(f"score: gradlint gave no JSON (exit {result.returncode}):\n"
                             f"{result.stderr[-3000:]}")
        for diagnostic in document["diagnostics"]:
            findings[os.path.normpath(diagnostic["file"])].append(diagnostic)
        for error in document["errors"]:
            errors[os.path.normpath(error.get("file", "?"))].append(error)
    return findings, errors


def score(programs, findings):
    """Per check: [tp, fp, fn]; the matched findings; the missed labels; the false findings."""
    counts = collections.defaultdict(lambda: [0, 0, 0])
    true_findings, missed, false_findings = [], [], []
    for program in programs:
        path = os.path.normpath(program["path"])
        labels = [label for label in program.get("expected", [])]
        unmatched = list(labels)
        for finding in sorted(findings.get(path, []), key=lambda d: (d["line"], d["check"])):
            match = next((label for label in unmatched if label["check"] == finding["check"] and
                          finding["line"] in [label["line"], *label.get("alt_lines", [])]), None)
            if match is not None:
                unmatched.remove(match)
                counts[finding["check"]][0] += 1
                true_findings.append((path, finding))
            else:
                counts[finding["check"]][1] += 1
                false_findings.append((path, finding))
        for label in unmatched:
            counts[label["check"]][2] += 1
            missed.append((path, label))
    return counts, true_findings, missed, false_findings


def ratio(numerator, denominator):
    return numerator / denominator if denominator else None


def fmt(value):
    return "-" if value is None else f"{value:.2f}"


def overall(counts):
    tp = sum(c[0] for c in counts.values())
    fp = sum(c[1] for c in counts.values())
    fn = sum(c[2] for c in counts.values())
    return tp, fp, fn, ratio(tp, tp + fp), ratio(tp, tp + fn)


def print_table(results):
    checks = sorted({check for r in results.values() for check in r["counts"]})
    modes = list(results)
    header = ["check"] + [f"{m}: {x}" for m in modes for x in ("TP", "FP", "FN", "P", "R")]
    rows = []
    for check in checks + ["overall"]:
        row = [check]
        for mode in modes:
            counts = results[mode]["counts"]
            if check == "overall":
                tp, fp, fn, p, r = overall(counts)
            else:
                tp, fp, fn = counts.get(check, [0, 0, 0])
                p, r = ratio(tp, tp + fp), ratio(tp, tp + fn)
            row += [str(tp), str(fp), str(fn), fmt(p), fmt(r)]
        rows.append(row)
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    for r in [header] + rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gradlint", default=os.path.join(ROOT, "build", "bin", "gradlint"))
    parser.add_argument("--modes", default="model,real")
    parser.add_argument("--confirm", action="store_true",
                        help="run --confirm (model mode) and list the true findings' verdicts")
    parser.add_argument("--check", action="store_true", help="fail below baseline.json")
    parser.add_argument("--update-baseline", action="store_true")
    parser.add_argument("--json", help="write the findings and scores here")
    parser.add_argument("-j", type=int, default=2)
    parser.add_argument("--cache-dir", help="gradlint's cache (default: a temporary one)")
    default_pch = os.path.join(ROOT, "build", "test_cases", "real_headers.pch")
    parser.add_argument("--real-pch", default=default_pch if os.path.exists(default_pch) else None,
                        help="the real headers precompiled (test_cases/real_headers.h; the build "
                             "makes it): real mode then parses LibTorch once, not per program")
    args = parser.parse_args()
    gradlint = os.path.abspath(args.gradlint)
    programs = load_labels()
    proposed = [(p["path"], label) for p in programs for label in p.get("proposed", [])]
    print(f"benchmark: {len(programs)} programs, "
          f"{sum(1 for p in programs if p['clean'])} clean, "
          f"{sum(1 for p in programs if p.get('distributed'))} distributed, "
          f"{sum(len(p.get('expected', [])) for p in programs)} labels, "
          f"{len(proposed)} proposed-check labels (not scored)")
    results = {}
    with tempfile.TemporaryDirectory() as scratch:
        cache = args.cache_dir or scratch
        for mode in args.modes.split(","):
            confirm = args.confirm and mode == "model"
            findings, errors = run_gradlint(gradlint, programs, mode, confirm, args.j, cache,
                                            args.real_pch)
            definite = {path: [d for d in found if not d.get("conditional")]
                        for path, found in findings.items()}
            counts, true_findings, missed, false_findings = score(programs, definite)
            with_conditional, _, _, false_conditional = score(programs, findings)
            false_conditional = [(path, f) for path, f in false_conditional if f.get("conditional")]
            clean_flagged = sorted(p["path"] for p in programs
                                   if p["clean"] and definite.get(os.path.normpath(p["path"])))
            results[mode] = {"counts": dict(counts), "true": true_findings, "missed": missed,
                             "false": false_findings, "errors": dict(errors),
                             "with_conditional": dict(with_conditional),
                             "false_conditional": false_conditional,
                             "clean_with_definite_finding": clean_flagged}
    print("default output (definite findings only):")
    print_table(results)
    for mode, r in results.items():
        tp, fp, fn, p, rc = overall(r["with_conditional"])
        print(f"{mode} mode with --inconclusive (conditional findings too): TP {tp} FP {fp} "
              f"FN {fn} precision {fmt(p)} recall {fmt(rc)}; clean programs with a definite "
              f"finding: {len(r['clean_with_definite_finding'])} of "
              f"{sum(1 for p in programs if p['clean'])}")
    for mode, r in results.items():
        print(f"\n{mode} mode: {len(r['errors'])} programs with analysis errors")
        for path, errs in sorted(r["errors"].items()):
            print(f"  error {path}: {errs[0].get('message', '')[:150]}")
        for path, finding in r["false"]:
            print(f"  false {path}:{finding['line']}: {finding['check']}")
        for path, label in r["missed"]:
            print(f"  missed {path}:{label['line']}: {label['check']}")
        verdicts = collections.Counter(
            (finding.get("confirmation") or {}).get("verdict", "none") for _, finding in r["true"])
        if args.confirm and mode == "model":
            print(f"  confirmation of the {len(r['true'])} true findings: " +
                  ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items())))
    if proposed:
        print("\nproposed checks (not scored): " + ", ".join(
            f"{check} {n}" for check, n in sorted(collections.Counter(
                label["check"] for _, label in proposed).items())))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, default=list)
    # Floors for the default output and for --inconclusive, and a ceiling on the
    # clean programs that get a definite finding.
    figures = {mode: {**dict(zip(("precision", "recall"), overall(r["counts"])[3:])),
                      **dict(zip(("inconclusive_precision", "inconclusive_recall"),
                                 overall(r["with_conditional"])[3:])),
                      "clean_with_definite_finding": len(r["clean_with_definite_finding"])}
               for mode, r in results.items()}
    if args.update_baseline:
        # The modes not run keep their entries.
        with open(BASELINE) as f:
            kept = json.load(f)
        with open(BASELINE, "w") as f:
            json.dump({**kept, **figures}, f, indent=1, sort_keys=True)
            f.write("\n")
    if args.check:
        with open(BASELINE) as f:
            baseline = json.load(f)
        failed = False
        for mode, figure in figures.items():
            for name, value in figure.items():
                limit = baseline.get(mode, {}).get(name)
                if limit is None:
                    continue
                if name == "clean_with_definite_finding":
                    if value > limit:
                        print(f"score: {mode}: {value} clean programs with a definite finding, "
                              f"more than the baseline's {limit}")
                        failed = True
                elif (value or 0.0) < limit - 1e-9:
                    print(f"score: {mode} {name} {fmt(value)} is below the baseline {limit:.2f}")
                    failed = True
        return 1 if failed else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
